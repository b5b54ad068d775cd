// Transposed CSR product by atomic scatter.
//
// First y = beta * y. Then a warp per row: the row's x_i is read once, the
// lanes walk the row's entries (coalesced col_idx/values loads) and each adds
// alpha * a_ij * x_i into y_j with atomicAdd (native for float and double on
// sm_60+).
#include "cuda/csr_transposed.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/dense_ops.hpp"
#include "cuda/device_loads.cuh"

namespace spmv::detail {

namespace {
template <class T>
__global__ void spmv_transposed_csr_atomic_kernel(CsrView<T> a, const T* __restrict__ x, T* y,
                                                  T alpha) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t row = static_cast<index_t>(thread / warp_size);
  const int lane = threadIdx.x % warp_size;
  if (row >= a.rows) return;
  const T scaled_x = alpha * x[row];
  const index_t end = a.row_ptr[row + 1];
  for (index_t k = a.row_ptr[row] + lane; k < end; k += warp_size)
    atomicAdd(y + load_streaming(a.col_idx + k), load_streaming(a.values + k) * scaled_x);
}
}  // namespace

template <class T>
void spmv_transposed_atomic(const CsrView<T>& a, const T* x, T* y, T alpha, T beta,
                            cudaStream_t stream) {
  scale_vector(y, a.cols, beta, stream);
  if (a.rows == 0 || a.nnz == 0 || alpha == T(0)) return;
  constexpr int block = 256;
  spmv_transposed_csr_atomic_kernel<<<blocks_for(static_cast<std::size_t>(a.rows) * warp_size, block),
                                      block, 0, stream>>>(a, x, y, alpha);
  SPMV_LAUNCH_CHECK();
}
template void spmv_transposed_atomic(const CsrView<float>&, const float*, float*, float, float,
                                     cudaStream_t);
template void spmv_transposed_atomic(const CsrView<double>&, const double*, double*, double, double,
                                     cudaStream_t);

}  // namespace spmv::detail
