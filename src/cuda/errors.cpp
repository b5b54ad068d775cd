// Turning CUDA, cuSPARSE and cuBLAS status codes into spmv errors.
#include <atomic>
#include <limits>
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

namespace {
std::atomic<std::size_t> live_device_bytes{0};
constexpr std::size_t no_cap = std::numeric_limits<std::size_t>::max();
std::atomic<std::size_t> device_memory_cap{no_cap};
}  // namespace

void* device_allocate(std::size_t bytes, const char* what) {
  if (bytes == 0) return nullptr;
  const std::size_t cap = device_memory_cap.load();
  const std::size_t live = live_device_bytes.load();
  if (cap != no_cap && live + bytes > cap) throw OutOfMemory(bytes, cap > live ? cap - live : 0, what);
  void* p = nullptr;
  const cudaError_t status = cudaMalloc(&p, bytes);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    std::size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    throw OutOfMemory(bytes, free_bytes, what);
  }
  SPMV_CUDA_CHECK(status);
  live_device_bytes += bytes;
  return p;
}

void device_free(void* data, std::size_t bytes) {
  if (!data) return;
  cudaFree(data);
  live_device_bytes -= bytes;
}

std::size_t device_bytes_in_use() { return live_device_bytes.load(); }

ScopedDeviceMemoryCap::ScopedDeviceMemoryCap(std::size_t cap_bytes) { device_memory_cap = cap_bytes; }
ScopedDeviceMemoryCap::~ScopedDeviceMemoryCap() { device_memory_cap = no_cap; }

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
