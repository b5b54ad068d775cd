// Turning CUDA, cuSPARSE and cuBLAS status codes into spmv errors.
#include <string>

#include "cuda/cuda_check.hpp"

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

}  // namespace spmv::detail
