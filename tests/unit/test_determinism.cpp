// Deterministic mode (PlanOptions::deterministic): the catalogue says which
// kernels offer it, a named kernel that does not is refused with the list of
// those that do, the selector keeps to them, the option survives a plan's
// JSON, and the host backends give bitwise equal products run to run.
#include <gtest/gtest.h>

#include <cstring>

#include "core/determinism.hpp"
#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/plan.hpp"
#include "test_support.hpp"

namespace spmv::test {
namespace {

const KernelInfo* catalogue_entry(const std::vector<KernelInfo>& catalogue, Backend backend, const std::string& name) {
  for (const KernelInfo& k : catalogue)
    if (k.backend == backend && k.name == name) return &k;
  return nullptr;
}

TEST(Determinism, TheCatalogueMarksTheKernelsThatOfferIt) {
  const std::vector<KernelInfo> catalogue = kernel_catalogue();
  for (const KernelInfo& k : catalogue) {
    SCOPED_TRACE(k.name);
    // Ours sum in fixed orders (the transposed product through A^T); of
    // cuSPARSE only what its documentation calls bitwise deterministic.
    if (k.backend != Backend::cusparse) {
      EXPECT_TRUE(k.deterministic);
    }
  }
  if (!catalogue_entry(catalogue, Backend::cusparse, "cusparse-csr-alg1")) return;  // a build without CUDA
  for (const char* deterministic : {"cusparse-csr-alg2", "cusparse-spmm-alg3"})
    EXPECT_TRUE(catalogue_entry(catalogue, Backend::cusparse, deterministic)->deterministic) << deterministic;
  for (const char* not_deterministic :
       {"cusparse-csr-alg1", "cusparse-coo", "cusparse-spmm-alg1", "cusparse-spmm-alg2"})
    EXPECT_FALSE(catalogue_entry(catalogue, Backend::cusparse, not_deterministic)->deterministic) << not_deterministic;
}

TEST(Determinism, ANamedKernelWithoutItIsRefusedWithThoseThatOfferIt) {
  const std::vector<KernelInfo> catalogue = {
      detail::deterministic_kernel({"ordered", "csr", Backend::cuda, "", {}}),
      {"atomic", "csr", Backend::cuda, "", {}},
      detail::deterministic_kernel({"also-ordered", "coo", Backend::cuda, "", {}}),
      {"elsewhere", "csr", Backend::cpu, "", {}},
  };
  PlanOptions options;
  options.backend = Backend::cuda;
  options.kernel = "atomic";
  EXPECT_NO_THROW(detail::check_deterministic_kernel(catalogue, options));  // not asked for
  options.deterministic = true;
  try {
    detail::check_deterministic_kernel(catalogue, options);
    ADD_FAILURE() << "a kernel that is not deterministic was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(),
                 "kernel 'atomic' of backend 'cuda' is not deterministic (its results may differ in the last bits "
                 "from run to run), and deterministic mode was asked for; deterministic kernels of this backend: "
                 "ordered, also-ordered");
  }
  for (const char* accepted : {"ordered", "", "no-such-kernel"}) {  // unknown names: the backend names its own
    options.kernel = accepted;
    EXPECT_NO_THROW(detail::check_deterministic_kernel(catalogue, options)) << accepted;
  }
  options.backend = Backend::cpu;
  options.kernel = "elsewhere";
  EXPECT_THROW(detail::check_deterministic_kernel(catalogue, options), InvalidArgument);
  EXPECT_TRUE(detail::admissible(catalogue[1], PlanOptions{}));
  EXPECT_FALSE(detail::admissible(catalogue[1], options));
  EXPECT_TRUE(detail::admissible(catalogue[0], options));
}

// With a CUDA build (no GPU needed: a described device), the selector ranks
// deterministic candidates only, and a forced cuSPARSE algorithm that is not
// deterministic is refused by make_plan.
TEST(Determinism, CudaPlansKeepToDeterministicKernels) {
  const std::vector<KernelInfo> catalogue = kernel_catalogue();
  if (!catalogue_entry(catalogue, Backend::cusparse, "cusparse-csr-alg1")) GTEST_SKIP() << "no CUDA build";
  const Csr<double> a = generate(parse_generator_spec("rmat:scale=12,edge_factor=8"));
  PlanOptions options = described_h100();
  options.deterministic = true;
  const Plan plan = make_plan(a, options);
  for (const PlanCandidate& c : plan.candidates) {
    SCOPED_TRACE(c.kernel);
    EXPECT_TRUE(catalogue_entry(catalogue, c.backend, c.kernel)->deterministic);
  }
  if (plan.tuning == "model") {
    EXPECT_TRUE(catalogue_entry(catalogue, plan.options.backend, plan.options.kernel)->deterministic);
    options.deterministic = false;
    EXPECT_GT(make_plan(a, options).candidates.size(), plan.candidates.size());  // cuSPARSE's others return
  }
  PlanOptions forced;
  forced.backend = Backend::cusparse;
  forced.kernel = "cusparse-csr-alg1";
  forced.deterministic = true;
  EXPECT_THROW(make_plan(a, forced), InvalidArgument);
  forced.kernel = "cusparse-csr-alg2";
  EXPECT_EQ(make_plan(a, forced).options.kernel, "cusparse-csr-alg2");
}

TEST(Determinism, TheOptionSurvivesAPlansJson) {
  const Csr<double> a = generate(parse_generator_spec("stencil7:n=6"));
  PlanOptions options;
  options.deterministic = true;
  const Plan plan = make_plan(a, options);
  const Plan back = plan_from_json(plan_to_json(plan));
  EXPECT_TRUE(back.options.deterministic);
  // A plan written before the option existed reads as not deterministic.
  std::string old = plan_to_json(plan);
  const std::string key = ",\n    \"deterministic\": true";
  const std::size_t at = old.find(key);
  ASSERT_NE(at, std::string::npos) << old;
  old.erase(at, key.size());
  EXPECT_FALSE(plan_from_json(old).options.deterministic);
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// Each product twice from the same operands, on the host backends, with the
// transposed product and SpMM: the same bits (the cpu backend's transposed
// product sums per-thread partials in thread order).
template <class T>
void expect_host_products_repeat(Backend backend) {
  for (const char* spec : {"rmat:scale=11,edge_factor=8", "stencil27:n=12"}) {
    SCOPED_TRACE(spec);
    const Csr<T> a = cast<T>(generate(parse_generator_spec(spec)));
    PlanOptions options;
    options.backend = backend;
    options.deterministic = true;
    const auto op = plan(a, options);
    const std::vector<T> x = random_vector<T>(a.cols, 1), xt = random_vector<T>(a.rows, 2);
    const std::vector<T> b = random_vector<T>(static_cast<std::size_t>(a.cols) * 3, 3);
    const std::vector<T> y0 = random_vector<T>(a.rows, 4), yt0 = random_vector<T>(a.cols, 5);
    const std::vector<T> c0 = random_vector<T>(static_cast<std::size_t>(a.rows) * 3, 6);
    std::vector<T> first[3] = {y0, yt0, c0}, second[3] = {y0, yt0, c0};
    for (std::vector<T>* out : {first, second}) {
      op->apply(x.data(), out[0].data(), T(1.5), T(-0.5));
      op->apply_transposed(xt.data(), out[1].data(), T(1.5), T(-0.5));
      op->spmm(b.data(), out[2].data(), 3, Layout::row_major, T(1), T(0.5));
    }
    EXPECT_TRUE(matches_reference_spmv(a, x, y0, T(1.5), T(-0.5), first[0]));
    EXPECT_TRUE(matches_reference_spmv_transposed(a, xt, yt0, T(1.5), T(-0.5), first[1]));
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(same_bits(first[i], second[i])) << "product " << i;
  }
}

TEST(Determinism, HostBackendsRepeatTheirBits) {
  for (Backend backend : {Backend::cpu, Backend::reference}) {
    SCOPED_TRACE(to_string(backend));
    expect_host_products_repeat<float>(backend);
    expect_host_products_repeat<double>(backend);
  }
}

}  // namespace
}  // namespace spmv::test
