// Chapter 3.2 of the thesis on today's machine: host-to-device and
// device-to-host cudaMemcpy from pageable (malloc'd) or page-locked
// (cudaMallocHost) memory. The host clock times the whole synchronous call,
// as a caller of the library sees it.
#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

#include "core/workbench.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/micro_bench.hpp"

namespace spmv::detail::micro {

const char* to_string(CopyDirection direction) {
  return direction == CopyDirection::host_to_device ? "host-to-device" : "device-to-host";
}

Timing host_copy(CopyDirection direction, bool page_locked, std::size_t bytes, int runs) {
  DeviceBuffer<char> device(bytes, "micro-benchmark copy target");
  device.set_zero();  // copied to the host below: written first
  std::vector<char> pageable;
  std::unique_ptr<void, decltype(&cudaFreeHost)> locked(nullptr, &cudaFreeHost);
  char* host = nullptr;
  if (page_locked) {
    locked.reset(pinned_allocate(bytes, "micro-benchmark page-locked buffer"));
    host = static_cast<char*>(locked.get());
  } else {
    pageable.resize(bytes);
    host = pageable.data();
  }
  std::fill(host, host + bytes, 1);  // touch every page before timing
  const bool to_device = direction == CopyDirection::host_to_device;
  const std::function<void()> copy = [&] {
    if (to_device)
      SPMV_CUDA_CHECK(cudaMemcpy(device.data(), host, bytes, cudaMemcpyHostToDevice));
    else
      SPMV_CUDA_CHECK(cudaMemcpy(host, device.data(), bytes, cudaMemcpyDeviceToHost));
  };
  // The host workbench's clock around each whole call, one warm-up first.
  std::vector<double> ms = make_host_workbench<float>(0, 0)->time(copy, 1, runs, false);
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  Timing t;
  t.median_ms = ms[ms.size() / 2];
  t.bytes = bytes;
  return t;
}

}  // namespace spmv::detail::micro
