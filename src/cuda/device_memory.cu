// The library's device and pinned host memory: every allocation counted,
// capped on request, and a short device reported as OutOfMemory.
#include <cub/util_allocator.cuh>

#include <atomic>
#include <cstdint>
#include <limits>
#include <mutex>
#include <string>

#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"

namespace spmv::detail {

namespace {
std::atomic<std::size_t> live_device_bytes{0};
constexpr std::size_t no_cap = std::numeric_limits<std::size_t>::max();
std::atomic<std::size_t> device_memory_cap{no_cap};

// Counts `bytes` as live, unless the cap forbids them.
void count_live(std::size_t bytes, const char* what) {
  const std::size_t cap = device_memory_cap.load();
  const std::size_t live = live_device_bytes.load();
  if (cap != no_cap && live + bytes > cap) throw OutOfMemory(bytes, cap > live ? cap - live : 0, what);
  live_device_bytes += bytes;
}

[[noreturn]] void throw_out_of_memory(std::size_t bytes, const char* what) {
  cudaGetLastError();
  std::size_t free_bytes = 0, total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  throw OutOfMemory(bytes, free_bytes, what);
}

// Scratch memory: blocks cached by size (powers of two from 256 bytes to
// 256 MiB; larger requests are allocated and freed each time), at most
// 256 MiB of them kept free per device. A block given back on a stream is
// reused at once on that stream, on another once its last use has run.
// CUB's allocator rather than the driver's stream-ordered pools: the first
// cudaMallocAsync of a process took 11-12 ms on an H100.
constexpr unsigned scratch_bin_growth = 2;
constexpr unsigned scratch_min_bin = 8;
constexpr unsigned scratch_max_bin = 28;
constexpr std::size_t scratch_kept_limit = std::size_t(256) << 20;

cub::CachingDeviceAllocator& scratch_cache() {
  // Never destroyed: its blocks go with the process (a static's destructor
  // may run after the CUDA runtime has been torn down).
  static auto* cache = new cub::CachingDeviceAllocator(scratch_bin_growth, scratch_min_bin, scratch_max_bin,
                                                       scratch_kept_limit, /*skip_cleanup=*/true);
  return *cache;
}
}  // namespace

namespace {
// `bytes` counted as live, then taken by allocate(&p) (a CUDA status); an
// allocation that fails is not counted, and a short device is OutOfMemory.
template <class Allocate>
void* counted_allocation(std::size_t bytes, const char* what, Allocate allocate) {
  if (bytes == 0) return nullptr;
  count_live(bytes, what);
  void* p = nullptr;
  const cudaError_t status = allocate(&p);
  if (status != cudaSuccess) live_device_bytes -= bytes;
  if (status == cudaErrorMemoryAllocation) throw_out_of_memory(bytes, what);
  SPMV_CUDA_CHECK(status);
  return p;
}
}  // namespace

void* device_allocate(std::size_t bytes, const char* what) {
  return counted_allocation(bytes, what, [bytes](void** p) {
    cudaError_t status = cudaMalloc(p, bytes);
    if (status == cudaErrorMemoryAllocation) {  // the cached scratch blocks may be what is missing
      cudaGetLastError();
      scratch_cache().FreeAllCached();
      status = cudaMalloc(p, bytes);
    }
    return status;
  });
}

void device_free(void* data, std::size_t bytes) {
  if (!data) return;
  cudaFree(data);
  live_device_bytes -= bytes;
}

void* scratch_allocate(std::size_t bytes, const char* what, cudaStream_t stream) {
  return counted_allocation(bytes, what,
                            [bytes, stream](void** p) { return scratch_cache().DeviceAllocate(p, bytes, stream); });
}

void scratch_free(void* data, std::size_t bytes) {
  if (!data) return;
  scratch_cache().DeviceFree(data);
  live_device_bytes -= bytes;
}

std::size_t scratch_bytes_kept() {
  int device = 0;
  SPMV_CUDA_CHECK(cudaGetDevice(&device));
  cub::CachingDeviceAllocator& cache = scratch_cache();
  const std::lock_guard<std::mutex> lock(cache.mutex);
  const auto found = cache.cached_bytes.find(device);
  return found == cache.cached_bytes.end() ? 0 : found->second.free;
}

std::size_t device_bytes_in_use() { return live_device_bytes.load(); }

ScopedDeviceMemoryCap::ScopedDeviceMemoryCap(std::size_t cap_bytes) { device_memory_cap = cap_bytes; }
ScopedDeviceMemoryCap::~ScopedDeviceMemoryCap() { device_memory_cap = no_cap; }

void* pinned_allocate(std::size_t bytes, const char* what) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  const cudaError_t status = cudaMallocHost(&p, bytes);
  if (status != cudaSuccess) {
    cudaGetLastError();
    throw DeviceError(std::string("could not allocate ") + std::to_string(bytes) +
                      " bytes of pinned host memory for " + what + ": " + cudaGetErrorString(status));
  }
  return p;
}

}  // namespace spmv::detail
