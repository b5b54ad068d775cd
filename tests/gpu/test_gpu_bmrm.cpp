// BMRM with its products and its loss on the GPU (cuda backend) against the
// cpu backend: the device's risk evaluation (bmrm_device.cu) against the
// host's reference on the same margins, and training end to end: close
// iteration counts and the same objective on generated data (f64 and f32,
// BMRM's default kernel and a named one, every loss) and on a9a.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <tuple>

#include "solvers/bmrm_workspace.hpp"
#include "spmv/bmrm.hpp"
#include "spmv/gen.hpp"
#include "test_support.hpp"

#ifdef SPMV_HAVE_CUDA
#include <cuda_runtime.h>

namespace spmv {
namespace {

constexpr BmrmLoss every_loss[] = {BmrmLoss::hinge, BmrmLoss::squared_hinge, BmrmLoss::logistic};

// The same margins (some exactly at the hinge's kink y f = 1) through the
// host and the device workspace: equal sums up to summation order, equal
// counts, coefficients equal up to the last bit of exp/log1p.
template <class T>
void expect_device_risk_matches_host() {
  const std::int64_t m = 100003;  // not a multiple of the block size
  std::mt19937 random(11);
  std::normal_distribution<double> normal(0.0, 2.0);
  std::vector<T> y(m), margins(m);
  for (std::int64_t i = 0; i < m; ++i) {
    y[i] = random() % 3 == 0 ? T(-1) : T(1);
    margins[i] = i % 17 == 0 ? y[i] : static_cast<T>(normal(random));
  }
  const index_t n = 5;
  const auto host = detail::make_host_bmrm_workspace(y, n);
  const auto device = detail::make_device_bmrm_workspace(y, n, per_thread_stream());
  std::copy(margins.begin(), margins.end(), host->margins());
  ASSERT_EQ(cudaMemcpy(device->margins(), margins.data(), m * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  // The products are not run here: gradient() is what read_results copies.
  const std::vector<T> gradient = {T(1), T(-2), T(0.5), T(0), T(3)};
  std::copy(gradient.begin(), gradient.end(), host->gradient());
  ASSERT_EQ(cudaMemcpy(device->gradient(), gradient.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  const double ulp = std::numeric_limits<T>::epsilon();
  for (BmrmLoss loss : every_loss)
    for (double bias : {0.0, 0.25}) {
      SCOPED_TRACE(std::string(to_string(loss)) + " bias " + std::to_string(bias));
      host->queue_risk(loss, bias);
      device->queue_risk(loss, bias);
      device->wait();
      std::vector<double> host_subgradient(n), device_subgradient(n);
      const auto expected = host->read_results(host_subgradient);
      const auto actual = device->read_results(device_subgradient);
      // The host sums the m positive terms in order, the device in a tree:
      // about sqrt(m) eps apart as a rule (3e-14), m eps at worst (1e-11).
      EXPECT_NEAR(actual.risk, expected.risk, 1e-12 * expected.risk);
      EXPECT_NEAR(actual.coefficient_sum, expected.coefficient_sum, 1e-13);
      EXPECT_EQ(actual.correct, expected.correct);
      EXPECT_GT(expected.correct, 0);
      EXPECT_EQ(device_subgradient, host_subgradient);
      std::vector<T> coefficients(m);
      ASSERT_EQ(cudaMemcpy(coefficients.data(), device->coefficients(), m * sizeof(T), cudaMemcpyDeviceToHost),
                cudaSuccess);
      std::int64_t differing = 0;
      for (std::int64_t i = 0; i < m; ++i) {
        const double reference = host->coefficients()[i];
        if (std::abs(coefficients[i] - reference) > 2 * ulp * std::abs(reference)) ++differing;
      }
      EXPECT_EQ(differing, 0);
    }
}

TEST(GpuBmrm, DeviceRiskMatchesHost) {
  SPMV_GPU_TEST_PRELUDE();
  expect_device_risk_matches_host<double>();
  expect_device_risk_matches_host<float>();
}

template <class T>
void expect_cuda_matches_cpu(const LabeledMatrix<T>& data, const BmrmOptions& options) {
  BmrmOptions on_cpu = options;
  on_cpu.plan.backend = Backend::cpu;
  on_cpu.plan.kernel.clear();
  const BmrmResult cpu = train_bmrm(data, on_cpu);
  BmrmOptions on_cuda = options;
  on_cuda.plan.backend = Backend::cuda;
  const BmrmResult cuda = train_bmrm(data, on_cuda);
  ASSERT_TRUE(cpu.converged && cuda.converged);
  // The cuda plan may choose a cuSPARSE kernel (plan.hpp): either runs on the GPU.
  EXPECT_TRUE(cuda.backend == Backend::cuda || cuda.backend == Backend::cusparse);
  EXPECT_EQ(cuda.transposed_kernel.empty(), !options.plan.kernel.empty()) << cuda.transposed_kernel;
  // Sums in another order change the path (H100: logistic 82 against 97
  // iterations); the objectives agree within the gap.
  EXPECT_NEAR(cuda.iterations, cpu.iterations, 0.2 * cpu.iterations + 2);
  EXPECT_NEAR(cuda.objective, cpu.objective, 2 * options.epsilon);
  EXPECT_NEAR(cuda.training_accuracy, cpu.training_accuracy, 0.005);
}

// One test per loss and kernel: BMRM's own choice (the plan's kernels for X
// and for a stored X^T), and a named kernel whose transposed product runs
// without X^T; f64 and f32. Apart, each fits compute-sanitizer's time.
class GpuBmrmEach : public ::testing::TestWithParam<std::tuple<BmrmLoss, std::string>> {};

TEST_P(GpuBmrmEach, CudaMatchesCpu) {
  SPMV_GPU_TEST_PRELUDE();
  const LabeledMatrix<double> data =
      generate_labeled({"classification", {{"rows", "20000"}, {"cols", "127"}, {"per_row", "16"}}});
  const LabeledMatrix<float> data32{cast<float>(data.features), data.labels};
  BmrmOptions options;
  options.lambda = 1e-4;
  options.epsilon = 1e-4;
  options.bias = true;
  options.loss = std::get<0>(GetParam());
  options.plan.kernel = std::get<1>(GetParam());
  expect_cuda_matches_cpu(data, options);
  expect_cuda_matches_cpu(data32, options);
}

INSTANTIATE_TEST_SUITE_P(GpuBmrm, GpuBmrmEach,
                         ::testing::Combine(::testing::ValuesIn(every_loss), ::testing::Values("", "csr-vector")),
                         [](const ::testing::TestParamInfo<std::tuple<BmrmLoss, std::string>>& info) {
                           const std::string kernel = std::get<1>(info.param);
                           return std::string(to_string(std::get<0>(info.param))) + "_" +
                                  (kernel.empty() ? "default" : "csr_vector");
                         });

// a9a (the thesis's adult9), hinge and logistic (a test each), without bias
// as in the thesis, with a lambda that keeps the test short.
class GpuBmrmA9a : public ::testing::TestWithParam<BmrmLoss> {};

TEST_P(GpuBmrmA9a, CudaMatchesCpu) {
  SPMV_GPU_TEST_PRELUDE();
  const std::string path = test::shared_data_dir() + "/libsvm/a9a.gz";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not found";
  const LabeledMatrix<double> data = read_libsvm<double>(path);
  BmrmOptions options;
  options.lambda = 1e-4;
  options.epsilon = 1e-4;
  options.loss = GetParam();
  expect_cuda_matches_cpu(data, options);
}

INSTANTIATE_TEST_SUITE_P(GpuBmrm, GpuBmrmA9a, ::testing::Values(BmrmLoss::hinge, BmrmLoss::logistic),
                         [](const ::testing::TestParamInfo<BmrmLoss>& info) { return to_string(info.param); });

}  // namespace
}  // namespace spmv
#endif
