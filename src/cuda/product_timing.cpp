// The measure mode's timer: products of an operator on device operands,
// timed with CUDA events on the operator's stream.
#include <algorithm>
#include <vector>

#include "core/backends.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"

namespace spmv::detail {

template <class T>
double median_product_seconds(Operator<T>& op, int warmup, int runs) {
  DeviceBuffer<T> x(std::vector<T>(static_cast<std::size_t>(op.cols()), T(1)), "measured product's x");
  DeviceBuffer<T> y(static_cast<std::size_t>(op.rows()), "measured product's y");
  for (int i = 0; i < warmup; ++i) op.apply(x.data(), y.data());
  cudaEvent_t start, stop;
  SPMV_CUDA_CHECK(cudaEventCreate(&start));
  SPMV_CUDA_CHECK(cudaEventCreate(&stop));
  const auto stream = static_cast<cudaStream_t>(op.stream());
  std::vector<float> ms(static_cast<std::size_t>(runs));
  for (float& t : ms) {
    SPMV_CUDA_CHECK(cudaEventRecord(start, stream));
    op.apply(x.data(), y.data());
    SPMV_CUDA_CHECK(cudaEventRecord(stop, stream));
    SPMV_CUDA_CHECK(cudaEventSynchronize(stop));
    SPMV_CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2] * 1e-3;
}

template double median_product_seconds(Operator<float>&, int, int);
template double median_product_seconds(Operator<double>&, int, int);

}  // namespace spmv::detail
