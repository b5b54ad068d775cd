// The GPU test binary's own check: with SPMV_REQUIRE_GPU=1 a device must be usable.
#include <gtest/gtest.h>

#include "spmv/operator.hpp"
#include "test_support.hpp"

TEST(GpuEnvironment, DeviceIsPresentWhenRequired) {
  SPMV_GPU_TEST_PRELUDE();
  EXPECT_TRUE(spmv::cuda_available());
}
