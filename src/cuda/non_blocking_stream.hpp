// An owned CUDA stream that does not synchronise with the legacy default
// stream, made on the device current at construction.
#pragma once

#include <cuda_runtime.h>

#include "cuda/cuda_check.hpp"

namespace spmv::detail {

// A high-priority stream's kernels get the blocks that free up before a
// normal one's waiting blocks: short work queued beside a long kernel runs
// beside it, not after its last wave.
enum class StreamPriority { normal, high };

class NonBlockingStream {
 public:
  explicit NonBlockingStream(StreamPriority priority = StreamPriority::normal) {
    if (priority == StreamPriority::normal) {
      SPMV_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
      return;
    }
    int least = 0, greatest = 0;
    SPMV_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    SPMV_CUDA_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, greatest));
  }
  ~NonBlockingStream() { cudaStreamDestroy(stream_); }
  NonBlockingStream(const NonBlockingStream&) = delete;
  NonBlockingStream& operator=(const NonBlockingStream&) = delete;
  cudaStream_t get() const { return stream_; }
  void synchronize() const { SPMV_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_{};
};

}  // namespace spmv::detail
