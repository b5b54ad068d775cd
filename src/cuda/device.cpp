// Device discovery, version reporting and the copy-bandwidth measurement.
#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

#include "core/backends.hpp"
#include "core/workbench.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"

namespace spmv::detail {

bool cuda_device_present() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return count > 0;
}

std::string cuda_library_versions() {
  int runtime = 0, major = 0, minor = 0, patch = 0;
  SPMV_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  SPMV_CUSPARSE_CHECK(cusparseGetProperty(MAJOR_VERSION, &major));
  SPMV_CUSPARSE_CHECK(cusparseGetProperty(MINOR_VERSION, &minor));
  SPMV_CUSPARSE_CHECK(cusparseGetProperty(PATCH_LEVEL, &patch));
  return "CUDA runtime " + std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10) +
         ", cuSPARSE " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

DeviceInfo cuda_device_info() {
  int device = 0;
  SPMV_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp props{};
  SPMV_CUDA_CHECK(cudaGetDeviceProperties(&props, device));
  DeviceInfo info;
  info.name = props.name;
  info.multiprocessors = props.multiProcessorCount;
  info.l2_bytes = static_cast<std::size_t>(props.l2CacheSize);
  info.memory_bytes = props.totalGlobalMem;
  SPMV_CUDA_CHECK(cudaRuntimeGetVersion(&info.runtime_version));
  SPMV_CUDA_CHECK(cudaDriverGetVersion(&info.driver_version));
  int major = 0, minor = 0, patch = 0;
  SPMV_CUSPARSE_CHECK(cusparseGetProperty(MAJOR_VERSION, &major));
  SPMV_CUSPARSE_CHECK(cusparseGetProperty(MINOR_VERSION, &minor));
  SPMV_CUSPARSE_CHECK(cusparseGetProperty(PATCH_LEVEL, &patch));
  info.cusparse_version = major * 1000 + minor * 100 + patch;
  return info;
}

double measure_copy_bandwidth_gbs(std::size_t bytes) {
  DeviceBuffer<char> source(bytes, "copy-bandwidth source");
  DeviceBuffer<char> target(bytes, "copy-bandwidth target");
  SPMV_CUDA_CHECK(cudaMemset(source.data(), 1, bytes));
  cudaEvent_t start, stop;
  SPMV_CUDA_CHECK(cudaEventCreate(&start));
  SPMV_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<float> ms;
  for (int run = 0; run < 13; ++run) {
    SPMV_CUDA_CHECK(cudaEventRecord(start));
    SPMV_CUDA_CHECK(cudaMemcpyAsync(target.data(), source.data(), bytes, cudaMemcpyDeviceToDevice));
    SPMV_CUDA_CHECK(cudaEventRecord(stop));
    SPMV_CUDA_CHECK(cudaEventSynchronize(stop));
    float t = 0;
    SPMV_CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    if (run >= 3) ms.push_back(t);  // the first runs warm up
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  const double seconds = ms[ms.size() / 2] * 1e-3;
  return 2.0 * static_cast<double>(bytes) / seconds * 1e-9;  // read + write
}

DeviceProperties current_device_properties() {
  static std::mutex mutex;
  static std::map<int, DeviceProperties> measured;
  int device = 0;
  SPMV_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  const auto found = measured.find(device);
  if (found != measured.end()) return found->second;
  const DeviceInfo info = cuda_device_info();
  DeviceProperties properties;
  properties.name = info.name;
  properties.multiprocessors = info.multiprocessors;
  properties.l2_bytes = info.l2_bytes;
  // Twice the L2, so that the copy streams from DRAM as a large product does.
  properties.copy_bandwidth_gbs = measure_copy_bandwidth_gbs(std::max<std::size_t>(2 * info.l2_bytes, 64 << 20));
  return measured[device] = properties;
}

}  // namespace spmv::detail
