// CSR-vector: a sub-warp of `threads_per_row` lanes per row (the papers'
// "thread mapping"; Bell & Garland's vector kernel generalised to 2..32 lanes).
//
// Lanes of a sub-warp read consecutive entries of their row, so col_idx and
// values loads are coalesced within the row; the partial sums are combined
// with a shuffle reduction inside the sub-warp, and its first lane writes y.
// Matrix arrays are streamed (evict-first); x goes through the read-only cache.
// Best when threads_per_row is close to the typical row length.
#include "cuda/csr_kernels.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_loads.cuh"

namespace spmv::detail {

namespace {

template <class T, int ThreadsPerRow>
__global__ void spmv_csr_vector_kernel(CsrView<T> a, const T* __restrict__ x, T* __restrict__ y,
                                       T alpha, T beta) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t row = static_cast<index_t>(thread / ThreadsPerRow);
  const int lane = threadIdx.x % ThreadsPerRow;
  if (row >= a.rows) return;
  // The sub-warp's lanes: whole sub-warps leave together, so the mask is exact.
  const int first_lane_in_warp = (threadIdx.x % warp_size) / ThreadsPerRow * ThreadsPerRow;
  const unsigned mask =
      ThreadsPerRow == warp_size ? 0xffffffffu : ((1u << ThreadsPerRow) - 1u) << first_lane_in_warp;
  const index_t begin = a.row_ptr[row];
  const index_t end = a.row_ptr[row + 1];
  T sum = 0;
#pragma unroll 4
  for (index_t k = begin + lane; k < end; k += ThreadsPerRow)
    sum += load_streaming(a.values + k) * load_cached(x + load_streaming(a.col_idx + k));
  sum = subwarp_sum<ThreadsPerRow>(sum, mask);
  if (lane == 0) store_result(y + row, sum, alpha, beta);
}

template <class T>
class CsrVector final : public CsrAlgorithm<T> {
 public:
  CsrVector(int threads_per_row, int block_size)
      : threads_per_row_(threads_per_row), block_size_(block_size) {}

  void spmv(const CsrView<T>& a, const T* x, T* y, T alpha, T beta,
            cudaStream_t stream) const override {
    if (a.rows == 0) return;
    const unsigned blocks =
        blocks_for(static_cast<std::size_t>(a.rows) * threads_per_row_, block_size_);
    switch (threads_per_row_) {
      case 2: spmv_csr_vector_kernel<T, 2><<<blocks, block_size_, 0, stream>>>(a, x, y, alpha, beta); break;
      case 4: spmv_csr_vector_kernel<T, 4><<<blocks, block_size_, 0, stream>>>(a, x, y, alpha, beta); break;
      case 8: spmv_csr_vector_kernel<T, 8><<<blocks, block_size_, 0, stream>>>(a, x, y, alpha, beta); break;
      case 16: spmv_csr_vector_kernel<T, 16><<<blocks, block_size_, 0, stream>>>(a, x, y, alpha, beta); break;
      default: spmv_csr_vector_kernel<T, 32><<<blocks, block_size_, 0, stream>>>(a, x, y, alpha, beta); break;
    }
    SPMV_LAUNCH_CHECK();
  }
  KernelParams params() const override {
    return {{"threads_per_row", threads_per_row_}, {"block_size", block_size_}};
  }

 private:
  int threads_per_row_;
  int block_size_;
};

}  // namespace

template <class T>
std::unique_ptr<CsrAlgorithm<T>> make_csr_vector(const KernelParams& params) {
  return std::make_unique<CsrVector<T>>(param_or(params, "threads_per_row", 32),
                                        param_or(params, "block_size", default_block_size));
}
template std::unique_ptr<CsrAlgorithm<float>> make_csr_vector(const KernelParams&);
template std::unique_ptr<CsrAlgorithm<double>> make_csr_vector(const KernelParams&);

}  // namespace spmv::detail
