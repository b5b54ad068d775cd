// The measure mode's timer: products (SpMV or SpMM) of an operator on device
// operands, timed with CUDA events on the operator's stream.
#include <algorithm>
#include <vector>

#include "core/backends.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"

namespace spmv::detail {

template <class T>
double median_product_seconds(Operator<T>& op, int warmup, int runs, index_t spmm_columns, Layout layout) {
  const index_t k = std::max<index_t>(spmm_columns, 1);
  DeviceBuffer<T> x(std::vector<T>(static_cast<std::size_t>(op.cols()) * k, T(1)), "measured product's input");
  DeviceBuffer<T> y(static_cast<std::size_t>(op.rows()) * k, "measured product's output");
  const auto product = [&] {
    if (spmm_columns > 0)
      op.spmm(x.data(), y.data(), k, layout);
    else
      op.apply(x.data(), y.data());
  };
  for (int i = 0; i < warmup; ++i) product();
  cudaEvent_t start, stop;
  SPMV_CUDA_CHECK(cudaEventCreate(&start));
  SPMV_CUDA_CHECK(cudaEventCreate(&stop));
  const auto stream = static_cast<cudaStream_t>(op.stream());
  std::vector<float> ms(static_cast<std::size_t>(runs));
  for (float& t : ms) {
    SPMV_CUDA_CHECK(cudaEventRecord(start, stream));
    product();
    SPMV_CUDA_CHECK(cudaEventRecord(stop, stream));
    SPMV_CUDA_CHECK(cudaEventSynchronize(stop));
    SPMV_CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2] * 1e-3;
}

template double median_product_seconds(Operator<float>&, int, int, index_t, Layout);
template double median_product_seconds(Operator<double>&, int, int, index_t, Layout);

}  // namespace spmv::detail
