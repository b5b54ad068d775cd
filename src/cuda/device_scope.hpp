// Internal: makes a CUDA device current for a scope and restores the caller's
// device afterwards. Every allocation, launch, stream use and handle creation
// of a cuda or cusparse operator happens inside one, so that an operator
// planned with PlanOptions::device = d lives and runs on d whatever device
// the calling thread has current. No CUDA types here: core code (plan.cpp)
// uses it in CUDA builds.
#pragma once

namespace spmv::detail {

// Throws InvalidArgument naming the ordinal and the number of devices when
// `device` is not a CUDA device of this machine.
void check_device_ordinal(int device);

class DeviceScope {
 public:
  explicit DeviceScope(int device);  // checks the ordinal, then makes it current
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = 0;
  bool switched_ = false;
};

// The calling thread's current device.
int current_device();

}  // namespace spmv::detail
