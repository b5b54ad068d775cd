// RAII owners of device and pinned host memory. Allocation failures become
// OutOfMemory errors that say how many bytes were needed and how many are free.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "cuda/cuda_check.hpp"

namespace spmv::detail {

// cudaMalloc with an OutOfMemory error naming `what` on failure. Every
// allocation of the library goes through it and device_free, which keep the
// count of live bytes (device_bytes_in_use) and honour a cap.
void* device_allocate(std::size_t bytes, const char* what);
void device_free(void* data, std::size_t bytes);
// Bytes allocated through device_allocate and not yet freed, by this process.
std::size_t device_bytes_in_use();

// While alive, device_allocate fails with OutOfMemory once the live bytes
// would exceed `cap_bytes` (tests: a build that runs out of memory part-way
// reports the bytes it needed and leaks nothing). Not nestable.
class ScopedDeviceMemoryCap {
 public:
  explicit ScopedDeviceMemoryCap(std::size_t cap_bytes);
  ~ScopedDeviceMemoryCap();
  ScopedDeviceMemoryCap(const ScopedDeviceMemoryCap&) = delete;
  ScopedDeviceMemoryCap& operator=(const ScopedDeviceMemoryCap&) = delete;
};
// Memory for temporaries (workspaces, counts, arrays a build reads and
// drops), from a cache of blocks the library keeps per device: once a block
// of the size has been given back, taking one costs no driver call, and
// giving one back does not wait for the device as cudaFree does (cudaMalloc
// and cudaFree took 40-680 us each on an H100, a dozen of them a third of a
// BRO-ELL build). The memory is for `stream` alone. Counted and capped as
// device_allocate.
void* scratch_allocate(std::size_t bytes, const char* what, cudaStream_t stream);
void scratch_free(void* data, std::size_t bytes);
// Bytes of scratch blocks given back and kept for reuse on the current device.
std::size_t scratch_bytes_kept();
void* pinned_allocate(std::size_t bytes, const char* what);

// Copies `bytes` from host to device on `stream` through pinned staging
// (staged_upload.cpp) and waits for the copy: the one upload path of the
// library.
void upload_staged(void* device, const void* host, std::size_t bytes, cudaStream_t stream);
// memcpy spread over the OpenMP threads.
void parallel_copy(void* to, const void* from, std::size_t bytes);

// A temporary's buffer: scratch memory, used on `stream` alone.
struct ScratchOn {
  cudaStream_t stream;
};

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(std::size_t count, const char* what)
      : data_(static_cast<T*>(device_allocate(count * sizeof(T), what))), count_(count) {}
  DeviceBuffer(std::size_t count, const char* what, ScratchOn scratch)
      : data_(static_cast<T*>(scratch_allocate(count * sizeof(T), what, scratch.stream))),
        count_(count),
        scratch_(true) {}
  DeviceBuffer(const std::vector<T>& host, const char* what) : DeviceBuffer(host.size(), what) {
    upload(host.data(), host.size());
  }
  ~DeviceBuffer() {
    if (scratch_)
      scratch_free(data_, bytes());
    else
      device_free(data_, bytes());
  }
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        count_(std::exchange(other.count_, 0)),
        scratch_(other.scratch_) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    std::swap(scratch_, other.scratch_);
    return *this;
  }

  void upload(const T* host, std::size_t count) { upload_staged(data_, host, count * sizeof(T), nullptr); }
  // Every byte 0, waited for: for a buffer that library code may read before
  // our products have written all of it (cuSPARSE's SpMM loads C even when
  // beta == 0; NCCL moves 16-byte vectors past a message's last entry).
  // cudaMemset may return before the bytes are written, on the legacy
  // stream, which the library's non-blocking streams do not wait for: the
  // wait is here (compute-sanitizer's timing showed the distributed SpMM's C
  // zeroed after its product had written it).
  void set_zero() {
    if (count_ == 0) return;
    SPMV_CUDA_CHECK(cudaMemset(data_, 0, bytes()));
    SPMV_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }
  void download(T* host, std::size_t count) const {
    if (count) SPMV_CUDA_CHECK(cudaMemcpy(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost));
  }
  std::vector<T> to_host() const {
    std::vector<T> host(count_);
    download(host.data(), count_);
    return host;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
  bool scratch_ = false;  // from scratch_allocate
};

template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  PinnedBuffer(std::size_t count, const char* what)
      : data_(static_cast<T*>(pinned_allocate(count * sizeof(T), what))), count_(count) {}
  ~PinnedBuffer() { cudaFreeHost(data_); }
  PinnedBuffer(PinnedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  T* data() { return data_; }
  std::size_t size() const { return count_; }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace spmv::detail
