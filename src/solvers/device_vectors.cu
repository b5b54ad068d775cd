// Work decomposition: one thread per entry in grid-stride loops, every
// access coalesced, nothing cached. Dot products sum per thread, per block
// (block_sum) and across blocks in the last block (device_reduction.cuh).
#include <algorithm>

#include "cuda/csr_algorithm.hpp"
#include "solvers/device_reduction.cuh"
#include "solvers/device_vectors.hpp"

namespace spmv::detail {

namespace {

constexpr int block_size = DeviceReducer::block_size;

template <class T>
__global__ void dot_kernel(index_t n, const T* __restrict__ x, const T* __restrict__ y,
                           double* __restrict__ result, ReductionSlots slots) {
  double sum[1] = {0};
  for (std::int64_t i = std::int64_t(blockIdx.x) * block_size + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * block_size)
    sum[0] += static_cast<double>(x[i]) * static_cast<double>(y[i]);
  double total[1];
  if (grid_sums<block_size>(sum, slots, total) && threadIdx.x == 0) *result = total[0];
}

template <class T>
__global__ void axpby_kernel(index_t n, T alpha, const T* __restrict__ x, T beta, T* __restrict__ y) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * block_size + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * block_size)
    y[i] = beta == T(0) ? alpha * x[i] : alpha * x[i] + beta * y[i];
}

}  // namespace

DeviceReducer::DeviceReducer(int values_per_kernel, cudaStream_t stream) : stream_(stream) {
  int device = 0, multiprocessors = 0, threads_per_multiprocessor = 0;
  SPMV_CUDA_CHECK(cudaGetDevice(&device));
  SPMV_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  SPMV_CUDA_CHECK(cudaDeviceGetAttribute(&threads_per_multiprocessor,
                                         cudaDevAttrMaxThreadsPerMultiProcessor, device));
  max_blocks_ = static_cast<unsigned>(multiprocessors * (threads_per_multiprocessor / block_size));
  partials_ = DeviceBuffer<double>(static_cast<std::size_t>(max_blocks_) * values_per_kernel,
                                   "reduction partial sums");
  blocks_done_ = DeviceBuffer<unsigned>(1, "reduction block counter");
  SPMV_CUDA_CHECK(cudaMemsetAsync(blocks_done_.data(), 0, sizeof(unsigned), stream_));
}

unsigned DeviceReducer::grid_for(index_t n) const {
  return std::clamp(blocks_for(static_cast<std::size_t>(n), block_size), 1u, max_blocks_);
}

template <class T>
void device_dot(DeviceReducer& reducer, index_t n, const T* x, const T* y, double* result) {
  dot_kernel<<<reducer.grid_for(n), block_size, 0, reducer.stream()>>>(n, x, y, result, reducer.slots());
  SPMV_LAUNCH_CHECK();
}

template <class T>
void device_axpby(index_t n, T alpha, const T* x, T beta, T* y, cudaStream_t stream) {
  if (n == 0) return;
  const unsigned grid = std::min(blocks_for(static_cast<std::size_t>(n), block_size), 65535u);
  axpby_kernel<<<grid, block_size, 0, stream>>>(n, alpha, x, beta, y);
  SPMV_LAUNCH_CHECK();
}

template void device_dot<float>(DeviceReducer&, index_t, const float*, const float*, double*);
template void device_dot<double>(DeviceReducer&, index_t, const double*, const double*, double*);
template void device_axpby<float>(index_t, float, const float*, float, float*, cudaStream_t);
template void device_axpby<double>(index_t, double, const double*, double, double*, cudaStream_t);

}  // namespace spmv::detail
