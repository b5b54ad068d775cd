// The plan on the GPU: the model's choice builds and multiplies correctly,
// and the measure mode times candidates once, then answers from its cache.
#include <algorithm>

#include <gtest/gtest.h>

#include "cuda/device_buffer.hpp"
#include "spmv/gen.hpp"
#include "spmv/plan.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

template <class T>
void expect_correct_product(const Plan& p, const Csr<T>& a) {
  const auto op = make_operator(p, a);
  std::vector<T> x(static_cast<std::size_t>(a.cols)), y(static_cast<std::size_t>(a.rows));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = T(1) + T(i % 7) / T(8);
  op->apply(x.data(), y.data());
  EXPECT_TRUE(test::matches_reference_spmv(a, x, {}, T(1), T(0), y)) << p.options.kernel;
}

// y = 2 A^T x + 0.5 y0 by `op`, against the reference.
template <class T>
void expect_correct_transposed_product(Operator<T>& op, const Csr<T>& a) {
  const std::vector<T> x = test::random_vector<T>(static_cast<std::size_t>(a.rows), 5);
  const std::vector<T> y0 = test::random_vector<T>(static_cast<std::size_t>(a.cols), 6);
  std::vector<T> y = y0;
  op.apply_transposed(x.data(), y.data(), T(2), T(0.5));
  EXPECT_TRUE(test::matches_reference_spmv_transposed(a, x, y0, T(2), T(0.5), y)) << op.describe().kernel;
}

// Options of the measure mode with a plan cache of its own in the test's folder.
PlanOptions measuring(double expected_products, const std::string& cache_name) {
  PlanOptions options;
  options.backend = Backend::cuda;
  options.expected_products = expected_products;
  options.tuning = Tuning::measure;
  options.plan_cache = test::temp_dir() + "/" + cache_name;
  return options;
}

TEST(GpuPlan, TheModelsChoiceIsCorrectForEveryExpectedProductCount) {
  SPMV_GPU_TEST_PRELUDE();
  for (const char* spec : {"stencil27:n=40", "rmat:scale=14,edge_factor=8", "banded:rows=50000,lower=4,upper=4"}) {
    const Csr<double> a = generate(parse_generator_spec(spec));
    for (double expected : {1.0, 100.0, 1e6}) {
      PlanOptions options;
      options.backend = Backend::cuda;
      options.expected_products = expected;
      const Plan p = make_plan(a, options);
      SCOPED_TRACE(std::string(spec) + " " + p.reason);
      EXPECT_EQ(p.tuning, "model");
      expect_correct_product(p, a);
      expect_correct_product(make_plan(cast<float>(a), options), cast<float>(a));
    }
  }
}

// explicit_transpose with no kernel named: apply_transposed runs the kernel
// chosen for A^T on A^T's own format, apply and spmm A's operator; from a
// host matrix and from one on the device.
TEST(GpuPlan, ATransposeWithAPlanOfItsOwnMultipliesCorrectly) {
  SPMV_GPU_TEST_PRELUDE();
  for (const char* spec : {"classification:rows=50000,cols=127,per_row=12", "rmat:scale=13,edge_factor=8",
                           "fewhuge:rows=20000,cols=30000,per_row=4,huge_rows=2,huge_length=15000"}) {
    SCOPED_TRACE(spec);
    const Csr<double> a = generate(parse_generator_spec(spec));
    PlanOptions options;
    options.backend = Backend::cuda;
    options.explicit_transpose = true;
    const Plan p = make_plan(a, options);
    ASSERT_NE(p.transposed, nullptr);
    const auto op = make_operator(p, a);
    const OperatorDescription d = op->describe();
    ASSERT_NE(d.transposed, nullptr);
    EXPECT_EQ(d.transposed->kernel, p.transposed->options.kernel);
    EXPECT_GT(d.device_bytes, d.transposed->device_bytes);
    expect_correct_transposed_product(*op, a);
    const std::vector<double> x = test::random_vector<double>(static_cast<std::size_t>(a.cols), 7);
    std::vector<double> y(static_cast<std::size_t>(a.rows));
    op->apply(x.data(), y.data());
    EXPECT_TRUE(test::matches_reference_spmv(a, x, {}, 1.0, 0.0, y)) << d.kernel;
    const std::vector<double> b = test::random_vector<double>(static_cast<std::size_t>(a.cols) * 3, 8);
    std::vector<double> c(static_cast<std::size_t>(a.rows) * 3);
    op->spmm(b.data(), c.data(), 3, Layout::row_major);
    EXPECT_TRUE(test::matches_reference_spmm(a, b, {}, 3, Layout::row_major, 1.0, 0.0, c));

    const Csr<float> af = cast<float>(a);
    const detail::DeviceBuffer<index_t> row_ptr(af.row_ptr, "test row_ptr"), col_idx(af.col_idx, "test col_idx");
    const detail::DeviceBuffer<float> values(af.values, "test values");
    const DeviceCsrView<float> on_device{af.rows, af.cols, af.nnz(), row_ptr.data(), col_idx.data(), values.data()};
    const Plan from_device = make_plan(on_device, options);
    ASSERT_NE(from_device.transposed, nullptr);
    EXPECT_EQ(from_device.transposed->options.kernel, make_plan(af, options).transposed->options.kernel);
    expect_correct_transposed_product(*make_operator(from_device, on_device), af);
  }
}

// cuSPARSE's kernels with explicit_transpose multiply by an A^T they store,
// in their own format: more device memory, the same product.
TEST(GpuPlan, CusparseKernelsStoreTheTransposeWhenAsked) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = generate(parse_generator_spec("rmat:scale=12,edge_factor=8"));
  for (const char* kernel : {"cusparse-csr-alg1", "cusparse-csr-alg2", "cusparse-coo"}) {
    SCOPED_TRACE(kernel);
    PlanOptions options;
    options.backend = Backend::cusparse;
    options.kernel = kernel;
    const std::size_t without = plan(a, options)->describe().device_bytes;
    options.explicit_transpose = true;
    const auto op = plan(a, options);
    EXPECT_GE(op->describe().device_bytes, without + a.col_idx.size() * (sizeof(index_t) + sizeof(double)));
    expect_correct_transposed_product(*op, a);
  }
}

// DIA's padding limit is checked by its device build, not by make_plan: a
// chosen DIA that the build refuses gives way to the next candidate.
TEST(GpuPlan, AChoiceTheBuildRefusesGivesWayToTheNextCandidate) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = generate(parse_generator_spec("uniform:rows=20000,cols=20000,per_row=8"));
  PlanOptions options;
  options.backend = Backend::cuda;
  Plan p = make_plan(a, options);
  ASSERT_EQ(p.tuning, "model");
  PlanCandidate dia, vector;
  dia.kernel = "dia";
  dia.format = "dia";
  vector.kernel = "csr-vector";
  vector.format = "csr";
  p.candidates = {dia, vector};
  p.options.kernel = "dia";
  const auto op = make_operator(p, a);
  EXPECT_EQ(op->describe().kernel, "csr-vector");
  expect_correct_product(p, a);
  // A named kernel is built as named, and refused as it is.
  options.kernel = "dia";
  EXPECT_THROW(plan(a, options), FormatLimitError);
}

// The selector builds csr-hub with the model's hub_min_share: where the hubs
// hold fewer of the entries, csr-hub hands the matrix to csr-adaptive, and
// the operator describes csr-adaptive with its parameters. Named without it,
// csr-hub keeps any matrix.
TEST(GpuPlan, CsrHubHandsAMatrixWithFewHubEntriesToCsrAdaptive) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> stencil = generate(parse_generator_spec("stencil7:n=30"));  // no column has 8 entries
  const Csr<double> graph = generate(parse_generator_spec("rmat:scale=14,edge_factor=16"));
  PlanOptions options;
  options.backend = Backend::cuda;
  for (const Csr<double>* a : {&stencil, &graph}) {
    Plan p = make_plan(*a, options);
    ASSERT_EQ(p.tuning, "model");
    PlanCandidate hub;
    hub.kernel = "csr-hub";
    hub.format = "csr";
    hub.params = {{"hub_min_share", 10}};
    p.candidates = {hub};
    p.options.backend = Backend::cuda;
    p.options.kernel = hub.kernel;
    p.options.params = hub.params;
    const OperatorDescription built = make_operator(p, *a)->describe();
    if (a == &stencil) {
      EXPECT_EQ(built.kernel, "csr-adaptive");
      EXPECT_EQ(built.params.count("hub_min_share"), 0u);
      EXPECT_EQ(built.params.count("items_per_thread"), 1u);
    } else {
      EXPECT_EQ(built.kernel, "csr-hub");  // its hubs hold most of an R-MAT's entries
      EXPECT_EQ(built.params.at("hub_min_share"), 10);
    }
    expect_correct_product(p, *a);
  }
  options.kernel = "csr-hub";
  EXPECT_EQ(plan(stencil, options)->describe().kernel, "csr-hub");
}

TEST(GpuPlan, MeasureTimesTheBestCandidatesOnceThenUsesTheCache) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = generate(parse_generator_spec("stencil27:n=40"));
  const PlanOptions options = measuring(1e4, "plans.jsonl");
  const Plan measured = make_plan(a, options);
  SCOPED_TRACE(measured.reason);
  ASSERT_EQ(measured.tuning, "measured");
  int timed = 0;
  for (const PlanCandidate& c : measured.candidates) {
    if (!c.measured_seconds) continue;
    ++timed;
    EXPECT_GT(*c.measured_seconds, 0);
    ASSERT_TRUE(c.measured_setup_seconds);
  }
  EXPECT_GE(timed, 2);
  EXPECT_LE(timed, options.measured_candidates + 1);
  EXPECT_EQ(measured.measured_products, timed * 7);  // 2 warm-up + 5 timed each
  // Every candidate was built from one upload of the host matrix.
  EXPECT_NE(measured.reason.find("built from one upload of the matrix, counted in each setup"), std::string::npos);
  expect_correct_product(measured, a);

  const Plan cached = make_plan(a, options);
  EXPECT_EQ(cached.tuning, "cached") << cached.reason;
  EXPECT_EQ(cached.options.kernel, measured.options.kernel);
  EXPECT_EQ(cached.measured_products, 0);
}

// An SpMM plan measured: every SpMM kernel built and timed for k columns, the
// winner an SpMM kernel whose operator multiplies correctly; the cache keeps
// it for that k and layout only.
TEST(GpuPlan, MeasureTimesEverySpmmKernelForItsColumns) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = generate(parse_generator_spec("stencil27:n=30"));
  PlanOptions options = measuring(1e3, "spmm-plans.jsonl");
  options.spmm_columns = 4;
  const Plan measured = make_plan(a, options);
  SCOPED_TRACE(measured.reason);
  ASSERT_EQ(measured.tuning, "measured");
  ASSERT_GE(measured.candidates.size(), 4u);
  int timed = 0;
  for (const PlanCandidate& c : measured.candidates) {
    EXPECT_TRUE(c.measured_seconds || c.refusal) << c.kernel << " neither timed nor refused";
    timed += c.measured_seconds ? 1 : 0;
  }
  EXPECT_EQ(measured.measured_products, timed * 7);  // 2 warm-up + 5 timed each
  EXPECT_EQ(measured.reason.rfind("SpMM of 4 columns, row-major: ", 0), 0u);
  const std::vector<KernelInfo> catalogue = kernel_catalogue();
  const auto chosen = std::find_if(catalogue.begin(), catalogue.end(),
                                   [&](const KernelInfo& k) { return k.name == measured.options.kernel; });
  ASSERT_NE(chosen, catalogue.end());
  EXPECT_TRUE(chosen->spmm_only) << chosen->name;
  const auto op = make_operator(measured, a);
  for (Layout layout : {Layout::row_major, Layout::col_major}) {
    const std::vector<double> b = test::random_vector<double>(static_cast<std::size_t>(a.cols) * 4, 7);
    std::vector<double> c(static_cast<std::size_t>(a.rows) * 4);
    op->spmm(b.data(), c.data(), 4, layout);
    EXPECT_TRUE(test::matches_reference_spmm(a, b, {}, 4, layout, 1.0, 0.0, c)) << measured.options.kernel;
  }

  EXPECT_EQ(make_plan(a, options).tuning, "cached");
  options.spmm_columns = 8;
  EXPECT_EQ(make_plan(a, options).tuning, "measured") << "k = 8 has its own entry";
  options.spmm_columns = 0;
  EXPECT_EQ(make_plan(a, options).tuning, "measured") << "the SpMV has its own entry";
}

// The measure mode's one upload checks the columns as an operator's does.
TEST(GpuPlan, MeasureRefusesAColumnOutOfRange) {
  SPMV_GPU_TEST_PRELUDE();
  Csr<double> a = generate(parse_generator_spec("stencil27:n=40"));
  a.col_idx.back() = a.cols;
  EXPECT_THROW(make_plan(a, measuring(default_expected_products, "bad-column-plans.jsonl")), InvalidArgument);
}

}  // namespace
}  // namespace spmv
