// CG on the device: the cuda backend reaches the cpu backend's residual in
// the same number of iterations (within a few), f32 and f64, with and
// without Jacobi; breakdowns are reported as on the host.
#include <gtest/gtest.h>

#include <cstdlib>

#include "spmv/cg.hpp"
#include "spmv/gen.hpp"
#include "spmv/io.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

template <class T>
std::vector<T> times_ones(const Csr<T>& a) {
  std::vector<T> b(static_cast<std::size_t>(a.rows), T(0));
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) b[i] += a.values[k];
  return b;
}

template <class T>
void expect_cuda_matches_cpu(const Csr<T>& a, double tolerance, int max_iterations, int iteration_slack) {
  const std::vector<T> b = times_ones(a);
  for (Preconditioner preconditioner : {Preconditioner::none, Preconditioner::jacobi}) {
    SCOPED_TRACE(to_string(preconditioner));
    CgOptions options;
    options.tolerance = tolerance;
    options.max_iterations = max_iterations;
    options.preconditioner = preconditioner;
    options.plan.backend = Backend::cpu;
    std::vector<T> cpu_x, cuda_x;
    const CgResult cpu = conjugate_gradients(a, b, cpu_x, options);
    options.plan.backend = Backend::cuda;
    const CgResult cuda = conjugate_gradients(a, b, cuda_x, options);
    SCOPED_TRACE(cuda.operator_description.kernel);
    ASSERT_TRUE(cpu.converged) << cpu.stop_reason;
    ASSERT_TRUE(cuda.converged) << cuda.stop_reason;
    EXPECT_NEAR(cuda.iterations, cpu.iterations, iteration_slack);
    EXPECT_EQ(cuda.residual_history.size(), static_cast<std::size_t>(cuda.iterations) + 1);
    EXPECT_LE(cuda.residual_history.back(), tolerance);
    EXPECT_LE(cuda.relative_residual, 10 * tolerance);
    double worst = 0;
    for (std::size_t i = 0; i < cuda_x.size(); ++i)
      worst = std::max(worst, std::abs(double(cuda_x[i]) - double(cpu_x[i])));
    EXPECT_LT(worst, sizeof(T) == 4 ? 1e-2 : 1e-6);
  }
}

TEST(GpuCg, CudaMatchesCpuOnStencils) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> stencil = gen_stencil_3d(40, 40, 40, 27);
  expect_cuda_matches_cpu(stencil, 1e-10, 2000, 2);
  expect_cuda_matches_cpu(cast<float>(stencil), 1e-5, 2000, 3);
  expect_cuda_matches_cpu(gen_stencil_2d_5pt(200, 150), 1e-10, 5000, 3);
}

TEST(GpuCg, CudaMatchesCpuOnARealSpdMatrix) {
  SPMV_GPU_TEST_PRELUDE();
  const std::string path = test::shared_data_dir() + "/matrices/bcsstk16.mtx.gz";
  Csr<double> a;
  try {
    a = read_matrix<double>(path);
  } catch (const IoError&) {
    GTEST_SKIP() << "no " << path << " (shared data absent)";
  }
  // bcsstk16: SPD, condition number 4.9e9; rounding makes the iteration counts drift apart a little.
  expect_cuda_matches_cpu(a, 1e-8, 20000, 20);
}

TEST(GpuCg, BreakdownAndMaximumIterationsAsOnTheHost) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> indefinite =
      test::from_triplets(4, 4, {{0, 0, 1}, {1, 1, -3}, {2, 2, 2}, {3, 3, 1}, {0, 1, 0.5}, {1, 0, 0.5}});
  CgOptions options;
  options.plan.backend = Backend::cuda;
  std::vector<double> x;
  const CgResult broken = conjugate_gradients(indefinite, times_ones(indefinite), x, options);
  EXPECT_FALSE(broken.converged);
  EXPECT_EQ(broken.stop_reason, "breakdown: p'Ap <= 0 at iteration 1, the matrix is not positive definite");
  EXPECT_EQ(broken.iterations, 0);

  const Csr<double> a = gen_stencil_2d_5pt(50, 50);
  options.max_iterations = 7;  // not a multiple of the check interval
  x.clear();
  const CgResult limited = conjugate_gradients(a, times_ones(a), x, options);
  EXPECT_FALSE(limited.converged);
  EXPECT_EQ(limited.iterations, 7);
  EXPECT_EQ(limited.stop_reason, "maximum iterations reached");
  EXPECT_NEAR(limited.relative_residual, limited.residual_history.back(), 1e-10);
}

}  // namespace
}  // namespace spmv
