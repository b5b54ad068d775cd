// Host-to-device uploads through pinned staging.
//
// A copy from pageable memory runs at the speed at which the driver stages
// it through its own small pinned buffers, one thread copying. Here the
// host side copies into two pinned chunks with all OpenMP threads while the
// DMA engine drains the other chunk, so a large upload runs near the
// link's rate. The chunks are allocated once per process and device
// (pinning is slow) and shared under a lock; small copies go straight
// through the driver.
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"

namespace spmv::detail {

namespace {

constexpr std::size_t staging_chunk_bytes = std::size_t(32) << 20;
// Below this the driver's own staging is as fast and needs no lock.
constexpr std::size_t direct_upload_bytes = std::size_t(4) << 20;

struct Staging {
  std::mutex lock;
  PinnedBuffer<unsigned char> chunks[2];
  cudaEvent_t drained[2] = {nullptr, nullptr};

  Staging() {
    for (int i = 0; i < 2; ++i) {
      chunks[i] = PinnedBuffer<unsigned char>(staging_chunk_bytes, "upload staging");
      SPMV_CUDA_CHECK(cudaEventCreateWithFlags(&drained[i], cudaEventDisableTiming));
    }
  }
  ~Staging() {
    for (cudaEvent_t event : drained) cudaEventDestroy(event);
  }
};

// One per device (its events belong to the device current when made),
// created on first use there.
Staging& staging() {
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<Staging>> by_device;
  int device = 0;
  SPMV_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> hold(mutex);
  std::unique_ptr<Staging>& shared = by_device[device];
  if (!shared) shared = std::make_unique<Staging>();
  return *shared;
}

}  // namespace

void parallel_copy(void* to, const void* from, std::size_t bytes) {
  const std::size_t parts = std::max<std::size_t>(1, std::min<std::size_t>(omp_get_max_threads(), bytes >> 20));
  const std::size_t part = (bytes + parts - 1) / parts;
#pragma omp parallel for num_threads(static_cast<int>(parts))
  for (std::int64_t p = 0; p < static_cast<std::int64_t>(parts); ++p) {
    const std::size_t begin = std::min(bytes, static_cast<std::size_t>(p) * part);
    const std::size_t end = std::min(bytes, begin + part);
    std::memcpy(static_cast<unsigned char*>(to) + begin, static_cast<const unsigned char*>(from) + begin,
                end - begin);
  }
}

void upload_staged(void* device, const void* host, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return;
  if (bytes < direct_upload_bytes) {
    SPMV_CUDA_CHECK(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream));
    SPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  Staging& s = staging();
  const std::lock_guard<std::mutex> hold(s.lock);
  for (std::size_t offset = 0, chunk = 0; offset < bytes; offset += staging_chunk_bytes, chunk ^= 1) {
    const std::size_t length = std::min(staging_chunk_bytes, bytes - offset);
    SPMV_CUDA_CHECK(cudaEventSynchronize(s.drained[chunk]));  // its previous copy has left
    parallel_copy(s.chunks[chunk].data(), static_cast<const unsigned char*>(host) + offset, length);
    SPMV_CUDA_CHECK(cudaMemcpyAsync(static_cast<unsigned char*>(device) + offset, s.chunks[chunk].data(), length,
                                    cudaMemcpyHostToDevice, stream));
    SPMV_CUDA_CHECK(cudaEventRecord(s.drained[chunk], stream));
  }
  SPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace spmv::detail
