// CSR merge-path SpMV (Merrill & Garland, SC'16).
//
// The product is a merge of two sorted lists: the row ends (row_ptr[1..rows])
// and the entry indices 0..nnz-1. Its merge path has rows + nnz steps; each
// block takes an equal tile of 128 * items_per_thread steps, whatever the row
// lengths, so empty rows and one enormous row cost the same as any other
// steps. The tiles' start coordinates (row, entry) are found by binary search
// on the path at plan time and kept in workspace.
//
// In a tile, the block first stages the tile's row ends and the products
// a_ij * x_j of its entries in shared memory: col_idx/values loads are
// coalesced and evict-first, x is read through the read-only cache, and all
// of a thread's loads are in flight at once. Each thread then finds its own
// start by binary search in shared memory and walks items_per_thread steps:
// an entry adds its product to a running sum, a row end writes that row's y.
// The first row a thread ends may have begun in earlier threads: a segmented
// scan of the threads' carries (row, running sum) over the block completes
// it. The part of the row still open at a tile's end is the tile's carry,
// written to workspace; a second small pass (SplitRowFixup) adds the carries
// of each row cut by tile ends to its y, in a fixed order, so that results
// are deterministic.
#include <algorithm>

#include "cuda/csr_kernels.hpp"
#include "cuda/csr_split_rows.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_loads.cuh"

namespace spmv::detail {

namespace {

// Tuning constants below are first choices, not yet measured.
constexpr int merge_block_size = 128;  // CUB's SpMV agents use blocks of 64-128 threads

// A point of the merge path: `row` row ends and `entry` entries consumed.
struct MergeCoord {
  index_t row;
  index_t entry;
};

// The point where the merge path crosses `diagonal` (row + entry): row ends
// go first when their row is complete (Merrill & Garland's MergePathSearch).
MergeCoord merge_path_point(const std::vector<index_t>& row_ptr, std::int64_t diagonal) {
  const std::int64_t rows = static_cast<std::int64_t>(row_ptr.size()) - 1;
  const std::int64_t nnz = row_ptr.back();
  std::int64_t low = std::max<std::int64_t>(0, diagonal - nnz);
  std::int64_t high = std::min(diagonal, rows);
  while (low < high) {
    const std::int64_t mid = (low + high) / 2;
    if (row_ptr[mid + 1] <= diagonal - mid - 1)
      low = mid + 1;
    else
      high = mid;
  }
  return {static_cast<index_t>(low), static_cast<index_t>(diagonal - low)};
}

// The sum of a run of path steps that ends inside `row`: its part of that row.
template <class T>
struct RowCarry {
  index_t row;
  T value;
};

// Exclusive scan of the threads' carries in thread order, where carries of
// the same row add up and a new row starts afresh (rows never decrease from
// thread to thread). Thread 0 gets {-1, 0}. Every thread must call it.
template <class T>
__device__ RowCarry<T> exclusive_carry_scan(RowCarry<T> carry, RowCarry<T>* warp_totals) {
  const int lane = threadIdx.x % warp_size;
  const int warp = threadIdx.x / warp_size;
  RowCarry<T> inclusive = carry;
#pragma unroll
  for (int offset = 1; offset < warp_size; offset *= 2) {
    const index_t row = __shfl_up_sync(0xffffffffu, inclusive.row, offset);
    const T value = __shfl_up_sync(0xffffffffu, inclusive.value, offset);
    if (lane >= offset && row == inclusive.row) inclusive.value += value;
  }
  if (lane == warp_size - 1) warp_totals[warp] = inclusive;
  __syncthreads();
  RowCarry<T> before{-1, T(0)};
  for (int w = 0; w < warp; ++w) {
    const RowCarry<T> total = warp_totals[w];
    before = {total.row, total.row == before.row ? before.value + total.value : total.value};
  }
  const index_t previous_row = __shfl_up_sync(0xffffffffu, inclusive.row, 1);
  const T previous_value = __shfl_up_sync(0xffffffffu, inclusive.value, 1);
  if (lane > 0)
    before = {previous_row,
              previous_row == before.row ? before.value + previous_value : previous_value};
  return before;
}

template <class T, int ItemsPerThread>
__global__ void __launch_bounds__(merge_block_size)
    spmv_csr_merge_kernel(CsrView<T> a, const MergeCoord* __restrict__ tile_starts,
                          const T* __restrict__ x, T* __restrict__ y, T alpha, T beta,
                          T* __restrict__ tile_carries) {
  constexpr int tile_size = merge_block_size * ItemsPerThread;
  __shared__ index_t row_ends[tile_size + 1];
  __shared__ T products[tile_size];
  __shared__ RowCarry<T> warp_totals[merge_block_size / warp_size];

  const MergeCoord tile_begin = tile_starts[blockIdx.x];
  const MergeCoord tile_end = tile_starts[blockIdx.x + 1];
  const index_t tile_rows = tile_end.row - tile_begin.row;
  const index_t tile_entries = tile_end.entry - tile_begin.entry;

  // Stage products (all loads of a thread issued before any is used) and the
  // row ends, one beyond the tile's last so that the walk below needs no
  // special case at the tile's end.
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
      row_ends[i] = load_streaming(a.row_ptr + min(tile_begin.row + i + 1, a.rows)) - tile_begin.entry;
  }
#pragma unroll
  for (int item = 0; item < ItemsPerThread; ++item) {
    const index_t j = item * merge_block_size + threadIdx.x;
    if (j < tile_entries) products[j] = vals[item] * load_cached(x + cols[item]);
  }
  __syncthreads();

  // This thread's start: the split of its diagonal into row ends i and entries j.
  const index_t tile_steps = tile_rows + tile_entries;
  const index_t diagonal = min(static_cast<index_t>(threadIdx.x * ItemsPerThread), tile_steps);
  index_t low = max(0, diagonal - tile_entries);
  index_t high = min(diagonal, tile_rows);
  while (low < high) {
    const index_t mid = (low + high) / 2;
    if (row_ends[mid] <= diagonal - mid - 1)
      low = mid + 1;
    else
      high = mid;
  }
  index_t i = low;
  index_t j = diagonal - low;
  const index_t first_row = tile_begin.row + i;

  T running = 0;
  T first_row_sum = 0;
  bool ended_a_row = false;
#pragma unroll
  for (int item = 0; item < ItemsPerThread; ++item) {
    if (i + j < tile_steps) {
      if (j < row_ends[i]) {
        running += products[j];
        ++j;
      } else {
        if (ended_a_row)
          store_result(y + tile_begin.row + i, running, alpha, beta);
        else
          first_row_sum = running;
        ended_a_row = true;
        running = 0;
        ++i;
      }
    }
  }

  const RowCarry<T> carry{tile_begin.row + i, running};
  const RowCarry<T> before = exclusive_carry_scan(carry, warp_totals);
  if (ended_a_row) {
    // Earlier threads of this tile that worked on first_row left their part in `before`.
    const T head = before.row == first_row ? before.value : T(0);
    store_result(y + first_row, head + first_row_sum, alpha, beta);
  }
  if (threadIdx.x == merge_block_size - 1)
    tile_carries[blockIdx.x] = before.row == carry.row ? before.value + carry.value : carry.value;
}

template <class T>
class CsrMerge final : public CsrAlgorithm<T> {
 public:
  explicit CsrMerge(int items_per_thread) : items_per_thread_(items_per_thread) {}

  void prepare(const Csr<T>& host, const CsrView<T>& device) override {
    (void)device;
    const std::int64_t tile_size = static_cast<std::int64_t>(merge_block_size) * items_per_thread_;
    const std::int64_t steps = static_cast<std::int64_t>(host.rows) + host.nnz();
    tiles_ = (steps + tile_size - 1) / tile_size;
    std::vector<MergeCoord> starts(tiles_ + 1);
    for (std::int64_t t = 0; t <= tiles_; ++t)
      starts[t] = merge_path_point(host.row_ptr, std::min(t * tile_size, steps));
    // Tiles ending inside a row (after its first entry) carry a part of it.
    std::vector<SplitRow> split_rows;
    for (std::int64_t t = 0; t < tiles_; ++t) {
      const MergeCoord end = starts[t + 1];
      if (end.row == host.rows || end.entry == host.row_ptr[end.row]) continue;
      if (!split_rows.empty() && split_rows.back().row == end.row)
        ++split_rows.back().count;
      else
        split_rows.push_back({end.row, static_cast<index_t>(t), 1});
    }
    tile_starts_ = DeviceBuffer<MergeCoord>(starts, "csr-merge tile starts");
    tile_carries_ = DeviceBuffer<T>(tiles_, "csr-merge tile carries");
    fixup_ = SplitRowFixup(split_rows);
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

template <class T>
std::unique_ptr<CsrAlgorithm<T>> make_csr_merge(const KernelParams& params) {
  return std::make_unique<CsrMerge<T>>(
      param_or(params, "csr-merge", "items_per_thread", 8, {4, 8, 12, 16}));
}
template std::unique_ptr<CsrAlgorithm<float>> make_csr_merge(const KernelParams&);
template std::unique_ptr<CsrAlgorithm<double>> make_csr_merge(const KernelParams&);

}  // namespace spmv::detail
