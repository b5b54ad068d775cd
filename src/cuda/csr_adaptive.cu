// CSR-Adaptive: row binning (Greathouse & Daga, SC'14, with the long-row
// handling of their 2015 CSR-Adaptive/CSR-VectorL follow-up).
//
// At plan time consecutive rows are grouped into row blocks of at most
// C = block_size * items_per_thread entries (and at most C rows); one thread
// block multiplies one row block:
// - several rows (CSR-stream): the block loads the row block's entries
//   coalesced (col_idx/values evict-first, x through the read-only cache, all
//   of a thread's loads in flight at once) and keeps their products in shared
//   memory; then sub-warps of L lanes, L the power of two (<= 32) that spreads
//   the block's threads over its rows, each sum one row from shared memory.
// - one row of up to 4C entries (a row too long to share a block): the whole
//   block strides over it in rounds of C entries, summing in registers, then
//   combines the threads' sums with a fixed-order block reduction.
// - a row longer than 4C is cut into chunks of about equal size (<= 4C), one
//   block each; a chunk writes its partial sum to workspace and a second pass
//   (SplitRowFixup) adds each cut row's partials in a fixed order and writes
//   y, so results are deterministic (no atomics).
// The workspace is the row-block table, the chunk partials and the cut rows.
#include "cuda/block_reduce.cuh"
#include "cuda/csr_kernels.hpp"
#include "cuda/csr_row_blocks.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/dependent_launch.cuh"
#include "cuda/device_loads.cuh"

namespace spmv::detail {

namespace {

// A row longer than this many rounds of a block's capacity is cut into
// chunks (first choice, not yet measured: a lone block may work 4x longer
// than the others, and cut rows are few enough to make the fix-up cheap).
constexpr index_t max_rounds_per_block = 4;

// Loads of one round: entries begin + item * BlockSize + threadIdx.x below end.
template <int BlockSize, int Items, class T>
__device__ __forceinline__ void load_round(const CsrView<T>& a, index_t begin, index_t count,
                                           index_t (&cols)[Items], T (&vals)[Items]) {
#pragma unroll
  for (int item = 0; item < Items; ++item) {
    const index_t k = item * BlockSize + static_cast<index_t>(threadIdx.x);
    if (k < count) {
      cols[item] = load_streaming(a.col_idx + begin + k);
      vals[item] = load_streaming(a.values + begin + k);
    }
  }
}

// No __launch_bounds__: with it, ptxas (CUDA 13) trades small spills for occupancy here.
template <class T, int BlockSize, int ItemsPerThread>
__global__ void spmv_csr_adaptive_kernel(CsrView<T> a, const RowBlock* __restrict__ row_blocks,
                                         const T* __restrict__ x, T* __restrict__ y, T alpha,
                                         T beta, T* __restrict__ partials) {
  constexpr index_t capacity = BlockSize * ItemsPerThread;
  __shared__ T products[capacity];
  __shared__ index_t row_starts[capacity + 1];
  __shared__ T warp_sums[BlockSize / warp_size];
  let_next_kernel_start();  // the fix-up of cut rows, which waits for this kernel's end

  const RowBlock block = row_blocks[blockIdx.x];
  const index_t rows = block.row_end - block.row_begin;
  const index_t entries = block.entry_end - block.entry_begin;
  index_t cols[ItemsPerThread];
  T vals[ItemsPerThread];

  if (rows == 1) {
    T sum = 0;
    for (index_t done = 0; done < entries; done += capacity) {
      load_round<BlockSize>(a, block.entry_begin + done, entries - done, cols, vals);
#pragma unroll
      for (int item = 0; item < ItemsPerThread; ++item)
        if (item * BlockSize + static_cast<index_t>(threadIdx.x) < entries - done)
          sum += vals[item] * load_cached(x + cols[item]);
    }
    sum = block_sum<BlockSize>(sum, warp_sums);
    if (threadIdx.x == 0) {
      if (block.partial < 0)
        store_result(y + block.row_begin, sum, alpha, beta);
      else
        partials[block.partial] = sum;
    }
    return;
  }

  // CSR-stream: stage the products and the rows' starts (relative to the block).
  load_round<BlockSize>(a, block.entry_begin, entries, cols, vals);
#pragma unroll
  for (int item = 0; item <= ItemsPerThread; ++item) {
    const index_t i = item * BlockSize + static_cast<index_t>(threadIdx.x);
    if (i <= rows)
      row_starts[i] = load_streaming(a.row_ptr + block.row_begin + i) - block.entry_begin;
  }
#pragma unroll
  for (int item = 0; item < ItemsPerThread; ++item) {
    const index_t k = item * BlockSize + static_cast<index_t>(threadIdx.x);
    if (k < entries) products[k] = vals[item] * load_cached(x + cols[item]);
  }
  __syncthreads();

  int lanes = 1;  // per row; the same in the whole block
  while (lanes < warp_size && 2 * lanes * rows <= BlockSize) lanes *= 2;
  const int lane = threadIdx.x % lanes;
  for (index_t first = 0; first < rows; first += BlockSize / lanes) {
    const index_t r = first + static_cast<index_t>(threadIdx.x) / lanes;
    T sum = 0;
    if (r < rows)
      for (index_t k = row_starts[r] + lane; k < row_starts[r + 1]; k += lanes) sum += products[k];
    // Every lane of the warp gets here (the loop bounds are block-uniform).
    for (int offset = lanes / 2; offset > 0; offset /= 2)
      sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    if (lane == 0 && r < rows) store_result(y + block.row_begin + r, sum, alpha, beta);
  }
}

template <class T>
class CsrAdaptive final : public CsrAlgorithm<T> {
 public:
  CsrAdaptive(int block_size, int items_per_thread)
      : block_size_(block_size), items_per_thread_(items_per_thread) {}

  void prepare(const CsrView<T>& device) override {
    const index_t capacity = block_size_ * items_per_thread_;
    const std::int64_t max_chunk = static_cast<std::int64_t>(max_rounds_per_block) * capacity;
    DeviceRowBlocks pieces = build_row_blocks_on_device(device.row_ptr, device.rows, capacity, capacity, max_chunk,
                                                        nullptr);
    row_blocks_ = std::move(pieces.blocks);
    partials_ = DeviceBuffer<T>(pieces.partial_count, "csr-adaptive chunk partials");
    fixup_ = SplitRowFixup(pieces.cut_rows);
  }

  void spmv(const CsrView<T>& a, const T* x, T* y, T alpha, T beta,
            cudaStream_t stream) const override {
    if (row_blocks_.size() == 0) return;
    if (block_size_ == 128)
      launch<128>(a, x, y, alpha, beta, stream);
    else
      launch<256>(a, x, y, alpha, beta, stream);
    SPMV_LAUNCH_CHECK();
    fixup_.launch(partials_.data(), y, alpha, beta, stream);
  }

  KernelParams params() const override {
    return {{"block_size", block_size_}, {"items_per_thread", items_per_thread_}};
  }
  std::size_t workspace_bytes() const override {
    return row_blocks_.bytes() + partials_.bytes() + fixup_.bytes();
  }

 private:
  int block_size_;
  int items_per_thread_;
  DeviceBuffer<RowBlock> row_blocks_;
  mutable DeviceBuffer<T> partials_;  // written by every product
  SplitRowFixup fixup_;

  template <int BlockSize>
  void launch(const CsrView<T>& a, const T* x, T* y, T alpha, T beta, cudaStream_t stream) const {
    const auto run = [&](auto kernel) {
      kernel<<<static_cast<unsigned>(row_blocks_.size()), BlockSize, 0, stream>>>(
          a, row_blocks_.data(), x, y, alpha, beta, partials_.data());
    };
    switch (items_per_thread_) {
      case 4: run(spmv_csr_adaptive_kernel<T, BlockSize, 4>); break;
      case 8: run(spmv_csr_adaptive_kernel<T, BlockSize, 8>); break;
      default: run(spmv_csr_adaptive_kernel<T, BlockSize, 12>); break;
    }
  }
};

}  // namespace

template <class T>
std::unique_ptr<CsrAlgorithm<T>> make_csr_adaptive(const KernelParams& params) {
  return std::make_unique<CsrAdaptive<T>>(
      // 128 x 4 measured on H200 (2026-11-22): uniform random 0.571 ms against 0.590 for
      // 256 x 8, few huge rows 0.379 against 0.400, wide LP rows 0.369 against 0.365.
      param_or(params, "block_size", 128), param_or(params, "items_per_thread", 4));
}
template std::unique_ptr<CsrAlgorithm<float>> make_csr_adaptive(const KernelParams&);
template std::unique_ptr<CsrAlgorithm<double>> make_csr_adaptive(const KernelParams&);

}  // namespace spmv::detail
