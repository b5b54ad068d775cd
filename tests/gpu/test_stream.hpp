// A non-blocking CUDA stream owned by a GPU test: not synchronised with the
// legacy default stream, so that work launched anywhere but on the stream
// it is given shows as a race. (CUDA types stay inside tests/gpu.)
#pragma once

#include <cuda_runtime.h>

#include "cuda/cuda_check.hpp"
#include "spmv/operator.hpp"

namespace spmv::test {

class TestStream {
 public:
  TestStream() { SPMV_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~TestStream() { cudaStreamDestroy(stream_); }
  TestStream(const TestStream&) = delete;
  TestStream& operator=(const TestStream&) = delete;
  cudaStream_t get() const { return stream_; }
  StreamHandle handle() const { return static_cast<StreamHandle>(stream_); }
  void synchronize() const { SPMV_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace spmv::test
