// Conjugate gradients on the host backends: convergence on SPD matrices, the
// known solution, Jacobi on a badly scaled matrix, refusals and breakdowns.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "spmv/cg.hpp"
#include "spmv/gen.hpp"
#include "spmv/io.hpp"
#include "test_cli_support.hpp"
#include "test_support.hpp"

namespace spmv::test {
namespace {

// b = A * ones: the solution is ones.
template <class T>
std::vector<T> times_ones(const Csr<T>& a) {
  std::vector<T> b(static_cast<std::size_t>(a.rows), T(0));
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) b[i] += a.values[k];
  return b;
}

double max_error_from_ones(const std::vector<double>& x) {
  double worst = 0;
  for (double v : x) worst = std::max(worst, std::abs(v - 1));
  return worst;
}

// D A D with D = diag(10^(3 (i mod 5) / 4)): SPD, condition number far worse.
Csr<double> badly_scaled(const Csr<double>& a) {
  Csr<double> scaled = a;
  const auto scale = [](index_t i) { return std::pow(10.0, 0.75 * (i % 5)); };
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) scaled.values[k] *= scale(i) * scale(a.col_idx[k]);
  return scaled;
}

CgOptions options_for(Backend backend, Preconditioner preconditioner = Preconditioner::none) {
  CgOptions options;
  options.plan.backend = backend;
  options.preconditioner = preconditioner;
  options.tolerance = 1e-10;
  options.max_iterations = 2000;
  return options;
}

TEST(Cg, ConvergesOnTheLaplacianToTheKnownSolution) {
  const Csr<double> a = gen_stencil_2d_5pt(40, 30);
  const std::vector<double> b = times_ones(a);
  for (Backend backend : {Backend::cpu, Backend::reference})
    for (Preconditioner preconditioner : {Preconditioner::none, Preconditioner::jacobi}) {
      SCOPED_TRACE(std::string(to_string(backend)) + " " + to_string(preconditioner));
      std::vector<double> x;
      const CgResult r = conjugate_gradients(a, b, x, options_for(backend, preconditioner));
      EXPECT_TRUE(r.converged) << r.stop_reason;
      EXPECT_EQ(r.stop_reason, "converged");
      EXPECT_GT(r.iterations, 10);
      EXPECT_LT(r.iterations, 200);
      ASSERT_EQ(r.residual_history.size(), static_cast<std::size_t>(r.iterations) + 1);
      EXPECT_DOUBLE_EQ(r.residual_history.front(), 1.0);  // x0 = 0: r0 = b
      EXPECT_LE(r.residual_history.back(), 1e-10);
      EXPECT_LE(r.relative_residual, 1e-9);
      EXPECT_LT(max_error_from_ones(x), 1e-7);
      EXPECT_EQ(r.operator_description.backend, backend);
    }
}

TEST(Cg, FloatConvergesToItsPrecision) {
  const Csr<float> a = cast<float>(gen_stencil_3d(12, 12, 12, 7));
  std::vector<float> x;
  CgOptions options = options_for(Backend::cpu);
  options.tolerance = 1e-5;
  const CgResult r = conjugate_gradients(a, times_ones(a), x, options);
  EXPECT_TRUE(r.converged) << r.stop_reason;
  EXPECT_LE(r.relative_residual, 1e-4);
  for (float v : x) EXPECT_NEAR(v, 1.0f, 1e-3f);
}

TEST(Cg, JacobiCutsTheIterationsOnABadlyScaledMatrix) {
  const Csr<double> a = badly_scaled(gen_stencil_2d_5pt(30, 30));
  const std::vector<double> b = times_ones(a);
  std::vector<double> plain_x, jacobi_x;
  CgOptions options = options_for(Backend::cpu);
  options.max_iterations = 20000;
  const CgResult plain = conjugate_gradients(a, b, plain_x, options);
  options.preconditioner = Preconditioner::jacobi;
  const CgResult jacobi = conjugate_gradients(a, b, jacobi_x, options);
  ASSERT_TRUE(plain.converged) << plain.stop_reason;
  ASSERT_TRUE(jacobi.converged) << jacobi.stop_reason;
  EXPECT_LT(jacobi.iterations * 3, plain.iterations) << jacobi.iterations << " vs " << plain.iterations;
  EXPECT_LT(max_error_from_ones(jacobi_x), 1e-6);
}

TEST(Cg, ConvergesOnARealSpdMatrixWithJacobi) {
  const std::string path = shared_data_dir() + "/matrices/bcsstk14.mtx.gz";
  Csr<double> a;
  try {
    a = read_matrix<double>(path);
  } catch (const IoError&) {
    GTEST_SKIP() << "no " << path << " (shared data absent)";
  }
  // bcsstk14 is SPD (smallest eigenvalue 1, condition number 1.2e10).
  std::vector<double> x;
  CgOptions options = options_for(Backend::cpu, Preconditioner::jacobi);
  options.tolerance = 1e-8;
  options.max_iterations = 5000;
  const CgResult r = conjugate_gradients(a, times_ones(a), x, options);
  EXPECT_TRUE(r.converged) << r.stop_reason;
  EXPECT_LE(r.relative_residual, 1e-7);
  EXPECT_LT(max_error_from_ones(x), 1e-2);
}

TEST(Cg, AnIndefiniteMatrixIsABreakdownNotAnAnswer) {
  // Indefinite (a_11 = -3); with b = A * ones the first p'Ap is -11.25.
  Csr<double> a = from_triplets(4, 4, {{0, 0, 1}, {1, 1, -3}, {2, 2, 2}, {3, 3, 1}, {0, 1, 0.5}, {1, 0, 0.5}});
  std::vector<double> x;
  const CgResult r = conjugate_gradients(a, times_ones(a), x, options_for(Backend::cpu));
  EXPECT_FALSE(r.converged);
  EXPECT_NE(r.stop_reason.find("breakdown: p'Ap <= 0 at iteration"), std::string::npos) << r.stop_reason;
  EXPECT_NE(r.stop_reason.find("not positive definite"), std::string::npos) << r.stop_reason;
  EXPECT_EQ(r.residual_history.size(), static_cast<std::size_t>(r.iterations) + 1);
}

TEST(Cg, BadInputIsRefusedWithTheReason) {
  const Csr<double> square = gen_stencil_2d_5pt(4, 4);
  std::vector<double> x;
  const auto message_of = [&](const Csr<double>& a, const std::vector<double>& b, std::vector<double> guess,
                              const CgOptions& options) {
    try {
      conjugate_gradients(a, b, guess, options);
    } catch (const InvalidArgument& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  const Csr<double> wide = from_triplets(2, 3, {{0, 0, 1}, {1, 1, 1}});
  EXPECT_NE(message_of(wide, {1, 1}, x, {}).find("square"), std::string::npos);
  EXPECT_NE(message_of(square, {1, 2, 3}, x, {}).find("b has 3 entries"), std::string::npos);
  std::vector<double> short_guess(3);
  EXPECT_NE(message_of(square, times_ones(square), short_guess, {}).find("initial guess"), std::string::npos);
  CgOptions bad_tolerance;
  bad_tolerance.tolerance = 0;
  EXPECT_NE(message_of(square, times_ones(square), x, bad_tolerance).find("tolerance"), std::string::npos);
  std::vector<double> nan_b = times_ones(square);
  nan_b[3] = std::nan("");
  EXPECT_NE(message_of(square, nan_b, x, {}).find("not finite"), std::string::npos);
  // Jacobi: a missing or negative diagonal entry.
  const Csr<double> no_diagonal = from_triplets(2, 2, {{0, 0, 2}, {0, 1, 1}, {1, 0, 1}});
  CgOptions jacobi;
  jacobi.preconditioner = Preconditioner::jacobi;
  const std::string missing = message_of(no_diagonal, {1, 1}, x, jacobi);
  EXPECT_NE(missing.find("diagonal entry (1, 1)"), std::string::npos) << missing;
  EXPECT_NE(missing.find("not positive definite"), std::string::npos) << missing;
  EXPECT_THROW(preconditioner_from_string("ilu"), InvalidArgument);
}

TEST(Cg, ZeroRightHandSideGivesZeroAtOnce) {
  const Csr<double> a = gen_stencil_2d_5pt(5, 5);
  std::vector<double> x(25, 3.0);
  const CgResult r = conjugate_gradients(a, std::vector<double>(25, 0.0), x, options_for(Backend::cpu));
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.iterations, 0);
  EXPECT_EQ(x, std::vector<double>(25, 0.0));
}

TEST(Cg, MaximumIterationsIsANonConvergenceWithTheLastIterate) {
  const Csr<double> a = gen_stencil_2d_5pt(30, 30);
  std::vector<double> x;
  CgOptions options = options_for(Backend::cpu);
  options.max_iterations = 5;
  const CgResult r = conjugate_gradients(a, times_ones(a), x, options);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.iterations, 5);
  EXPECT_EQ(r.stop_reason, "maximum iterations reached");
  EXPECT_EQ(r.residual_history.size(), 6u);
  EXPECT_NEAR(r.relative_residual, r.residual_history.back(), 1e-12);
}

// The tool: b = A * ones, JSON with the history, exit codes 0, 1 and 2.
TEST(CliSolve, SolvesWithTheKnownSolutionAndWritesJson) {
  const std::string dir = temp_dir();
  const CliRun run = run_cli({"solve", sample("bcsstk14.mtx.gz"), "--backend", "cpu", "--precond", "jacobi",
                              "--tol", "1e-8", "--max-iter", "5000", "--json", dir + "/r.json", "-o",
                              dir + "/x.txt"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("converged after"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("ms per iteration"), std::string::npos) << run.out;
  const nlohmann::json report = nlohmann::json::parse(read_text(dir + "/r.json"));
  EXPECT_EQ(report["converged"], true);
  EXPECT_EQ(report["residual_history"].size(), report["iterations"].get<std::size_t>() + 1);
  EXPECT_LE(report["relative_residual"].get<double>(), 1e-7);
  EXPECT_LT(report["solution_error"].get<double>(), 1e-3);
  EXPECT_EQ(report["backend"], "cpu");
  std::ifstream solution(dir + "/x.txt");
  std::size_t lines = 0;
  for (std::string line; std::getline(solution, line);) ++lines;
  EXPECT_EQ(lines, 1806u);
}

TEST(CliSolve, ExitCodesForNonConvergenceAndBadInput) {
  const std::string dir = temp_dir();
  const CliRun limited = run_cli({"solve", sample("bcsstk14.mtx.gz"), "--backend", "cpu", "--max-iter", "3"});
  EXPECT_EQ(limited.exit_code, 1) << limited.out << limited.err;
  EXPECT_NE(limited.out.find("maximum iterations reached"), std::string::npos) << limited.out;
  const CliRun nonsquare = run_cli({"solve", sample("heart_scale.libsvm"), "--backend", "cpu"});
  EXPECT_EQ(nonsquare.exit_code, 2) << nonsquare.err;
  EXPECT_NE(nonsquare.err.find("square"), std::string::npos) << nonsquare.err;
  {
    std::ofstream rhs(dir + "/bad.txt");
    rhs << "1\n2\nfoo\n";
  }
  const CliRun bad_rhs = run_cli({"solve", sample("bcsstk14.mtx.gz"), "--backend", "cpu", "--rhs", dir + "/bad.txt"});
  EXPECT_EQ(bad_rhs.exit_code, 2) << bad_rhs.err;
  EXPECT_NE(bad_rhs.err.find("bad.txt:3"), std::string::npos) << bad_rhs.err;
}

}  // namespace
}  // namespace spmv::test
