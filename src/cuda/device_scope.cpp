#include "cuda/device_scope.hpp"

#include <string>

#include "cuda/cuda_check.hpp"

namespace spmv::detail {

void check_device_ordinal(int device) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    count = 0;
  }
  if (device < 0 || device >= count)
    throw InvalidArgument("PlanOptions::device " + std::to_string(device) + " is not a CUDA device (this machine has " +
                          std::to_string(count) + (count == 1 ? " device, ordinal 0)" : " devices)"));
}

int current_device() {
  int device = 0;
  SPMV_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

DeviceScope::DeviceScope(int device) {
  check_device_ordinal(device);
  previous_ = current_device();
  if (previous_ != device) {
    SPMV_CUDA_CHECK(cudaSetDevice(device));
    switched_ = true;
  }
}

DeviceScope::~DeviceScope() {
  if (switched_) cudaSetDevice(previous_);  // a destructor does not throw
}

}  // namespace spmv::detail
