// CSR merge-path SpMV (Merrill & Garland, SC'16; the decomposition is in
// csr_merge_path.cuh): one block per tile of 128 * items_per_thread path
// steps, whatever the row lengths, so empty rows and one enormous row cost
// the same as any other steps.
//
// In a tile, the block first stages the tile's row ends and the products
// a_ij * x_j of its entries in shared memory: col_idx/values loads are
// coalesced and evict-first, x is read through the read-only cache, and all
// of a thread's loads are in flight at once. Then finish_merge_tile walks the
// path (each thread items_per_thread steps), writes y of the rows ending in
// the tile and leaves the carry of the row open at its end in workspace; a
// second small pass (SplitRowFixup) adds the carries of each cut row to its
// y in a fixed order, so that results are deterministic.
#include "cuda/csr_kernels.hpp"
#include "cuda/csr_merge_path.cuh"
#include "cuda/cuda_check.hpp"
#include "cuda/dependent_launch.cuh"

namespace spmv::detail {

namespace {

// Measured on H200 (2026-11-22, docs/perf-notes.md): blocks of 256 threads
// (tiles of 1024 with 4 items, 2048 with 8) and several tiles per block were
// no faster than 128 threads and one tile anywhere, and slower on stencils.
constexpr int merge_block_size = 128;

template <class T, int ItemsPerThread>
__global__ void __launch_bounds__(merge_block_size)
    spmv_csr_merge_kernel(CsrView<T> a, const MergeCoord* __restrict__ tile_starts,
                          const T* __restrict__ x, T* __restrict__ y, T alpha, T beta,
                          T* __restrict__ tile_carries) {
  constexpr int tile_size = merge_block_size * ItemsPerThread;
  __shared__ index_t row_ends[tile_size + 1];
  __shared__ T products[tile_size];
  __shared__ RowCarry<T> warp_totals[merge_block_size / warp_size];
  let_next_kernel_start();  // the fix-up of split rows, which waits for this kernel's end

  const MergeCoord tile_begin = tile_starts[blockIdx.x];
  const MergeCoord tile_end = tile_starts[blockIdx.x + 1];
  const index_t tile_rows = tile_end.row - tile_begin.row;
  const index_t tile_entries = tile_end.entry - tile_begin.entry;

  // Stage products (all loads of a thread issued before any is used) and the
  // row ends, one beyond the tile's last so that the walk needs no special
  // case at the tile's end.
  index_t cols[ItemsPerThread];
  T vals[ItemsPerThread];
#pragma unroll
  for (int item = 0; item < ItemsPerThread; ++item) {
    const index_t j = item * merge_block_size + threadIdx.x;
    if (j < tile_entries) {
      cols[item] = load_streaming(a.col_idx + tile_begin.entry + j);
      vals[item] = load_streaming(a.values + tile_begin.entry + j);
    }
  }
#pragma unroll
  for (int item = 0; item <= ItemsPerThread; ++item) {
    const index_t i = item * merge_block_size + threadIdx.x;
    if (i <= tile_rows)
      row_ends[i] =
          load_streaming(a.row_ptr + min(tile_begin.row + i + 1, a.rows)) - tile_begin.entry;
  }
#pragma unroll
  for (int item = 0; item < ItemsPerThread; ++item) {
    const index_t j = item * merge_block_size + threadIdx.x;
    if (j < tile_entries) products[j] = vals[item] * load_cached(x + cols[item]);
  }
  __syncthreads();

  const T carry = finish_merge_tile<ItemsPerThread>(
      [&](index_t i) { return row_ends[i]; }, [&](index_t j) { return products[j]; },
      tile_begin.row, tile_rows, tile_entries, y, alpha, beta, warp_totals);
  if (threadIdx.x == merge_block_size - 1) tile_carries[blockIdx.x] = carry;
}

constexpr int plan_block_size = 256;

// Tile t's start; and, as it is where tile t - 1 ends, whether tile t - 1
// ends inside a row (after its first entry).
__global__ void merge_tile_starts_kernel(const index_t* row_ptr, index_t rows, index_t nnz, std::int64_t tile_size,
                                         std::int64_t tiles, MergeCoord* starts, std::uint8_t* ends_inside_row) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t > tiles) return;
  const std::int64_t steps = static_cast<std::int64_t>(rows) + nnz;
  const MergeCoord start = merge_path_point(row_ptr, rows, nnz, t * tile_size < steps ? t * tile_size : steps);
  starts[t] = start;
  if (t > 0) ends_inside_row[t - 1] = start.row < rows && start.entry != row_ptr[start.row];
}

template <class T>
class CsrMerge final : public CsrAlgorithm<T> {
 public:
  explicit CsrMerge(int items_per_thread) : items_per_thread_(items_per_thread) {}

  void prepare(const CsrView<T>& device) override {
    MergeTiles plan = plan_merge_tiles(device.row_ptr, device.rows, device.nnz,
                                       static_cast<std::int64_t>(merge_block_size) * items_per_thread_);
    tiles_ = plan.count;
    tile_starts_ = std::move(plan.starts);
    tile_carries_ = DeviceBuffer<T>(tiles_, "csr-merge tile carries");
    fixup_ = SplitRowFixup(plan.split_rows);
  }

  void spmv(const CsrView<T>& a, const T* x, T* y, T alpha, T beta,
            cudaStream_t stream) const override {
    if (tiles_ == 0) return;
    const auto blocks = static_cast<unsigned>(tiles_);
    const auto launch = [&](auto kernel) {
      kernel<<<blocks, merge_block_size, 0, stream>>>(a, tile_starts_.data(), x, y, alpha, beta,
                                                      tile_carries_.data());
    };
    switch (items_per_thread_) {
      case 4: launch(spmv_csr_merge_kernel<T, 4>); break;
      case 8: launch(spmv_csr_merge_kernel<T, 8>); break;
      case 12: launch(spmv_csr_merge_kernel<T, 12>); break;
      default: launch(spmv_csr_merge_kernel<T, 16>); break;
    }
    SPMV_LAUNCH_CHECK();
    // The tile ending in a row wrote alpha * (its part) + beta * y; add the rest.
    fixup_.launch(tile_carries_.data(), y, alpha, T(1), stream);
  }

  KernelParams params() const override { return {{"items_per_thread", items_per_thread_}}; }
  std::size_t workspace_bytes() const override {
    return tile_starts_.bytes() + tile_carries_.bytes() + fixup_.bytes();
  }

 private:
  int items_per_thread_;
  std::int64_t tiles_ = 0;
  DeviceBuffer<MergeCoord> tile_starts_;
  mutable DeviceBuffer<T> tile_carries_;  // written by every product
  SplitRowFixup fixup_;
};

}  // namespace

MergeTiles plan_merge_tiles(const index_t* row_ptr, index_t rows, index_t nnz, std::int64_t tile_size) {
  MergeTiles plan;
  plan.count = (static_cast<std::int64_t>(rows) + nnz + tile_size - 1) / tile_size;
  if (plan.count == 0) return plan;
  plan.starts = DeviceBuffer<MergeCoord>(static_cast<std::size_t>(plan.count) + 1, "csr-merge tile starts");
  DeviceBuffer<std::uint8_t> ends_inside_row(static_cast<std::size_t>(plan.count), "csr-merge tile ends",
                                             ScratchOn{nullptr});
  merge_tile_starts_kernel<<<blocks_for(static_cast<std::size_t>(plan.count) + 1, plan_block_size),
                             plan_block_size>>>(row_ptr, rows, nnz, tile_size, plan.count, plan.starts.data(),
                                                ends_inside_row.data());
  SPMV_LAUNCH_CHECK();
  const std::vector<MergeCoord> starts = plan.starts.to_host();
  const std::vector<std::uint8_t> cut = ends_inside_row.to_host();
  // Consecutive tiles ending inside one row carry consecutive parts of it.
  for (std::int64_t t = 0; t < plan.count; ++t) {
    if (!cut[t]) continue;
    const index_t row = starts[t + 1].row;
    if (!plan.split_rows.empty() && plan.split_rows.back().row == row)
      ++plan.split_rows.back().count;
    else
      plan.split_rows.push_back({row, static_cast<index_t>(t), 1});
  }
  return plan;
}

template <class T>
std::unique_ptr<CsrAlgorithm<T>> make_csr_merge(const KernelParams& params) {
  return std::make_unique<CsrMerge<T>>(param_or(params, "items_per_thread", 8));
}
template std::unique_ptr<CsrAlgorithm<float>> make_csr_merge(const KernelParams&);
template std::unique_ptr<CsrAlgorithm<double>> make_csr_merge(const KernelParams&);

}  // namespace spmv::detail
