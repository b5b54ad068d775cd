// The host workbench that `spmv bench` uses for the reference and cpu backends.
#include <gtest/gtest.h>

#include "core/workbench.hpp"

namespace spmv::detail {
namespace {

TEST(HostWorkbench, KeepsOperandsWhereTheProductWritesThem) {
  auto bench = make_host_workbench<float>(3, 2);
  bench->set_input({1.0f, 2.0f, 3.0f});
  bench->set_output({0.0f, 0.0f});
  const float* x = bench->input();
  float* y = bench->output_pointer();
  y[0] = x[0] + x[1];
  y[1] = x[2];
  EXPECT_EQ(bench->output(), (std::vector<float>{3.0f, 3.0f}));
}

TEST(HostWorkbench, RunsWarmupUntimedThenTimesEachRun) {
  auto bench = make_host_workbench<double>(1, 1);
  for (bool flush : {false, true}) {
    int calls = 0;
    const std::vector<double> ms = bench->time([&] { ++calls; }, 2, 3, flush);
    EXPECT_EQ(calls, 5);
    ASSERT_EQ(ms.size(), 3u);
    for (double t : ms) EXPECT_GE(t, 0.0);
  }
}

}  // namespace
}  // namespace spmv::detail
