// The host backends (reference and cpu) against the serial reference products,
// on every matrix of the zoo, for float and double.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/backends.hpp"
#include "spmv/error.hpp"
#include "spmv/operator.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

// The zoo matrix called `name` (the zoo's order may change, its names stay).
Csr<double> zoo_matrix(const std::string& name) {
  for (auto& entry : test::matrix_zoo())
    if (entry.name == name) return std::move(entry.matrix);
  throw std::invalid_argument("no zoo matrix " + name);
}

struct HostKernelCase {
  std::string label;
  PlanOptions options;
};

// Every host kernel of the catalogue with its defaults, plus the cpu kernel
// with one thread and with more chunks than this machine has cores (so the
// multi-chunk paths run even on a small machine).
std::vector<HostKernelCase> host_kernel_cases() {
  std::vector<HostKernelCase> cases;
  for (const KernelInfo& kernel : detail::host_kernels()) {
    PlanOptions options;
    options.backend = kernel.backend;
    options.kernel = kernel.name;
    cases.push_back({kernel.name, options});
  }
  for (int threads : {1, 7}) {
    PlanOptions options;
    options.backend = Backend::cpu;
    options.kernel = "cpu-csr";
    options.params = {{"threads", threads}};
    cases.push_back({"cpu-csr threads=" + std::to_string(threads), options});
  }
  return cases;
}

struct Scaling {
  double alpha;
  double beta;
};
// beta == 0 cases start from a NaN-poisoned output, which must not leak through.
const std::vector<Scaling> scalings = {{1.0, 0.0}, {-0.5, 0.0}, {2.0, 0.75}, {1.0, 1.0}};

// Runs product(y, alpha, beta) from each scaling's initial output (NaN when
// beta == 0, else random) and checks the result with matches(y0, alpha, beta, y).
template <class T, class Product, class Matches>
void check_each_scaling(const std::vector<Scaling>& cases, const std::string& trace, std::size_t n,
                        const Product& product, const Matches& matches) {
  for (const Scaling& s : cases) {
    SCOPED_TRACE(trace + " / alpha=" + std::to_string(s.alpha) + " beta=" + std::to_string(s.beta));
    const std::vector<T> y0 = s.beta == 0 ? std::vector<T>(n, std::numeric_limits<T>::quiet_NaN())
                                          : test::random_vector<T>(n, 12);
    std::vector<T> y = y0;
    product(y.data(), T(s.alpha), T(s.beta));
    EXPECT_TRUE(matches(y0, T(s.alpha), T(s.beta), y));
  }
}

template <class T>
class HostBackend : public ::testing::Test {};
using ValueTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(HostBackend, ValueTypes);

TYPED_TEST(HostBackend, SpmvMatchesReference) {
  using T = TypeParam;
  for (const auto& [name, matrix] : test::matrix_zoo()) {
    const Csr<T> a = cast<T>(matrix);
    const std::vector<T> x = test::random_vector<T>(a.cols, 11);
    for (const HostKernelCase& kernel : host_kernel_cases()) {
      auto op = plan(a, kernel.options);
      check_each_scaling<T>(
          scalings, name + " / " + kernel.label, a.rows,
          [&](T* y, T alpha, T beta) { op->apply(x.data(), y, alpha, beta); },
          [&](const std::vector<T>& y0, T alpha, T beta, const std::vector<T>& y) {
            return test::matches_reference_spmv(a, x, y0, alpha, beta, y);
          });
    }
  }
}

TYPED_TEST(HostBackend, TransposedMatchesReferenceWithAndWithoutExplicitTranspose) {
  using T = TypeParam;
  for (const auto& [name, matrix] : test::matrix_zoo()) {
    const Csr<T> a = cast<T>(matrix);
    const std::vector<T> x = test::random_vector<T>(a.rows, 21);
    for (HostKernelCase kernel : host_kernel_cases()) {
      for (bool explicit_transpose : {false, true}) {
        kernel.options.explicit_transpose = explicit_transpose;
        auto op = plan(a, kernel.options);
        check_each_scaling<T>(
            scalings, name + " / " + kernel.label + (explicit_transpose ? " / explicit A^T" : ""),
            a.cols, [&](T* y, T alpha, T beta) { op->apply_transposed(x.data(), y, alpha, beta); },
            [&](const std::vector<T>& y0, T alpha, T beta, const std::vector<T>& y) {
              return test::matches_reference_spmv_transposed(a, x, y0, alpha, beta, y);
            });
      }
    }
  }
}

TYPED_TEST(HostBackend, SpmmMatchesReferenceInBothLayouts) {
  using T = TypeParam;
  for (const auto& [name, matrix] : test::matrix_zoo()) {
    const Csr<T> a = cast<T>(matrix);
    for (const HostKernelCase& kernel : host_kernel_cases()) {
      auto op = plan(a, kernel.options);
      for (index_t k : {1, 2, 3, 8, 33}) {
        const std::vector<T> b =
            test::random_vector<T>(static_cast<std::size_t>(a.cols) * k, 31 + k);
        for (Layout layout : {Layout::row_major, Layout::col_major}) {
          check_each_scaling<T>(
              {scalings[1], scalings[2]},
              name + " / " + kernel.label + " / k=" + std::to_string(k) + " " + to_string(layout),
              static_cast<std::size_t>(a.rows) * k,
              [&](T* c, T alpha, T beta) { op->spmm(b.data(), c, k, layout, alpha, beta); },
              [&](const std::vector<T>& c0, T alpha, T beta, const std::vector<T>& c) {
                return test::matches_reference_spmm(a, b, c0, k, layout, alpha, beta, c);
              });
        }
      }
    }
  }
}

// Partial sums are reduced in a fixed order: repeated products are bitwise equal.
TYPED_TEST(HostBackend, TransposedProductIsDeterministic) {
  using T = TypeParam;
  const Csr<T> a = cast<T>(zoo_matrix("power_law_4000"));  // power-law
  PlanOptions options;
  options.backend = Backend::cpu;
  options.params = {{"threads", 5}};
  auto op = plan(a, options);
  const std::vector<T> x = test::random_vector<T>(a.rows, 41);
  std::vector<T> first(a.cols), second(a.cols);
  op->apply_transposed(x.data(), first.data());
  op->apply_transposed(x.data(), second.data());
  EXPECT_EQ(first, second);
}

TYPED_TEST(HostBackend, DescribeReportsFormatKernelAndMatrixBytes) {
  using T = TypeParam;
  const Csr<T> a = cast<T>(zoo_matrix("banded_2000_bw3"));  // banded
  const std::size_t expected_bytes = (a.rows + 1) * 4 + a.nnz() * (4 + sizeof(T));

  PlanOptions cpu;
  cpu.backend = Backend::cpu;
  cpu.params = {{"threads", 3}};
  const OperatorDescription d = plan(a, cpu)->describe();
  EXPECT_EQ(d.backend, Backend::cpu);
  EXPECT_EQ(d.format, "csr");
  EXPECT_EQ(d.kernel, "cpu-csr");  // the default kernel of the backend
  EXPECT_EQ(d.params, (KernelParams{{"threads", 3}}));
  EXPECT_EQ(d.matrix_bytes, expected_bytes);
  EXPECT_EQ(d.device_bytes, 0u);
  EXPECT_GE(d.analysis_seconds, 0.0);
  EXPECT_GE(d.build_seconds, 0.0);
  EXPECT_EQ(d.upload_seconds, 0.0);

  PlanOptions reference;
  reference.backend = Backend::reference;
  const OperatorDescription r = plan(a, reference)->describe();
  EXPECT_EQ(r.backend, Backend::reference);
  EXPECT_EQ(r.format, "csr");
  EXPECT_EQ(r.kernel, "reference");
  EXPECT_EQ(r.matrix_bytes, expected_bytes);
}

std::string plan_error(const PlanOptions& options) {
  try {
    plan(zoo_matrix("single_1x1"), options);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "(no InvalidArgument thrown)";
}

TEST(HostBackendPlan, UnknownKernelListsTheValidOnes) {
  PlanOptions options;
  options.backend = Backend::cpu;
  options.kernel = "csr-magic";
  const std::string message = plan_error(options);
  EXPECT_NE(message.find("unknown kernel 'csr-magic'"), std::string::npos) << message;
  EXPECT_NE(message.find("cpu-csr"), std::string::npos) << message;

  options.kernel = "reference";  // a kernel of another backend
  EXPECT_NE(plan_error(options).find("unknown kernel 'reference'"), std::string::npos);
}

TEST(HostBackendPlan, UnknownOrInvalidParametersAreRefused) {
  PlanOptions options;
  options.backend = Backend::cpu;
  options.params = {{"block_size", 128}};
  EXPECT_NE(plan_error(options).find("has no parameter 'block_size'"), std::string::npos);

  options.params = {{"threads", 0}};
  EXPECT_NE(plan_error(options).find("threads=0"), std::string::npos);

  options.backend = Backend::reference;
  options.params = {{"threads", 2}};
  EXPECT_NE(plan_error(options).find("it takes none"), std::string::npos);
}

TEST(HostBackendPlan, NegativeSpmmColumnCountIsRefused) {
  PlanOptions options;
  options.backend = Backend::cpu;
  auto op = plan(zoo_matrix("single_1x1"), options);
  double b = 1, c = 0;
  EXPECT_THROW(op->spmm(&b, &c, -1, Layout::row_major), InvalidArgument);
}

TEST(HostBackendCatalogue, ListsBothHostKernels) {
  const std::vector<KernelInfo> kernels = kernel_catalogue();
  bool reference = false, cpu = false;
  for (const KernelInfo& k : kernels) {
    reference |= k.name == "reference" && k.backend == Backend::reference;
    cpu |= k.name == "cpu-csr" && k.backend == Backend::cpu && k.format == "csr" && k.transposed &&
           k.spmm;
  }
  EXPECT_TRUE(reference);
  EXPECT_TRUE(cpu);
}

}  // namespace
}  // namespace spmv
