// SpMM on the GPU: every SpMM kernel (spmm-* of the cuda backend and
// cuSPARSE's cusparse-spmm-alg*) x float/double against the reference for
// k in {1, 2, 3, 4, 8, 32, 33}, both layouts, alpha/beta cases (beta = 0
// with C poisoned by NaN), on the matrix zoo and generated matrices; device
// operands, misaligned ones included; the plan's choice of SpMM kernel;
// and the out-of-core SpMM against the in-core product.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/operator.hpp"
#include "spmv/plan.hpp"
#include "spmv/spmm.hpp"
#include "test_support.hpp"

#ifdef SPMV_HAVE_CUDA
#include "cuda/device_buffer.hpp"
#endif

namespace spmv {
namespace {

const std::vector<index_t> column_counts = {1, 2, 3, 4, 8, 32, 33};

struct Scaling {
  double alpha;
  double beta;  // 0: C starts as NaN and must not be read
};
const std::vector<Scaling> scalings = {{1, 0}, {0.75, -1}, {-2, 0.5}};

// Parameter sets each SpMM kernel is tested with, beside its defaults.
const test::KernelVariants& spmm_variants() {
  static const test::KernelVariants variants = {
      {"spmm-csr-vec",
       {{{"entry_lanes", 1}},
        {{"entry_lanes", 32}, {"block_size", 64}},
        {{"entry_lanes", 2}, {"columns_per_pass", 4}, {"block_size", 1024}}}},
      {"spmm-fastspmm",
       {{{"threads_per_row", 1}, {"columns_per_pass", 8}},
        {{"threads_per_row", 4}, {"columns_per_pass", 2}},
        {{"threads_per_row", 32}, {"columns_per_pass", 4}, {"block_size", 32}},
        {{"threads_per_row", 2}, {"columns_per_pass", 1}, {"block_size", 1024}}}},
      {"spmm-setspmvs", {{{"threads_per_row", 8}}}},
  };
  return variants;
}

std::vector<test::KernelCase> spmm_cases() {
  return test::kernel_cases([](const KernelInfo& info) { return info.spmm_only; }, spmm_variants(), true);
}

std::unique_ptr<Operator<double>> plan_for(const Csr<double>& a, const std::string& kernel,
                                           const KernelParams& params = {}) {
  PlanOptions options;
  options.backend = kernel.rfind("cusparse", 0) == 0 ? Backend::cusparse : Backend::cuda;
  options.kernel = kernel;
  options.params = params;
  return plan(a, options);
}

// C0 for a scaling: NaN when beta == 0, else random.
template <class T>
std::vector<T> initial_c(std::size_t n, double beta, std::uint64_t seed) {
  return beta == 0 ? std::vector<T>(n, std::numeric_limits<T>::quiet_NaN())
                   : test::random_vector<T>(n, seed);
}

// Every k, layout and scaling on one matrix. Returns false when the
// kernel's format refused the matrix, which is allowed with a reason.
template <class T>
bool check_spmm(const Csr<double>& matrix, const std::string& name, const test::KernelCase& c,
                const std::vector<index_t>& ks) {
  const Csr<T> a = cast<T>(matrix);
  SCOPED_TRACE(name + " / " + c.describe() + (sizeof(T) == 4 ? " / f32" : " / f64"));
  const std::unique_ptr<Operator<T>> op = test::plan_case(a, c);
  if (!op) return false;
  for (index_t k : ks)
    for (Layout layout : {Layout::row_major, Layout::col_major})
      for (const Scaling& s : scalings) {
        const auto b = test::random_vector<T>(static_cast<std::size_t>(a.cols) * k, 100 + k);
        const auto c0 = initial_c<T>(static_cast<std::size_t>(a.rows) * k, s.beta, 200 + k);
        std::vector<T> result = c0;
        const T alpha = static_cast<T>(s.alpha), beta = static_cast<T>(s.beta);
        try {
          op->spmm(b.data(), result.data(), k, layout, alpha, beta);
        } catch (const Unavailable& refusal) {
          // cuSPARSE may refuse a layout for an algorithm; ours never do.
          EXPECT_EQ(c.backend, Backend::cusparse) << refusal.what();
          EXPECT_NE(std::string(refusal.what()).find(to_string(layout)), std::string::npos)
              << refusal.what();
          continue;
        }
        EXPECT_TRUE(test::matches_reference_spmm(a, b, s.beta == 0 ? std::vector<T>{} : c0, k,
                                                 layout, alpha, beta, result))
            << "k=" << k << " " << to_string(layout) << " alpha=" << s.alpha << " beta=" << s.beta;
      }
  return true;
}

TEST(GpuSpmm, TheCatalogueListsTheSpmmKernels) {
  SPMV_GPU_TEST_PRELUDE();
  std::vector<std::string> names;
  for (const KernelInfo& info : kernel_catalogue())
    if (info.spmm_only) {
      names.push_back(info.name);
      EXPECT_TRUE(info.spmm) << info.name;
    }
  for (const char* expected : {"spmm-csr-vec", "spmm-fastspmm", "spmm-setspmvs",
                               "cusparse-spmm-alg1", "cusparse-spmm-alg2", "cusparse-spmm-alg3"})
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
}

// One test per SpMM kernel (its parameter sets inside), as GpuKernelsEach.
class GpuSpmmEach : public ::testing::TestWithParam<std::string> {};

// Every case of the kernel on the zoo in one precision (the two precisions
// are two tests, so that each fits compute-sanitizer's time).
template <class T>
void check_spmm_on_the_zoo(const std::string& kernel) {
  const std::vector<std::string> always_accepted = {"empty_0x0",     "zero_rows_0x7",
                                                    "zero_cols_5x0", "all_empty_rows_6x4",
                                                    "single_1x1",    "dense_block_64x64"};
  for (const test::KernelCase& c : test::cases_of(spmm_cases(), kernel))
    for (const auto& m : test::matrix_zoo()) {
      const bool ran = check_spmm<T>(m.matrix, m.name, c, column_counts);
      if (std::find(always_accepted.begin(), always_accepted.end(), m.name) !=
          always_accepted.end()) {
        EXPECT_TRUE(ran) << c.describe() << " refused " << m.name;
      }
    }
}

TEST_P(GpuSpmmEach, OnTheZooF64) {
  SPMV_GPU_TEST_PRELUDE();
  check_spmm_on_the_zoo<double>(GetParam());
}

TEST_P(GpuSpmmEach, OnTheZooF32) {
  SPMV_GPU_TEST_PRELUDE();
  check_spmm_on_the_zoo<float>(GetParam());
}

// Larger than the zoo: many blocks, several column passes per grid.
TEST_P(GpuSpmmEach, OnGeneratedMatrices) {
  SPMV_GPU_TEST_PRELUDE();
  for (const char* spec : {"stencil27:n=18", "uniform:rows=20000,cols=15000,per_row=9"}) {
    const Csr<double> a = generate(parse_generator_spec(spec));
    for (const test::KernelCase& c : test::cases_of(spmm_cases(), GetParam())) {
      // Variants may pad beyond the limit (T = 32 on 9 entries per row); the
      // defaults must run.
      const bool ran = check_spmm<double>(a, spec, c, {8, 33});
      check_spmm<float>(a, spec, c, {32});
      if (c.params.empty()) {
        EXPECT_TRUE(ran) << c.describe() << " refused " << spec;
      }
    }
  }
}

// Rows far longer than the mean (a few huge rows, as power-law graphs' hubs)
// go to spmm-csr-vec's long-rows kernel, a block each; the other rows stay
// with the lane groups. Every k, both layouts, alpha/beta, both precisions.
TEST(GpuSpmm, CsrVecGivesLongRowsABlockEach) {
  SPMV_GPU_TEST_PRELUDE();
  const char* spec = "fewhuge:rows=20000,cols=20000,per_row=4,huge_rows=3,huge_length=15000";
  const Csr<double> a = generate(parse_generator_spec(spec));
  for (const KernelParams& params : {KernelParams{}, KernelParams{{"entry_lanes", 32}}}) {
    const test::KernelCase c{Backend::cuda, "spmm-csr-vec", params};
    EXPECT_TRUE(check_spmm<double>(a, spec, c, column_counts));
    EXPECT_TRUE(check_spmm<float>(a, spec, c, {3, 8, 9, 33}));
  }
}

INSTANTIATE_TEST_SUITE_P(GpuSpmm, GpuSpmmEach, ::testing::ValuesIn(test::kernels_of(spmm_cases())),
                         test::test_name_of_kernel);
// A build without CUDA has no GPU kernels, hence no instances.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GpuSpmmEach);

#ifdef SPMV_HAVE_CUDA
// Operands already on the device are used in place; B and C one value past
// a 16-byte boundary take the kernels' scalar path.
TEST(GpuSpmm, DeviceOperandsAlignedAndNot) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = generate(parse_generator_spec("stencil27:n=10"));
  const index_t k = 8;
  const std::size_t nb = static_cast<std::size_t>(a.cols) * k,
                    nc = static_cast<std::size_t>(a.rows) * k;
  const auto b = test::random_vector<double>(nb, 41);
  const auto c0 = test::random_vector<double>(nc, 42);
  for (const char* kernel : {"spmm-csr-vec", "spmm-fastspmm", "spmm-setspmvs"})
    for (std::size_t offset : {0, 1})
      for (Layout layout : {Layout::row_major, Layout::col_major}) {
        SCOPED_TRACE(std::string(kernel) + " offset " + std::to_string(offset) + " " +
                     to_string(layout));
        detail::DeviceBuffer<double> device_b(nb + 1, "test B"), device_c(nc + 1, "test C");
        SPMV_CUDA_CHECK(cudaMemcpy(device_b.data() + offset, b.data(), nb * sizeof(double),
                                   cudaMemcpyHostToDevice));
        SPMV_CUDA_CHECK(cudaMemcpy(device_c.data() + offset, c0.data(), nc * sizeof(double),
                                   cudaMemcpyHostToDevice));
        auto op = plan_for(a, kernel);
        op->spmm(device_b.data() + offset, device_c.data() + offset, k, layout, 1.5, -0.5);
        EXPECT_EQ(op->last_transfer_seconds(), 0.0);
        std::vector<double> result(nc);
        SPMV_CUDA_CHECK(cudaMemcpy(result.data(), device_c.data() + offset, nc * sizeof(double),
                                   cudaMemcpyDeviceToHost));
        EXPECT_TRUE(test::matches_reference_spmm(a, b, c0, k, layout, 1.5, -0.5, result));
      }
}
#endif

TEST(GpuSpmm, NoColumnsAndNegativeColumns) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = test::matrix_zoo()[8].matrix;  // banded
  for (const test::KernelCase& c : spmm_cases()) {
    if (!c.params.empty()) continue;  // variants may refuse the banded matrix (padding)
    auto op = plan_for(a, c.kernel);
    std::vector<double> nothing;
    EXPECT_NO_THROW(op->spmm(nothing.data(), nothing.data(), 0, Layout::row_major, 1.0, 0.0))
        << c.kernel;
    EXPECT_THROW(op->spmm(nothing.data(), nothing.data(), -1, Layout::col_major, 1.0, 0.0),
                 InvalidArgument)
        << c.kernel;
  }
}

TEST(GpuSpmm, PlanNamesTheSpmmKernelAndKeepsTheDefaultSpmv) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = test::matrix_zoo()[8].matrix;  // banded
  const auto fast = plan_for(a, "spmm-fastspmm", {{"columns_per_pass", 8}, {"threads_per_row", 2}});
  const OperatorDescription d = fast->describe();
  EXPECT_EQ(d.kernel, "spmm-fastspmm");
  EXPECT_EQ(d.format, "ellpack-r");
  EXPECT_EQ(d.params.at("columns_per_pass"), 8);
  EXPECT_EQ(d.params.at("threads_per_row"), 2);
  // ELLPACK-R's row lengths and entries.
  EXPECT_EQ(d.matrix_bytes, a.rows * 4u + a.nnz() * 12u);
  EXPECT_GE(d.device_bytes, d.matrix_bytes);
  // apply() runs the default SpMV kernel of the operator.
  const auto x = test::random_vector<double>(a.cols, 51);
  std::vector<double> y(a.rows, std::numeric_limits<double>::quiet_NaN());
  fast->apply(x.data(), y.data(), 1.0, 0.0);
  EXPECT_TRUE(test::matches_reference_spmv(a, x, {}, 1.0, 0.0, y));

  const OperatorDescription vec = plan_for(a, "spmm-csr-vec", {{"entry_lanes", 4}})->describe();
  EXPECT_EQ(vec.format, "csr");
  EXPECT_EQ(vec.params.at("entry_lanes"), 4);
  EXPECT_EQ(vec.matrix_bytes, (a.rows + 1) * 4u + a.nnz() * 12u);
}

// The selector's plan for the SpMM of k columns of B in `layout`.
template <class T>
Plan spmm_plan_of(const Csr<T>& a, index_t k, Layout layout) {
  PlanOptions options;
  options.backend = Backend::cuda;
  options.spmm_columns = k;
  options.spmm_layout = layout;
  return make_plan(a, options);
}

// With no SpMM kernel named, the first spmm() of each k and layout plans
// that SpMM on the operator's CSR: it builds what make_plan with
// spmm_columns = k names (ELLPACK-R for ours beyond spmm-csr-vec, a copy of
// the CSR for cuSPARSE's, each once, counted in the description) and keeps
// it. Every width gives the reference's result; planned for the SpMV only, the
// operator stays on spmm-csr-vec.
TEST(GpuSpmm, TheFirstSpmmOfEachWidthPlansIt) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> regular = generate(parse_generator_spec("uniform:rows=20000,cols=20000,per_row=16"));
  Csr<double> irregular;  // the zoo's power-law matrix
  for (const auto& m : test::matrix_zoo())
    if (m.name == "power_law_4000") irregular = m.matrix;
  ASSERT_GT(irregular.nnz(), 0);
  for (const Csr<double>* a : std::vector<const Csr<double>*>{&regular, &irregular}) {
    PlanOptions options;
    options.backend = Backend::cuda;
    options.kernel = "csr-vector";
    const auto op = plan(*a, options);
    options.spmv_only = true;
    const auto spmv_only = plan(*a, options);
    std::set<std::string> built;
    for (index_t k : {2, 8, 9, 33})
      for (Layout layout : {Layout::row_major, Layout::col_major}) {
        SCOPED_TRACE("k=" + std::to_string(k) + " " + to_string(layout));
        const std::string expected = spmm_plan_of(*a, k, layout).options.kernel;
        const auto b = test::random_vector<double>(static_cast<std::size_t>(a->cols) * k, 71);
        const auto c0 = test::random_vector<double>(static_cast<std::size_t>(a->rows) * k, 72);
        for (int call = 0; call < 2; ++call) {
          const std::size_t before = op->describe().device_bytes;
          std::vector<double> c = c0;
          op->spmm(b.data(), c.data(), k, layout, 2.0, 0.5);
          EXPECT_TRUE(test::matches_reference_spmm(*a, b, c0, k, layout, 2.0, 0.5, c)) << expected;
          EXPECT_EQ(op->describe().planned_spmm.back().kernel, expected);
          const bool new_build = expected != "spmm-csr-vec" && built.insert(expected).second;
          if (new_build)
            EXPECT_GT(op->describe().device_bytes, before) << expected;
          else
            EXPECT_EQ(op->describe().device_bytes, before) << expected;
        }
        const std::size_t spmv_only_bytes = spmv_only->describe().device_bytes;
        std::vector<double> c = c0;
        spmv_only->spmm(b.data(), c.data(), k, layout, 2.0, 0.5);
        EXPECT_TRUE(test::matches_reference_spmm(*a, b, c0, k, layout, 2.0, 0.5, c));
        EXPECT_EQ(spmv_only->describe().device_bytes, spmv_only_bytes);
      }
  }
}

// The cusparse backend's CSR SpMV kernels plan their SpMM the same way, among
// cuSPARSE's algorithms: the first spmm() of each k and layout plans (its time
// counted in build_seconds) and takes the SpMM plan's best ranked cuSPARSE
// algorithm, a second one does not plan, and every width gives the
// reference's result. cusparse-coo keeps cuSPARSE's default and plans nothing.
TEST(GpuSpmm, CusparseSpmvKernelsPlanTheirSpmm) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<float> a = cast<float>(generate(parse_generator_spec("rmat:scale=13,edge_factor=12")));
  for (const char* kernel : {"cusparse-csr-alg1", "cusparse-csr-alg2", "cusparse-coo"}) {
    SCOPED_TRACE(kernel);
    PlanOptions options;
    options.backend = Backend::cusparse;
    options.kernel = kernel;
    const auto op = plan(a, options);
    for (index_t k : {3, 16})
      for (Layout layout : {Layout::row_major, Layout::col_major}) {
        SCOPED_TRACE("k=" + std::to_string(k) + " " + to_string(layout));
        const Plan spmm_plan = spmm_plan_of(a, k, layout);
        const auto best_cusparse = std::find_if(spmm_plan.candidates.begin(), spmm_plan.candidates.end(),
                                                [](const PlanCandidate& c) { return c.backend == Backend::cusparse; });
        ASSERT_NE(best_cusparse, spmm_plan.candidates.end());
        const auto b = test::random_vector<float>(static_cast<std::size_t>(a.cols) * k, 81);
        const auto c0 = test::random_vector<float>(static_cast<std::size_t>(a.rows) * k, 82);
        for (int call = 0; call < 2; ++call) {
          const double before = op->describe().build_seconds;
          std::vector<float> c = c0;
          op->spmm(b.data(), c.data(), k, layout, 2.0f, 0.5f);
          EXPECT_TRUE(test::matches_reference_spmm(a, b, c0, k, layout, 2.0f, 0.5f, c));
          const bool plans = call == 0 && std::string(kernel) != "cusparse-coo";
          if (plans)
            EXPECT_GT(op->describe().build_seconds, before);
          else
            EXPECT_EQ(op->describe().build_seconds, before);
        }
        const std::vector<OperatorDescription::PlannedSpmmKernel> planned = op->describe().planned_spmm;
        if (std::string(kernel) == "cusparse-coo") {
          EXPECT_TRUE(planned.empty());
        } else {
          ASSERT_FALSE(planned.empty());
          EXPECT_EQ(planned.back().k, k);
          EXPECT_EQ(planned.back().layout, layout);
          EXPECT_EQ(planned.back().kernel, best_cusparse->kernel);
        }
      }
  }
}

TEST(GpuSpmm, BadSpmmParametersAreRefused) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = test::matrix_zoo()[8].matrix;
  EXPECT_THROW(plan_for(a, "spmm-fastspmm", {{"columns_per_pass", 3}}), InvalidArgument);
  EXPECT_THROW(plan_for(a, "spmm-fastspmm", {{"threads_per_row", 6}}), InvalidArgument);
  EXPECT_THROW(plan_for(a, "spmm-csr-vec", {{"entry_lanes", 3}}), InvalidArgument);
  EXPECT_THROW(plan_for(a, "spmm-csr-vec", {{"threads_per_row", 4}}), InvalidArgument);
  EXPECT_THROW(plan_for(a, "spmm-setspmvs", {{"columns_per_pass", 4}}), InvalidArgument);
  EXPECT_THROW(plan_for(a, "cusparse-spmm-alg2", {{"block_size", 128}}), InvalidArgument);
}

// ---- Out-of-core SpMM ------------------------------------------------------

#ifdef SPMV_HAVE_CUDA

std::size_t csr_bytes_of(const Csr<double>& a) {
  return (static_cast<std::size_t>(a.rows) + 1) * 4 + static_cast<std::size_t>(a.nnz()) * 12;
}

// The out-of-core product against the reference and the in-core product.
void check_out_of_core(const Csr<double>& a, index_t k, Layout layout,
                       const OutOfCoreOptions& options, double beta, bool pinned,
                       index_t expected_chunk_columns) {
  SCOPED_TRACE(std::string("k=") + std::to_string(k) + " " + to_string(layout) +
               " beta=" + std::to_string(beta) + (pinned ? " pinned" : " pageable") +
               " kernel=" + (options.kernel.empty() ? "default" : options.kernel));
  const std::size_t nb = static_cast<std::size_t>(a.cols) * k,
                    nc = static_cast<std::size_t>(a.rows) * k;
  const auto b = test::random_vector<double>(nb, 61);
  const auto c0 = initial_c<double>(nc, beta, 62);
  const double alpha = 0.5;

  std::vector<double> in_core = c0;
  plan_for(a, options.kernel.empty() ? "spmm-csr-vec" : options.kernel, options.params)
      ->spmm(b.data(), in_core.data(), k, layout, alpha, beta);

  OutOfCoreSpmm<double> spmm(a, k, layout, options);
  EXPECT_EQ(spmm.chunk_columns(), expected_chunk_columns);
  EXPECT_EQ(spmm.chunks(), (k + expected_chunk_columns - 1) / expected_chunk_columns);
  PinnedArray<double> pinned_b = make_pinned<double>(nb), pinned_c = make_pinned<double>(nc);
  for (ChunkSchedule schedule : {ChunkSchedule::sequential, ChunkSchedule::overlapped}) {
    SCOPED_TRACE(to_string(schedule));
    std::vector<double> b_copy = b, c = c0;
    double* b_used = b_copy.data();
    double* c_used = c.data();
    if (pinned) {
      std::copy(b.begin(), b.end(), pinned_b.get());
      std::copy(c0.begin(), c0.end(), pinned_c.get());
      b_used = pinned_b.get();
      c_used = pinned_c.get();
    }
    const OutOfCoreTimes times = spmm.multiply(b_used, c_used, alpha, beta, schedule);
    const std::vector<double> result(c_used, c_used + nc);
    EXPECT_TRUE(test::matches_reference_spmm(a, b, beta == 0 ? std::vector<double>{} : c0, k,
                                             layout, alpha, beta, result));
    // The same kernel on chunks of columns: the in-core product's values.
    EXPECT_TRUE(test::matches_reference_spmm(a, b, beta == 0 ? std::vector<double>{} : c0, k,
                                             layout, alpha, beta, in_core));
    double largest_difference = 0;
    for (std::size_t i = 0; i < nc; ++i)
      largest_difference = std::max(largest_difference, std::abs(result[i] - in_core[i]));
    EXPECT_LE(largest_difference, 1e-12) << "out-of-core differs from in-core";
    EXPECT_EQ(times.chunks, spmm.chunks());
    EXPECT_GT(times.total_seconds, 0.0);
    EXPECT_GT(times.processing_seconds, 0.0);
    EXPECT_GT(times.copy_in_seconds, 0.0);
    EXPECT_GT(times.copy_out_seconds, 0.0);
    EXPECT_EQ(times.staging_seconds > 0, !pinned);
  }
}

TEST(GpuOutOfCore, ACapForcesChunksAndTheResultMatchesInCore) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = generate(parse_generator_spec("stencil27:n=12"));
  const index_t k = 37;
  // A's CSR plus six columns of B and C for each of two streams.
  OutOfCoreOptions options;
  options.device_memory_cap = csr_bytes_of(a) + 2 * 6 * (a.rows + a.cols) * sizeof(double);
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (double beta : {0.0, -1.5})
      for (bool pinned : {true, false}) check_out_of_core(a, k, layout, options, beta, pinned, 6);
}

TEST(GpuOutOfCore, EverySpmmKernelInChunks) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = generate(parse_generator_spec("uniform:rows=3000,cols=2500,per_row=7"));
  for (const KernelInfo& info : kernel_catalogue()) {
    if (!info.spmm_only || info.backend != Backend::cuda) continue;
    OutOfCoreOptions options;
    options.kernel = info.name;
    options.chunk_columns = 4;
    options.streams = 3;
    for (Layout layout : {Layout::row_major, Layout::col_major})
      check_out_of_core(a, 10, layout, options, 0.25, true, 4);
  }
}

TEST(GpuOutOfCore, WithoutACapOneChunkHoldsEverything) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = test::matrix_zoo()[8].matrix;  // banded
  check_out_of_core(a, 5, Layout::row_major, {}, 0.0, false, 5);
}

TEST(GpuOutOfCore, BadOptionsAreRefused) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = generate(parse_generator_spec("stencil27:n=12"));
  OutOfCoreOptions options;
  options.device_memory_cap = csr_bytes_of(a);  // no room for a single column
  try {
    OutOfCoreSpmm<double> spmm(a, 4, Layout::col_major, options);
    FAIL() << "a cap holding only A was accepted";
  } catch (const OutOfMemory& e) {
    EXPECT_NE(std::string(e.what()).find("device-memory cap"), std::string::npos) << e.what();
  }
  options = {};
  options.chunk_columns = 3;
  options.device_memory_cap = csr_bytes_of(a) + 2 * 2 * (a.rows + a.cols) * sizeof(double);
  EXPECT_THROW(OutOfCoreSpmm<double>(a, 8, Layout::row_major, options), OutOfMemory);
  options = {};
  options.streams = 1;
  EXPECT_THROW(OutOfCoreSpmm<double>(a, 8, Layout::row_major, options), InvalidArgument);
  options = {};
  options.kernel = "csr-vector";  // an SpMV kernel
  EXPECT_THROW(OutOfCoreSpmm<double>(a, 8, Layout::row_major, options), InvalidArgument);
  options = {};
  options.params = {{"no_such_param", 1}};
  EXPECT_THROW(OutOfCoreSpmm<double>(a, 8, Layout::row_major, options), InvalidArgument);
  EXPECT_THROW(OutOfCoreSpmm<double>(a, -1, Layout::row_major, {}), InvalidArgument);
}

TEST(GpuOutOfCore, NoColumnsIsNoWork) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = test::matrix_zoo()[8].matrix;
  OutOfCoreSpmm<double> spmm(a, 0, Layout::col_major, {});
  EXPECT_EQ(spmm.chunks(), 0);
  std::vector<double> nothing;
  const OutOfCoreTimes times =
      spmm.multiply(nothing.data(), nothing.data(), 1.0, 0.0, ChunkSchedule::overlapped);
  EXPECT_EQ(times.chunks, 0);
}

#endif  // SPMV_HAVE_CUDA

}  // namespace
}  // namespace spmv
