// Runs a CUB device algorithm as CUB asks (once for the workspace size,
// then for real) with its workspace in scratch memory on the algorithm's
// stream, so that a short device is an OutOfMemory naming `what` and the
// bytes.
#pragma once

#include <cstddef>

#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"

namespace spmv::detail {

// algorithm(workspace, bytes) calls the CUB function with those two first
// and `stream` last.
template <class Algorithm>
void cub_call(Algorithm algorithm, const char* what, cudaStream_t stream) {
  std::size_t workspace_bytes = 0;
  SPMV_CUDA_CHECK(algorithm(nullptr, workspace_bytes));
  DeviceBuffer<unsigned char> workspace(workspace_bytes, what, ScratchOn{stream});
  SPMV_CUDA_CHECK(algorithm(workspace.data(), workspace_bytes));
}

}  // namespace spmv::detail
