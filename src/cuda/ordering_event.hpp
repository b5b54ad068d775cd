// An owned CUDA event for ordering work between streams (no timing), made
// on the device current at construction.
#pragma once

#include <cuda_runtime.h>

#include "cuda/cuda_check.hpp"

namespace spmv::detail {

class OrderingEvent {
 public:
  OrderingEvent() { SPMV_CUDA_CHECK(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming)); }
  ~OrderingEvent() { cudaEventDestroy(event_); }
  OrderingEvent(const OrderingEvent&) = delete;
  OrderingEvent& operator=(const OrderingEvent&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace spmv::detail
