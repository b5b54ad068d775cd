// Dense vector work on the device for the solvers (CG, BMRM): deterministic
// dot products into device scalars, and y = alpha x + beta y. Everything is
// asynchronous on the given stream; results stay on the device until read.
// Sums are accumulated in double for float vectors too.
#pragma once

#include <cuda_runtime.h>

#include "cuda/device_buffer.hpp"
#include "spmv/types.hpp"

namespace spmv::detail {

// Scratch of a grid-wide sum (device_reduction.cuh): one partial per block
// and value, and the count of blocks done.
struct ReductionSlots {
  double* partials;
  unsigned* blocks_done;
};

// The scratch of grid-wide sums and the grid size they use. One reducer
// serves one stream: kernels that share it must not run concurrently.
class DeviceReducer {
 public:
  static constexpr int block_size = 256;
  // Room for sums of up to `values_per_kernel` values at a time; the grid is
  // capped at what the current device keeps resident (SMs x threads per SM).
  DeviceReducer(int values_per_kernel, cudaStream_t stream);
  // Blocks for a vector of n entries (grid-stride loops beyond the cap).
  unsigned grid_for(index_t n) const;
  ReductionSlots slots() { return {partials_.data(), blocks_done_.data()}; }
  cudaStream_t stream() const { return stream_; }

 private:
  unsigned max_blocks_;
  DeviceBuffer<double> partials_;
  DeviceBuffer<unsigned> blocks_done_;
  cudaStream_t stream_;
};

// *result = sum_i x[i] * y[i] (result: a device address).
template <class T>
void device_dot(DeviceReducer& reducer, index_t n, const T* x, const T* y, double* result);

// y = alpha * x + beta * y; y is not read when beta == 0.
template <class T>
void device_axpby(index_t n, T alpha, const T* x, T beta, T* y, cudaStream_t stream);

// Copies a device value to the host and waits for it (and the stream's work before it).
template <class Value>
Value read_device_value(const Value* device, cudaStream_t stream) {
  Value host;
  SPMV_CUDA_CHECK(cudaMemcpyAsync(&host, device, sizeof(Value), cudaMemcpyDeviceToHost, stream));
  SPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host;
}

}  // namespace spmv::detail
