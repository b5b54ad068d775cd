// Turning CUDA, cuSPARSE and cuBLAS status codes into spmv errors.
#include <string>

#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"

namespace spmv::detail {

namespace {
std::string location(const char* call, const char* file, int line) {
  return std::string(call) + " at " + file + ":" + std::to_string(line);
}
}  // namespace

void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line) {
  cudaGetLastError();  // clear a sticky non-fatal error so later calls are not blamed
  throw DeviceError(std::string("CUDA error ") + cudaGetErrorName(status) + " (" +
                    cudaGetErrorString(status) + ") in " + location(call, file, line));
}

void throw_cusparse_error(cusparseStatus_t status, const char* call, const char* file, int line) {
  throw DeviceError(std::string("cuSPARSE error ") + cusparseGetErrorName(status) + " (" +
                    cusparseGetErrorString(status) + ") in " + location(call, file, line));
}

void throw_cublas_error(cublasStatus_t status, const char* call, const char* file, int line) {
  throw DeviceError(std::string("cuBLAS error ") + cublasGetStatusName(status) + " (" +
                    cublasGetStatusString(status) + ") in " + location(call, file, line));
}

void* device_allocate(std::size_t bytes, const char* what) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  const cudaError_t status = cudaMalloc(&p, bytes);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    std::size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    throw OutOfMemory(bytes, free_bytes, what);
  }
  SPMV_CUDA_CHECK(status);
  return p;
}

void* pinned_allocate(std::size_t bytes, const char* what) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  const cudaError_t status = cudaMallocHost(&p, bytes);
  if (status != cudaSuccess) {
    cudaGetLastError();
    throw DeviceError(std::string("could not allocate ") + std::to_string(bytes) +
                      " bytes of pinned host memory for " + what + ": " + cudaGetErrorString(status));
  }
  return p;
}

}  // namespace spmv::detail
