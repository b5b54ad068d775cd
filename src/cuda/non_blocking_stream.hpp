// An owned CUDA stream that does not synchronise with the legacy default
// stream, made on the device current at construction.
#pragma once

#include <cuda_runtime.h>

#include "cuda/cuda_check.hpp"

namespace spmv::detail {

class NonBlockingStream {
 public:
  NonBlockingStream() { SPMV_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~NonBlockingStream() { cudaStreamDestroy(stream_); }
  NonBlockingStream(const NonBlockingStream&) = delete;
  NonBlockingStream& operator=(const NonBlockingStream&) = delete;
  cudaStream_t get() const { return stream_; }
  void synchronize() const { SPMV_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_{};
};

}  // namespace spmv::detail
