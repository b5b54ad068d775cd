// The measure mode's plan cache: round trip, keys, a corrupt file, and
// concurrent writers (separate processes appending at once).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "core/plan_cache.hpp"
#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/plan.hpp"
#include "test_support.hpp"

namespace spmv::test {
namespace {

detail::CachedChoice choice(const std::string& kernel, double product_seconds) {
  return {Backend::cuda, kernel, product_seconds, 0.5};
}

TEST(PlanCache, StoresAndFindsTheLastChoiceOfAKey) {
  detail::PlanCache cache(temp_dir() + "/new/folder/plans.jsonl");
  EXPECT_FALSE(cache.find("a"));  // no file yet
  cache.store("a", choice("dia", 1e-3));
  cache.store("b", choice("ell", 2e-3));
  cache.store("a", choice("bro-ell", 3e-3));
  const auto a = cache.find("a");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->kernel, "bro-ell");
  EXPECT_DOUBLE_EQ(a->product_seconds, 3e-3);
  EXPECT_DOUBLE_EQ(a->setup_seconds, 0.5);
  EXPECT_EQ(cache.find("b")->kernel, "ell");
  EXPECT_FALSE(cache.find("c"));
  EXPECT_EQ(cache.corrupt_lines(), 0);
}

TEST(PlanCache, ACorruptFileIsReadPastAndStillWritten) {
  const std::string path = temp_dir() + "/plans.jsonl";
  {
    std::ofstream out(path);
    out << "not json at all\n"
        << R"({"key":"a","backend":"cuda","kernel":"dia","product_seconds":0.001,"setup_seconds":0.5})" << "\n"
        << R"({"key":"a","backend":"no-such-backend","kernel":"x","product_seconds":1,"setup_seconds":1})" << "\n"
        << R"({"key":"b","backend":"cuda","kern)";  // a writer died mid-line
  }
  detail::PlanCache cache(path);
  ASSERT_TRUE(cache.find("a"));
  EXPECT_EQ(cache.find("a")->kernel, "dia");
  EXPECT_EQ(cache.corrupt_lines(), 3);
  cache.store("b", choice("ell", 2e-3));  // starts a line of its own after the torn one
  ASSERT_TRUE(cache.find("b"));
  EXPECT_EQ(cache.find("b")->kernel, "ell");
  EXPECT_EQ(cache.corrupt_lines(), 3);
}

TEST(PlanCache, ConcurrentWritersNeverInterleave) {
  const std::string path = temp_dir() + "/plans.jsonl";
  constexpr int writers = 4, stores = 200;
  std::vector<pid_t> children;
  for (int w = 0; w < writers; ++w) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      detail::PlanCache cache(path);
      for (int i = 0; i < stores; ++i)
        cache.store("writer " + std::to_string(w) + " entry " + std::to_string(i) + std::string(200, 'x'),
                    choice("kernel-" + std::to_string(w), i));
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  detail::PlanCache cache(path);
  for (int w = 0; w < writers; ++w)
    for (int i = 0; i < stores; i += 37) {
      const auto found = cache.find("writer " + std::to_string(w) + " entry " + std::to_string(i) + std::string(200, 'x'));
      ASSERT_TRUE(found) << w << " " << i;
      EXPECT_EQ(found->kernel, "kernel-" + std::to_string(w));
      EXPECT_DOUBLE_EQ(found->product_seconds, i);
    }
  EXPECT_EQ(cache.corrupt_lines(), 0);
  std::ifstream in(path);
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  EXPECT_EQ(lines, writers * stores);
}

TEST(PlanCache, KeysTellMatricesDevicesAndExpectedProductsApart) {
  const Csr<double> a = generate(parse_generator_spec("stencil5:n=30"));
  const Csr<double> b = generate(parse_generator_spec("stencil5:n=31"));
  Csr<double> c = a;
  c.col_idx[5] = c.col_idx[5] == 0 ? 1 : 0;  // same sizes, other structure (sampled: entry 5 is hashed)
  const DeviceProperties h100{"H100", 132, 50 << 20, 3000}, h200{"H200", 132, 50 << 20, 4000};
  const std::string key = detail::plan_cache_key(a, h100, 100);
  EXPECT_EQ(key, detail::plan_cache_key(a, h100, 100));
  EXPECT_NE(key, detail::plan_cache_key(b, h100, 100));
  EXPECT_NE(key, detail::plan_cache_key(c, h100, 100));
  EXPECT_NE(key, detail::plan_cache_key(a, h200, 100));
  EXPECT_NE(key, detail::plan_cache_key(a, h100, 1000));
  EXPECT_NE(key, detail::plan_cache_key(cast<float>(a), h100, 100));
}

TEST(PlanCache, ThePathComesFromTheOptionsThenTheEnvironment) {
  PlanOptions options;
  options.plan_cache = "/somewhere/plans.jsonl";
  EXPECT_EQ(detail::plan_cache_path(options), "/somewhere/plans.jsonl");
  options.plan_cache.clear();
  setenv("SPMV_PLAN_CACHE", "/elsewhere/p.jsonl", 1);
  EXPECT_EQ(detail::plan_cache_path(options), "/elsewhere/p.jsonl");
  unsetenv("SPMV_PLAN_CACHE");
}

TEST(PlanCache, MeasureModeOptionsAreCheckedAndRoundTrip) {
  const Csr<double> a = generate(parse_generator_spec("stencil5:n=8"));
  PlanOptions options;
  options.backend = Backend::cuda;
  options.tuning = Tuning::measure;
  options.target_device = DeviceProperties{"H100", 132, 50 << 20, 3000};
  EXPECT_THROW(make_plan(a, options), InvalidArgument);  // measuring needs this machine's GPU
  options.target_device.reset();
  options.measured_candidates = 0;
  EXPECT_THROW(make_plan(a, options), InvalidArgument);
  Plan p;
  p.value_type = "f64";
  p.options.tuning = Tuning::measure;
  p.options.measured_candidates = 5;
  p.options.plan_cache = "/x/y.jsonl";
  p.measured_products = 28;
  const Plan back = plan_from_json(plan_to_json(p));
  EXPECT_EQ(back.options.tuning, Tuning::measure);
  EXPECT_EQ(back.options.measured_candidates, 5);
  EXPECT_EQ(back.options.plan_cache, "/x/y.jsonl");
  EXPECT_EQ(back.measured_products, 28);
}

}  // namespace
}  // namespace spmv::test
