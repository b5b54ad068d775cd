// SPMV_HOST_DEVICE: a function compiled for both the host and the device
// when nvcc compiles the file, an ordinary inline function otherwise, so
// that one definition serves host code, kernels and tests.
#pragma once

#if defined(__CUDACC__)
#define SPMV_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define SPMV_HOST_DEVICE inline
#endif
