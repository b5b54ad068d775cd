// Runs a CUB device algorithm as CUB asks (once for the workspace size,
// then for real) with its workspace from DeviceBuffer, so that a short
// device is an OutOfMemory naming `what` and the bytes.
#pragma once

#include <cstddef>

#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"

namespace spmv::detail {

// algorithm(workspace, bytes) calls the CUB function with those two first.
template <class Algorithm>
void cub_call(Algorithm algorithm, const char* what) {
  std::size_t workspace_bytes = 0;
  SPMV_CUDA_CHECK(algorithm(nullptr, workspace_bytes));
  DeviceBuffer<unsigned char> workspace(workspace_bytes, what);
  SPMV_CUDA_CHECK(algorithm(workspace.data(), workspace_bytes));
}

}  // namespace spmv::detail
