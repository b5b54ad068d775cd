// Programmatic dependent launch (compute capability 9.0 and later): a kernel
// launched with `overlap` may start while the kernel before it on the stream
// is still running, so that its launch and its first loads hide behind that
// kernel's tail. It must call wait_for_previous_kernel() before it reads what
// that kernel writes (or writes what it reads); the kernel before it lets it
// start early with let_next_kernel_start(), or else at its blocks' exit.
// Both calls are no-ops on older devices and for a plain launch.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "cuda/cuda_check.hpp"

namespace spmv::detail {

__device__ __forceinline__ void wait_for_previous_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
}

__device__ __forceinline__ void let_next_kernel_start() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}

// Whether the current device supports overlapping launches.
inline bool device_overlaps_launches() {
  int device = 0, major = 0;
  SPMV_CUDA_CHECK(cudaGetDevice(&device));
  SPMV_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  return major >= 9;
}

// kernel<<<grid, block, shared_bytes, stream>>>(args...), overlapping the
// kernel before it on `stream` when `overlap`.
template <class... Params, class... Args>
void launch_kernel(bool overlap, dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream,
                   void (*kernel)(Params...), Args&&... args) {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = overlap ? 1 : 0;
  SPMV_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
}

}  // namespace spmv::detail
