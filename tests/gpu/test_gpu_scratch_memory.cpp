// Scratch memory (device_buffer.hpp): a block given back is kept, and taken
// again by the next request of its size class on its stream; every byte is counted
// while held and capped like any device allocation; a short device or a cap
// is an OutOfMemory naming the bytes and what they were for.
#include <gtest/gtest.h>

#include <string>

#include "spmv/error.hpp"
#include "test_support.hpp"

#ifdef SPMV_HAVE_CUDA
#include <cuda_runtime.h>

#include "cuda/device_buffer.hpp"

namespace spmv {
namespace {

using detail::DeviceBuffer;
using detail::ScratchOn;

TEST(GpuScratchMemory, ABlockGivenBackIsTakenAgainOnItsStream) {
  SPMV_GPU_TEST_PRELUDE();
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  const std::size_t before = detail::device_bytes_in_use();
  const std::size_t block = std::size_t(1) << 20;  // the size class of both buffers below
  std::size_t kept = 0;
  {
    DeviceBuffer<double> a(100000, "first temporary", ScratchOn{stream});
    EXPECT_EQ(detail::device_bytes_in_use(), before + 100000 * sizeof(double));
    EXPECT_EQ(cudaMemsetAsync(a.data(), 0, a.bytes(), stream), cudaSuccess);
    kept = detail::scratch_bytes_kept();
  }
  EXPECT_EQ(detail::device_bytes_in_use(), before);
  EXPECT_EQ(detail::scratch_bytes_kept(), kept + block) << "the block is kept, not freed";
  {
    DeviceBuffer<double> b(90000, "second temporary", ScratchOn{stream});
    EXPECT_EQ(detail::scratch_bytes_kept(), kept) << "a kept block of the size class is taken again";
    EXPECT_EQ(detail::device_bytes_in_use(), before + 90000 * sizeof(double));
    // Moved, the buffer is given back once, by its new owner.
    const void* held = b.data();
    DeviceBuffer<double> moved = std::move(b);
    EXPECT_EQ(moved.data(), held);
    EXPECT_EQ(b.data(), nullptr);
  }
  EXPECT_EQ(detail::device_bytes_in_use(), before);
  EXPECT_EQ(detail::scratch_bytes_kept(), kept + block);
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

TEST(GpuScratchMemory, ACapOrAShortDeviceIsOutOfMemoryNamingTheBytes) {
  SPMV_GPU_TEST_PRELUDE();
  const std::size_t before = detail::device_bytes_in_use();
  {
    const detail::ScopedDeviceMemoryCap cap(before + 4096);
    try {
      DeviceBuffer<char> over(8192, "a capped temporary", ScratchOn{nullptr});
      ADD_FAILURE() << "took 8192 bytes under a cap of 4096";
    } catch (const OutOfMemory& e) {
      EXPECT_NE(std::string(e.what()).find("8192"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("a capped temporary"), std::string::npos) << e.what();
    }
    DeviceBuffer<char> within(4096, "a temporary within the cap", ScratchOn{nullptr});
    EXPECT_EQ(detail::device_bytes_in_use(), before + 4096);
  }
  std::size_t free_bytes = 0, total_bytes = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
  try {
    DeviceBuffer<char> beyond(total_bytes + (std::size_t(1) << 30), "more than the device", ScratchOn{nullptr});
    ADD_FAILURE() << "took more bytes than the device has";
  } catch (const OutOfMemory& e) {
    EXPECT_NE(std::string(e.what()).find("more than the device"), std::string::npos) << e.what();
  }
  EXPECT_EQ(detail::device_bytes_in_use(), before);
}

}  // namespace
}  // namespace spmv
#endif
