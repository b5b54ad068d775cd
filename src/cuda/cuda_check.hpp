// Checked CUDA, cuSPARSE and cuBLAS calls: every failure becomes a
// spmv::DeviceError naming the call, the file and the line.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>

#include <string>

#include "spmv/error.hpp"

namespace spmv::detail {

[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line);
[[noreturn]] void throw_cusparse_error(cusparseStatus_t status, const char* call, const char* file,
                                       int line);
[[noreturn]] void throw_cublas_error(cublasStatus_t status, const char* call, const char* file,
                                     int line);

}  // namespace spmv::detail

#define SPMV_CUDA_CHECK(call)                                                          \
  do {                                                                                 \
    const cudaError_t spmv_status_ = (call);                                           \
    if (spmv_status_ != cudaSuccess)                                                   \
      ::spmv::detail::throw_cuda_error(spmv_status_, #call, __FILE__, __LINE__);       \
  } while (0)

// After every kernel launch: reports launch-configuration errors at once.
#define SPMV_LAUNCH_CHECK() SPMV_CUDA_CHECK(cudaGetLastError())

#define SPMV_CUSPARSE_CHECK(call)                                                      \
  do {                                                                                 \
    const cusparseStatus_t spmv_status_ = (call);                                      \
    if (spmv_status_ != CUSPARSE_STATUS_SUCCESS)                                       \
      ::spmv::detail::throw_cusparse_error(spmv_status_, #call, __FILE__, __LINE__);   \
  } while (0)

#define SPMV_CUBLAS_CHECK(call)                                                        \
  do {                                                                                 \
    const cublasStatus_t spmv_status_ = (call);                                        \
    if (spmv_status_ != CUBLAS_STATUS_SUCCESS)                                         \
      ::spmv::detail::throw_cublas_error(spmv_status_, #call, __FILE__, __LINE__);     \
  } while (0)
