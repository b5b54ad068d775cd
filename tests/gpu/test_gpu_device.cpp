// PlanOptions::device: an ordinal that is not a device of this machine is
// refused with its number; a cuda or cusparse operator planned on device d
// runs there whatever device the calling thread has current, and leaves the
// caller's current device as it found it. With one GPU the cross-device
// cases reduce to device 0 from device 0 (the restore is still checked).
#include <gtest/gtest.h>

#include "spmv/gen.hpp"
#include "spmv/operator.hpp"
#include "test_support.hpp"

#ifdef SPMV_HAVE_CUDA
#include <cuda_runtime.h>

#include "cuda/device_buffer.hpp"

namespace spmv {
namespace {

int device_count() {
  int count = 0;
  EXPECT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  return count;
}

int current_device() {
  int device = -1;
  EXPECT_EQ(cudaGetDevice(&device), cudaSuccess);
  return device;
}

TEST(GpuDevice, OrdinalBeyondTheMachineIsRefused) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = generate(parse_generator_spec("stencil5:n=16"));
  for (const Backend backend : {Backend::cuda, Backend::cusparse}) {
    for (const int ordinal : {device_count(), -1}) {
      PlanOptions options;
      options.backend = backend;
      options.device = ordinal;
      try {
        plan(a, options);
        ADD_FAILURE() << "device " << ordinal << " was accepted";
      } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("PlanOptions::device " + std::to_string(ordinal)), std::string::npos)
            << e.what();
      }
    }
  }
}

TEST(GpuDevice, OperatorRunsOnItsDeviceWhateverIsCurrent) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = generate(parse_generator_spec("stencil27:n=12"));  // regular: ELL accepts it
  const std::vector<double> x = test::random_vector<double>(a.cols, 3);
  const std::vector<double> y0 = test::random_vector<double>(a.rows, 4);
  const int count = device_count();
  for (int device = 0; device < count; ++device) {
    for (const auto& [backend, kernel] : {std::pair{Backend::cuda, "csr-vector"}, std::pair{Backend::cuda, "ell"},
                                          std::pair{Backend::cusparse, ""}}) {
      ASSERT_EQ(cudaSetDevice((device + 1) % count), cudaSuccess);  // another device where there is one
      PlanOptions options;
      options.backend = backend;
      options.kernel = kernel;
      options.device = device;
      const auto op = plan(a, options);
      EXPECT_EQ(current_device(), (device + 1) % count) << "plan changed the current device";
      for (int current = 0; current < count; ++current) {
        ASSERT_EQ(cudaSetDevice(current), cudaSuccess);
        std::vector<double> y = y0;
        op->apply(x.data(), y.data(), 1.5, -0.5);
        EXPECT_TRUE(test::matches_reference_spmv(a, x, y0, 1.5, -0.5, y))
            << op->describe().kernel << " on device " << device << ", current " << current;
        EXPECT_EQ(current_device(), current) << "apply changed the current device";
      }
      // Device operands on the operator's device.
      ASSERT_EQ(cudaSetDevice(device), cudaSuccess);
      detail::DeviceBuffer<double> dx(x, "test x"), dy(y0, "test y");
      ASSERT_EQ(cudaSetDevice((device + 1) % count), cudaSuccess);
      op->apply(dx.data(), dy.data(), 1.5, -0.5);
      ASSERT_EQ(cudaStreamSynchronize(cudaStreamPerThread), cudaSuccess);
      ASSERT_EQ(cudaSetDevice(device), cudaSuccess);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      EXPECT_TRUE(test::matches_reference_spmv(a, x, y0, 1.5, -0.5, dy.to_host())) << op->describe().kernel;
    }
  }
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
}

}  // namespace
}  // namespace spmv
#endif
