// Grid-stride loop, one entry per thread per step; coalesced.
#include "cuda/csr_algorithm.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/dense_ops.hpp"

namespace spmv::detail {

namespace {
template <class T>
__global__ void scale_vector_kernel(T* y, std::size_t n, T beta) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    y[i] = beta == T(0) ? T(0) : beta * y[i];
}
}  // namespace

template <class T>
void scale_vector(T* y, std::size_t n, T beta, cudaStream_t stream) {
  if (n == 0 || beta == T(1)) return;
  const unsigned blocks = std::min(blocks_for(n, 256), 65535u);
  scale_vector_kernel<<<blocks, 256, 0, stream>>>(y, n, beta);
  SPMV_LAUNCH_CHECK();
}
template void scale_vector(float*, std::size_t, float, cudaStream_t);
template void scale_vector(double*, std::size_t, double, cudaStream_t);

}  // namespace spmv::detail
