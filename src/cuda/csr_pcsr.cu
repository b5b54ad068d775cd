// PCSR (He & Gao, 2016): two kernels around a middle array of nnz products.
//
// Kernel 1: one thread per 4 consecutive entries computes
// middle[k] = values[k] * x[col_idx[k]] with 16-byte loads of col_idx and
// values and 16/32-byte stores of middle, all fully coalesced; x is read
// through the read-only cache (the paper's texture reads).
// Kernel 2: a block of block_size threads owns block_size consecutive rows.
// It stages the rows' row_ptr entries in shared memory, then walks the rows'
// span of the middle array in tiles of 4 * block_size products, each tile
// loaded coalesced (evict-first) into shared memory; thread i adds up the
// part of row i that falls in the tile and finally writes y_i.
// The middle array costs nnz values of workspace and an extra write and read
// of nnz values per product. A row is summed by one thread, so a row of
// many thousand entries makes its block slow (csr-merge and csr-adaptive
// balance such rows).
#include "cuda/csr_kernels.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_loads.cuh"
#include "cuda/vector_loads.cuh"

namespace spmv::detail {

namespace {

// First choices, not yet measured: 4 products per thread make 16-byte index
// loads; a tile of 4 values per thread keeps 4 loads of each thread in flight.
constexpr int products_per_thread = 4;
constexpr int products_block_size = 256;
constexpr int tile_rounds = 4;  // tile of middle values = tile_rounds * block_size

template <class T>
__global__ void __launch_bounds__(products_block_size)
    pcsr_products_kernel(CsrView<T> a, const T* __restrict__ x, T* __restrict__ middle) {
  const std::int64_t first =
      (static_cast<std::int64_t>(blockIdx.x) * products_block_size + threadIdx.x) * products_per_thread;
  if (first >= a.nnz) return;
  if (first + products_per_thread <= a.nnz) {
    index_t cols[products_per_thread];
    T vals[products_per_thread];
    load_streaming_vector(a.col_idx + first, cols);
    load_streaming_vector(a.values + first, vals);
#pragma unroll
    for (int e = 0; e < products_per_thread; ++e) vals[e] *= load_cached(x + cols[e]);
    store_vector(middle + first, vals);
    return;
  }
  for (std::int64_t k = first; k < a.nnz; ++k)  // the last, partial group
    middle[k] = load_streaming(a.values + k) * load_cached(x + load_streaming(a.col_idx + k));
}

template <class T, int BlockSize>
__global__ void __launch_bounds__(BlockSize)
    pcsr_accumulate_kernel(CsrView<T> a, const T* __restrict__ middle, T* __restrict__ y, T alpha,
                           T beta) {
  constexpr int tile_size = tile_rounds * BlockSize;
  __shared__ index_t row_starts[BlockSize + 1];
  __shared__ T tile[tile_size];

  const index_t first_row = blockIdx.x * BlockSize;
  const index_t rows = min(BlockSize, a.rows - first_row);
  for (index_t i = threadIdx.x; i <= rows; i += BlockSize) row_starts[i] = load_streaming(a.row_ptr + first_row + i);
  __syncthreads();

  const index_t span_end = row_starts[rows];
  const bool has_row = static_cast<index_t>(threadIdx.x) < rows;
  const index_t row_begin = has_row ? row_starts[threadIdx.x] : 0;
  const index_t row_end = has_row ? row_starts[threadIdx.x + 1] : 0;
  T sum = 0;
  for (index_t tile_begin = row_starts[0]; tile_begin < span_end; tile_begin += tile_size) {
    const index_t count = min(tile_size, span_end - tile_begin);
#pragma unroll
    for (int round = 0; round < tile_rounds; ++round) {
      const index_t k = round * BlockSize + static_cast<index_t>(threadIdx.x);
      if (k < count) tile[k] = load_streaming(middle + tile_begin + k);
    }
    __syncthreads();
    const index_t stop = min(row_end, tile_begin + count);
    for (index_t k = max(row_begin, tile_begin); k < stop; ++k) sum += tile[k - tile_begin];
    __syncthreads();
  }
  if (has_row) store_result(y + first_row + threadIdx.x, sum, alpha, beta);
}

template <class T>
class CsrPcsr final : public CsrAlgorithm<T> {
 public:
  explicit CsrPcsr(int block_size) : block_size_(block_size) {}

  void prepare(const CsrView<T>& device) override {
    require_vector_alignment(device, "csr-pcsr");
    middle_ = DeviceBuffer<T>(static_cast<std::size_t>(device.nnz), "PCSR middle array");
  }

  void spmv(const CsrView<T>& a, const T* x, T* y, T alpha, T beta,
            cudaStream_t stream) const override {
    if (a.rows == 0) return;
    if (a.nnz > 0) {
      const std::size_t threads = (static_cast<std::size_t>(a.nnz) + products_per_thread - 1) /
                                  products_per_thread;
      pcsr_products_kernel<<<blocks_for(threads, products_block_size), products_block_size, 0,
                             stream>>>(a, x, middle_.data());
      SPMV_LAUNCH_CHECK();
    }
    const auto accumulate = [&](auto kernel) {
      kernel<<<blocks_for(a.rows, block_size_), block_size_, 0, stream>>>(a, middle_.data(), y,
                                                                          alpha, beta);
    };
    switch (block_size_) {
      case 64: accumulate(pcsr_accumulate_kernel<T, 64>); break;
      case 128: accumulate(pcsr_accumulate_kernel<T, 128>); break;
      case 256: accumulate(pcsr_accumulate_kernel<T, 256>); break;
      default: accumulate(pcsr_accumulate_kernel<T, 512>); break;
    }
    SPMV_LAUNCH_CHECK();
  }

  KernelParams params() const override { return {{"block_size", block_size_}}; }
  std::size_t workspace_bytes() const override { return middle_.bytes(); }

 private:
  int block_size_;
  mutable DeviceBuffer<T> middle_;  // written by every product
};

}  // namespace

template <class T>
std::unique_ptr<CsrAlgorithm<T>> make_csr_pcsr(const KernelParams& params) {
  return std::make_unique<CsrPcsr<T>>(param_or(params, "block_size", default_block_size));
}
template std::unique_ptr<CsrAlgorithm<float>> make_csr_pcsr(const KernelParams&);
template std::unique_ptr<CsrAlgorithm<double>> make_csr_pcsr(const KernelParams&);

}  // namespace spmv::detail
