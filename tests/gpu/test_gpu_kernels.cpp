// Every GPU kernel (cuda and cusparse backends) x float/double against the
// reference on the matrix zoo and the real matrices: SpMV with several
// alpha/beta, transposed (scatter and explicit A^T), SpMM in both layouts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/kernel_params.hpp"
#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/io.hpp"
#include "spmv/operator.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

// Parameter sets each kernel is tested with; kernels not named here are
// tested with their defaults.
const test::KernelVariants& kernel_variants() {
  static const test::KernelVariants variants = {
      {"csr-vector",
       {{{"threads_per_row", 2}}, {{"threads_per_row", 4}}, {{"threads_per_row", 8}},
        {{"threads_per_row", 16}}, {{"threads_per_row", 32}, {"block_size", 128}}}},
      {"csr-aligned", {{{"threads_per_row", 2}}, {{"threads_per_row", 8}}, {{"threads_per_row", 32}}}},
      {"csr-vector-tuned",
       {{{"threads_per_row", 1}, {"vector_width", 4}},
        {{"threads_per_row", 2}, {"vector_width", 2}, {"cached_x", 0}},
        {{"threads_per_row", 8}, {"rows_per_subwarp", 4}, {"cyclic_rows", 1}},
        {{"threads_per_row", 16}, {"rows_per_subwarp", 8}, {"block_size", 1024}},
        {{"threads_per_row", 32}, {"vector_width", 1}, {"rows_per_subwarp", 2}, {"block_size", 64}},
        // Blocks sweeping row ranges: the last block's range runs past the last row.
        {{"threads_per_row", 4}, {"vector_width", 2}, {"cyclic_rows", 2}, {"rows_per_subwarp", 8}},
        {{"threads_per_row", 32}, {"cyclic_rows", 2}, {"rows_per_subwarp", 32}, {"block_size", 128}}}},
      // block_size 64: tiles of 256 products, so long rows span many tiles.
      {"csr-pcsr", {{{"block_size", 64}}, {{"block_size", 512}}}},
      {"csr-merge",
       {{{"items_per_thread", 4}}, {{"items_per_thread", 8}}, {{"items_per_thread", 12}},
        {{"items_per_thread", 16}}}},
      // Defaults: 128 threads x 8 entries in f32 (x 4 in f64; on the zoo's small matrices x 2),
      // loads of 4 entries (2 with 2 items) from the multiple of 4 below a block's first; 16-bit
      // column offsets where a block's columns span fewer than 2^16, else 32-bit columns; rows
      // longer than 4 blocks cut into chunks.
      {"csr-adaptive",
       {{},
        {{"vector_width", 4}},
        {{"items_per_thread", 2}, {"vector_width", 1}},
        {{"items_per_thread", 4}, {"vector_width", 1}},
        {{"items_per_thread", 12}, {"vector_width", 2}},
        {{"block_size", 256}, {"items_per_thread", 8}},
        {{"column_bits", 32}},
        {{"block_size", 256}, {"items_per_thread", 12}, {"vector_width", 1}, {"column_bits", 32}}}},
      // Hubs: every column with an entry (as many as 1 KiB holds, so pieces mix
      // hub and plain columns), none, and the defaults (few zoo columns qualify).
      {"csr-hub",
       {{},
        {{"hub_min_entries", 1}, {"hub_kib", 1}},
        {{"hub_min_entries", 1}, {"block_size", 256}, {"items_per_thread", 8}},
        // Matrices whose hubs hold under half the entries go to csr-adaptive.
        {{"hub_min_share", 50}},
        {{"hub_kib", 0}, {"block_size", 512}}}},
      // Format kernels (issue 4). Formats may refuse a matrix they would pad
      // beyond their limit (see check_products).
      {"coo", {{{"block_size", 64}}, {}}},
      // Intervals of one and two warp steps: most end mid-row, long rows span many.
      {"bro-coo",
       {{}, {{"interval", 32}}, {{"interval", 64}, {"block_size", 64}},
        {{"interval", 96}, {"block_size", 1024}}}},
      {"ellr-t",
       {{},  // T and BS from the configuration model
        {{"threads_per_row", 1}}, {{"threads_per_row", 2}, {"block_size", 64}}, {{"threads_per_row", 4}},
        {{"threads_per_row", 8}, {"block_size", 1024}}, {{"threads_per_row", 16}},
        {{"threads_per_row", 32}, {"block_size", 32}}}},
      {"hyb", {{}, {{"ell_width", 0}}, {{"ell_width", 3}}, {{"ell_width", 16}, {"max_padding", 100}}}},
      // Small intervals: BRO-COO parts cut mid-row; T > 1 and small slices for the BRO-ELL part.
      {"bro-hyb",
       {{},
        {{"ell_width", 0}, {"interval", 32}},
        {{"ell_width", 3}, {"interval", 64}, {"block_size", 64}},
        {{"ell_width", 16}, {"max_padding", 100}, {"slice_height", 64}, {"threads_per_row", 4}, {"interval", 96}}}},
      {"sell",
       {{}, {{"chunk_rows", 8}, {"sigma", 1}}, {{"chunk_rows", 32}, {"sigma", 32}, {"block_size", 64}},
        {{"chunk_rows", 128}, {"sigma", 1024}}}},
      {"blocked",
       {{}, {{"block_rows", 1}, {"block_cols", 16}}, {{"block_rows", 2}, {"block_cols", 128}},
        {{"block_rows", 8}, {"block_cols", 1024}}}},
      // Every T with and without value codes, every slice height with both.
      {"bro-ell",
       {{},
        {{"threads_per_row", 1}, {"value_codes", 0}},
        {{"threads_per_row", 1}, {"value_codes", 1}, {"slice_height", 32}},
        {{"threads_per_row", 2}, {"value_codes", 0}, {"slice_height", 64}},
        {{"threads_per_row", 2}, {"value_codes", 1}, {"slice_height", 1024}},
        {{"threads_per_row", 4}, {"value_codes", 0}, {"slice_height", 128}},
        {{"threads_per_row", 4}, {"value_codes", 1}},
        {{"threads_per_row", 8}, {"value_codes", 0}, {"slice_height", 512}},
        {{"threads_per_row", 8}, {"value_codes", 1}, {"slice_height", 32}},
        {{"threads_per_row", 16}, {"value_codes", 0}, {"slice_height", 1024}},
        {{"threads_per_row", 16}, {"value_codes", 1}, {"slice_height", 64}},
        {{"threads_per_row", 32}, {"value_codes", 0}, {"slice_height", 32}},
        {{"threads_per_row", 32}, {"value_codes", 1}, {"slice_height", 256}, {"max_padding", 100}}}},
  };
  return variants;
}

std::vector<test::KernelCase> gpu_kernel_cases() {
  return test::kernel_cases(
      [](const KernelInfo& info) { return info.backend == Backend::cuda || info.backend == Backend::cusparse; },
      kernel_variants(), false);
}

// Returns false when the kernel's format refused the matrix (FormatLimitError:
// padding beyond its limit), which is allowed if the refusal says what to use.
template <class T>
bool check_products(const Csr<double>& matrix, const std::string& name, const test::KernelCase& c) {
  const Csr<T> a = cast<T>(matrix);
  SCOPED_TRACE(name + " / " + c.describe() + (sizeof(T) == 4 ? " / f32" : " / f64"));
  const std::unique_ptr<Operator<T>> op = test::plan_case(a, c);
  if (!op) return false;
  const auto x = test::random_vector<T>(a.cols, 11);
  const auto y0 = test::random_vector<T>(a.rows, 12);
  const T nan = std::numeric_limits<T>::quiet_NaN();

  std::vector<T> y(a.rows, nan);  // beta == 0 must not read y
  op->apply(x.data(), y.data(), T(1), T(0));
  EXPECT_TRUE(test::matches_reference_spmv(a, x, {}, T(1), T(0), y));

  y = y0;
  op->apply(x.data(), y.data(), T(-0.5), T(2));
  EXPECT_TRUE(test::matches_reference_spmv(a, x, y0, T(-0.5), T(2), y));

  const auto xt = test::random_vector<T>(a.rows, 13);
  std::vector<T> yt(a.cols, nan);
  op->apply_transposed(xt.data(), yt.data(), T(1.5), T(0));
  EXPECT_TRUE(test::matches_reference_spmv_transposed(a, xt, {}, T(1.5), T(0), yt));
  return true;
}

// SpMM by the kernel's operator, a few widths in both layouts (a refusal as
// for check_products).
template <class T>
void check_spmm(const Csr<double>& matrix, const std::string& name, const test::KernelCase& c) {
  const Csr<T> a = cast<T>(matrix);
  SCOPED_TRACE(name + " / " + c.describe() + (sizeof(T) == 4 ? " / f32" : " / f64"));
  const std::unique_ptr<Operator<T>> op = test::plan_case(a, c);
  if (!op) return;
  for (index_t k : {1, 3, 33}) {
    for (Layout layout : {Layout::row_major, Layout::col_major}) {
      const auto b = test::random_vector<T>(static_cast<std::size_t>(a.cols) * k, 14);
      const auto c0 = test::random_vector<T>(static_cast<std::size_t>(a.rows) * k, 15);
      std::vector<T> cm = c0;
      op->spmm(b.data(), cm.data(), k, layout, T(0.75), T(-1));
      EXPECT_TRUE(test::matches_reference_spmm(a, b, c0, k, layout, T(0.75), T(-1), cm))
          << "k=" << k << " " << to_string(layout);
    }
  }
}

// One test per kernel (its parameter sets inside), its products and its SpMM
// apart: each runs on its own, so that a kernel's cases fit compute-sanitizer's
// time apart from the others'.
class GpuKernelsEach : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuKernelsEach, OnTheZoo) {
  SPMV_GPU_TEST_PRELUDE();
  const auto zoo = test::matrix_zoo();
  // Matrices no kernel may refuse: tiny ones (under every format's limit
  // floor) and a dense block (no padding anywhere).
  const std::vector<std::string> always_accepted = {"empty_0x0", "zero_rows_0x7", "zero_cols_5x0",
                                                    "all_empty_rows_6x4", "single_1x1", "dense_block_64x64"};
  for (const auto& c : test::cases_of(gpu_kernel_cases(), GetParam()))
    for (const auto& m : zoo) {
      const bool ran = check_products<double>(m.matrix, m.name, c);
      check_products<float>(m.matrix, m.name, c);
      if (std::find(always_accepted.begin(), always_accepted.end(), m.name) != always_accepted.end()) {
        EXPECT_TRUE(ran) << c.describe() << " refused " << m.name;
      }
    }
}

TEST_P(GpuKernelsEach, SpmmOnTheZoo) {
  SPMV_GPU_TEST_PRELUDE();
  for (const auto& c : test::cases_of(gpu_kernel_cases(), GetParam()))
    for (const auto& m : test::matrix_zoo()) {
      check_spmm<double>(m.matrix, m.name, c);
      check_spmm<float>(m.matrix, m.name, c);
    }
}

// The real matrices, read once per process for every kernel's test.
const std::vector<std::pair<std::string, Csr<double>>>& real_matrices() {
  static const auto matrices = [] {
    std::vector<std::pair<std::string, Csr<double>>> read;
    for (const auto& file : test::real_matrix_files()) read.emplace_back(file, read_matrix<double>(file));
    return read;
  }();
  return matrices;
}

TEST_P(GpuKernelsEach, OnTheRealMatrices) {
  SPMV_GPU_TEST_PRELUDE();
  if (real_matrices().empty()) {
    GTEST_SKIP() << "no real matrices under " << test::shared_data_dir();
  }
  for (const auto& [file, a] : real_matrices())
    for (const auto& c : test::cases_of(gpu_kernel_cases(), GetParam())) {
      check_products<double>(a, file, c);
      check_products<float>(a, file, c);
    }
}

// Two adjacent rows holding most of the entries, among short and empty rows
// (circuit and power-law matrices): the load-balanced kernels cut them into
// many pieces, more than the zoo's rows need.
Csr<double> enormous_rows_matrix() {
  const index_t rows = 20000;
  const index_t cols = 300000;
  std::vector<index_t> row_ptr{0};
  std::vector<index_t> col_idx;
  for (index_t r = 0; r < rows; ++r) {
    const index_t length = r == 7777 ? 250000 : r == 7778 ? 120000 : r % 4;
    for (index_t j = 0; j < length; ++j) col_idx.push_back(length > 3 ? j : r + j * 50000);
    row_ptr.push_back(static_cast<index_t>(col_idx.size()));
  }
  return csr_from_arrays(rows, cols, row_ptr, col_idx,
                         test::random_vector<double>(col_idx.size(), 31));
}

TEST_P(GpuKernelsEach, OnEnormousRows) {
  SPMV_GPU_TEST_PRELUDE();
  static const Csr<double> a = enormous_rows_matrix();
  for (const auto& c : test::cases_of(gpu_kernel_cases(), GetParam())) {
    check_products<double>(a, "enormous_rows", c);
    check_products<float>(a, "enormous_rows", c);
  }
}

INSTANTIATE_TEST_SUITE_P(GpuKernels, GpuKernelsEach, ::testing::ValuesIn(test::kernels_of(gpu_kernel_cases())),
                         test::test_name_of_kernel);
// A build without CUDA has no GPU kernels, hence no instances.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GpuKernelsEach);


TEST(GpuKernels, ExplicitTransposeMatchesReference) {
  SPMV_GPU_TEST_PRELUDE();
  for (const auto& m : test::matrix_zoo()) {
    const Csr<double>& a = m.matrix;
    PlanOptions options;
    options.backend = Backend::cuda;
    options.explicit_transpose = true;
    auto op = plan(a, options);
    const auto x = test::random_vector<double>(a.rows, 21);
    const auto y0 = test::random_vector<double>(a.cols, 22);
    std::vector<double> y = y0;
    op->apply_transposed(x.data(), y.data(), 2.0, 0.5);
    EXPECT_TRUE(test::matches_reference_spmv_transposed(a, x, y0, 2.0, 0.5, y)) << m.name;
  }
}

// csr-hub's shared memory limit is an attribute of its kernel, shared by
// every operator: an operator planned later with fewer hubs must not stop
// an earlier one with more from launching.
TEST(GpuKernels, CsrHubOperatorsWithDifferentHubSetsCoexist) {
  SPMV_GPU_TEST_PRELUDE();
  const auto zoo = test::matrix_zoo();
  const auto found = std::find_if(zoo.begin(), zoo.end(), [](const auto& m) { return m.name == "power_law_4000"; });
  ASSERT_NE(found, zoo.end());
  const Csr<double>& a = found->matrix;
  PlanOptions options;
  options.backend = Backend::cuda;
  options.kernel = "csr-hub";
  options.params = {{"hub_min_entries", 1}, {"hub_kib", 64}};  // every column with two entries or more
  const auto many_hubs = plan(a, options);
  options.params = {{"hub_min_entries", 1}, {"hub_kib", 1}};
  const auto few_hubs = plan(a, options);
  const auto x = test::random_vector<double>(a.cols, 31);
  for (Operator<double>* op : {many_hubs.get(), few_hubs.get(), many_hubs.get()}) {
    std::vector<double> y(static_cast<std::size_t>(a.rows));
    op->apply(x.data(), y.data());
    EXPECT_TRUE(test::matches_reference_spmv(a, x, std::vector<double>{}, 1.0, 0.0, y));
  }
}

// csr-adaptive's 16-bit column offsets at their edge: rows longer than a row
// block (128 x 4 entries) each stand alone as a block, whose columns span
// 65535 (offsets fit), 65536 (the block reads 32-bit columns) or, from a
// base far from 0, 65535 again. A wrong edge wraps an offset to the wrong
// column. Rows of 601 entries start at every residue of the vector widths.
TEST(GpuKernels, CsrAdaptiveColumnOffsetsAtTheirEdge) {
  SPMV_GPU_TEST_PRELUDE();
  const index_t widest = 0xffff;
  const std::vector<std::pair<index_t, index_t>> row_first_and_span = {
      {0, widest}, {0, widest + 1}, {70000, widest}, {5, widest - 1}, {200000, widest + 1}};
  std::vector<index_t> row_ptr{0}, col_idx;
  for (const auto& [first, span] : row_first_and_span) {
    for (index_t j = 0; j < 600; ++j) col_idx.push_back(first + j);
    col_idx.push_back(first + span);
    row_ptr.push_back(static_cast<index_t>(col_idx.size()));
  }
  const Csr<double> a =
      csr_from_arrays(static_cast<index_t>(row_first_and_span.size()), 300000, row_ptr, col_idx,
                      test::random_vector<double>(col_idx.size(), 41));
  for (const int bits : {16, 32})
    for (const int width : {1, 2, 4}) {
      const test::KernelCase c{
          Backend::cuda,
          "csr-adaptive",
          {{"block_size", 128}, {"items_per_thread", 4}, {"column_bits", bits}, {"vector_width", width}}};
      EXPECT_TRUE(check_products<double>(a, "offset_edge", c));
      EXPECT_TRUE(check_products<float>(a, "offset_edge", c));
    }
}

// csr-adaptive's row blocks mixing hub rows with short ones: rows of 1-3
// entries, and every 41st row a hub of 33 to 1,000 entries (two of them
// adjacent at times), so that most blocks hold rows longer than 4 times their
// mean and than a warp, which the CSR-stream sums leave to warps; the longest
// hubs stand alone or are cut at the smaller shapes.
TEST(GpuKernels, CsrAdaptiveSumsHubRowsAmongShortOnes) {
  SPMV_GPU_TEST_PRELUDE();
  const std::vector<index_t> hub_lengths = {33, 64, 100, 250, 500, 1000, 40};
  std::vector<index_t> row_ptr{0}, col_idx;
  const index_t rows = 6000, cols = 7000;
  for (index_t r = 0; r < rows; ++r) {
    const bool hub = r % 41 == 0 || (r % 41 == 1 && r % 3 == 0);
    const index_t length = hub ? hub_lengths[static_cast<std::size_t>(r / 41) % hub_lengths.size()] : 1 + r % 3;
    for (index_t j = 0; j < length; ++j) col_idx.push_back((r * 13 + j * 7) % cols);
    std::sort(col_idx.end() - length, col_idx.end());
    row_ptr.push_back(static_cast<index_t>(col_idx.size()));
  }
  const Csr<double> a =
      csr_from_arrays(rows, cols, row_ptr, col_idx, test::random_vector<double>(col_idx.size(), 47));
  for (const auto& params : std::vector<KernelParams>{{},
                                                      {{"items_per_thread", 2}, {"vector_width", 1}},
                                                      {{"items_per_thread", 8}},
                                                      {{"block_size", 256}, {"items_per_thread", 12}}}) {
    const test::KernelCase c{Backend::cuda, "csr-adaptive", params};
    EXPECT_TRUE(check_products<double>(a, "hub_rows", c));
    EXPECT_TRUE(check_products<float>(a, "hub_rows", c));
  }
}

// csr-adaptive's cut rows: on a matrix whose row blocks fit the GPU at once
// (rows longer than one round of a block are cut, and the chunk that
// finishes last completes the row) and on one of many waves (longer than
// four rounds, completed by the fix-up), rows of 1 to 40,000 entries among
// rows of 2-9, at the default shape and at smaller ones. check_products runs
// two products, so the arrival counts must come back to zero after each.
TEST(GpuKernels, CsrAdaptiveCompletesCutRows) {
  SPMV_GPU_TEST_PRELUDE();
  const std::vector<index_t> long_lengths = {257, 300, 1100, 5000, 513, 40000, 2047, 4100, 1};
  for (const index_t rows : {3000, 700000}) {
    std::vector<index_t> row_ptr{0}, col_idx;
    const index_t cols = 50000;
    for (index_t r = 0; r < rows; ++r) {
      const bool long_row = r % 211 == 0 && r / 211 < static_cast<index_t>(2 * long_lengths.size());
      const index_t length = long_row ? long_lengths[static_cast<std::size_t>(r / 211) % long_lengths.size()]
                                      : 2 + r % 8;
      const index_t step = long_row && length > cols / 2 ? 1 : 7;
      for (index_t j = 0; j < length; ++j) col_idx.push_back((r * 13 + j * step) % cols);
      std::sort(col_idx.end() - length, col_idx.end());
      col_idx.erase(std::unique(col_idx.end() - length, col_idx.end()), col_idx.end());
      row_ptr.push_back(static_cast<index_t>(col_idx.size()));
    }
    const Csr<double> a =
        csr_from_arrays(rows, cols, row_ptr, col_idx, test::random_vector<double>(col_idx.size(), 59));
    for (const auto& params : std::vector<KernelParams>{{}, {{"items_per_thread", 2}, {"vector_width", 2}}}) {
      const test::KernelCase c{Backend::cuda, "csr-adaptive", params};
      EXPECT_TRUE(check_products<double>(a, "cut_rows_" + std::to_string(rows), c));
      EXPECT_TRUE(check_products<float>(a, "cut_rows_" + std::to_string(rows), c));
    }
  }
}

// A matrix whose every row is longer than a row block and spread thinly over
// x runs csr-adaptive without CSR-stream's staging: in one wave (500 rows, cut
// rows completed in the product) and in several (3,000 rows, the fix-up), at
// both precisions' row-block sizes; a dense one keeps the staged launch.
TEST(GpuKernels, CsrAdaptiveWithoutStagingOnLongSparseRows) {
  SPMV_GPU_TEST_PRELUDE();
  for (const index_t rows : {500, 3000}) {
    std::vector<index_t> row_ptr{0}, col_idx;
    const index_t cols = 100000;
    for (index_t r = 0; r < rows; ++r) {
      const index_t length = 1100 + r % 7 * 600;  // above the 1,021 (f32) and 509 (f64) entries of a row block
      for (index_t j = 0; j < length; ++j) col_idx.push_back((r * 31 + j * 83) % cols);
      std::sort(col_idx.end() - length, col_idx.end());
      col_idx.erase(std::unique(col_idx.end() - length, col_idx.end()), col_idx.end());
      row_ptr.push_back(static_cast<index_t>(col_idx.size()));
    }
    const Csr<double> a =
        csr_from_arrays(rows, cols, row_ptr, col_idx, test::random_vector<double>(col_idx.size(), 61));
    for (const auto& params : std::vector<KernelParams>{{}, {{"column_bits", 32}}}) {
      const test::KernelCase c{Backend::cuda, "csr-adaptive", params};
      EXPECT_TRUE(check_products<double>(a, "long_sparse_rows_" + std::to_string(rows), c));
      EXPECT_TRUE(check_products<float>(a, "long_sparse_rows_" + std::to_string(rows), c));
    }
  }
  const Csr<double> dense = generate(parse_generator_spec("dense:rows=300,cols=1500"));
  const test::KernelCase c{Backend::cuda, "csr-adaptive", {}};
  EXPECT_TRUE(check_products<double>(dense, "dense_long_rows", c));
  EXPECT_TRUE(check_products<float>(dense, "dense_long_rows", c));
}

// csr-adaptive's default items per thread follow the matrix's size against
// the device's SM count: halved on a matrix of a few row blocks per SM, the
// precision's default on one of many; vector_width follows unless named,
// and must divide the items.
TEST(GpuKernels, CsrAdaptiveSizesItsRowBlocksToTheMatrix) {
  SPMV_GPU_TEST_PRELUDE();
  PlanOptions options;
  options.backend = Backend::cuda;
  options.kernel = "csr-adaptive";
  const Csr<double> small = test::matrix_zoo()[8].matrix;  // banded, 2,000 rows of 7 entries
  const auto small_params = plan(small, options)->describe().params;
  EXPECT_EQ(small_params.at("items_per_thread"), 2);
  EXPECT_EQ(small_params.at("vector_width"), 2);
  const Csr<float> large =
      cast<float>(generate(parse_generator_spec("uniform:rows=2000000,cols=2000000,per_row=16")));
  const auto large_params = plan(large, options)->describe().params;
  EXPECT_EQ(large_params.at("items_per_thread"), 8);
  EXPECT_EQ(large_params.at("vector_width"), 4);
  options.params = {{"vector_width", 4}};
  EXPECT_EQ(plan(small, options)->describe().params.at("items_per_thread"), 4);
  options.params = {{"items_per_thread", 2}, {"vector_width", 4}};
  EXPECT_THROW(plan(small, options), InvalidArgument);
}

// With 16-bit columns csr-adaptive keeps offsets only where some row block's
// columns fit them: none on a matrix whose every block spans more than 2^16
// columns, 2 bytes per entry on a banded one.
TEST(GpuKernels, CsrAdaptiveKeepsOffsetsOnlyWhereABlockFits) {
  SPMV_GPU_TEST_PRELUDE();
  const auto device_bytes = [](const Csr<double>& a, int column_bits) {
    PlanOptions options;
    options.backend = Backend::cuda;
    options.kernel = "csr-adaptive";
    options.params = {{"column_bits", column_bits}};
    return plan(a, options)->describe().device_bytes;
  };
  // Each row's two entries are 100000 columns apart.
  std::vector<index_t> row_ptr{0}, col_idx;
  for (index_t r = 0; r < 20000; ++r) {
    col_idx.push_back(r);
    col_idx.push_back(r + 100000);
    row_ptr.push_back(static_cast<index_t>(col_idx.size()));
  }
  const Csr<double> scattered =
      csr_from_arrays(20000, 120000, row_ptr, col_idx, test::random_vector<double>(col_idx.size(), 43));
  EXPECT_EQ(device_bytes(scattered, 16), device_bytes(scattered, 32));
  const Csr<double> banded = generate(parse_generator_spec("stencil5:n=200"));
  EXPECT_GE(device_bytes(banded, 16), device_bytes(banded, 32) + 2 * banded.nnz());
}

TEST(GpuKernels, DescribeReportsTheKernelAndItsBytes) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = test::matrix_zoo()[8].matrix;  // banded
  PlanOptions options;
  options.backend = Backend::cuda;
  options.kernel = "csr-vector";
  options.params = {{"threads_per_row", 8}};
  const auto d = plan(a, options)->describe();
  EXPECT_EQ(d.kernel, "csr-vector");
  EXPECT_EQ(d.format, "csr");
  EXPECT_EQ(d.params.at("threads_per_row"), 8);
  EXPECT_EQ(d.matrix_bytes, (a.rows + 1) * 4u + a.nnz() * 12u);
  EXPECT_GE(d.device_bytes, d.matrix_bytes);

  // Kernel workspace counts too: PCSR keeps a middle array of nnz values.
  options.kernel = "csr-pcsr";
  options.params = {};
  const auto pcsr = plan(a, options)->describe();
  EXPECT_GE(pcsr.device_bytes, pcsr.matrix_bytes + a.nnz() * sizeof(double));
}

// Every GPU kernel reports only parameters its catalogue row lists, with
// values the row allows (defaults filled in and forced ones alike); a kernel
// that handed the matrix to another (csr-hub below hub_min_share) reports
// that one's.
TEST(GpuKernels, DescribedParametersAreAllowedByTheKernelsSpecs) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = test::matrix_zoo()[8].matrix;  // banded
  std::map<std::string, std::vector<KernelParamSpec>> specs;
  for (const KernelInfo& info : kernel_catalogue()) specs[info.name] = info.params;
  for (const auto& c : gpu_kernel_cases()) {
    SCOPED_TRACE(c.describe());
    const auto op = test::plan_case(a, c);
    if (!op) continue;
    const OperatorDescription d = op->describe();
    EXPECT_NO_THROW(detail::check_kernel_params(d.kernel, d.params, specs.at(d.kernel)));
  }
}

TEST(GpuKernels, BadKernelNamesAndParametersAreRefused) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = test::matrix_zoo()[8].matrix;
  PlanOptions options;
  options.backend = Backend::cuda;
  options.kernel = "no-such-kernel";
  EXPECT_THROW(plan(a, options), InvalidArgument);
  options.kernel = "csr-vector";
  options.params = {{"threads_per_row", 3}};
  EXPECT_THROW(plan(a, options), InvalidArgument);
  // Each kernel has its own values: ellr-t takes block_size 32, csr-vector does not.
  options.params = {{"block_size", 32}};
  try {
    plan(a, options);
    ADD_FAILURE() << "csr-vector accepted block_size=32";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("block_size=32 is not allowed (one of 64, 128, 256, 512, 1024)"),
              std::string::npos)
        << e.what();
  }
  options.kernel = "ellr-t";
  EXPECT_EQ(plan(a, options)->describe().params.at("block_size"), 32);
  options.kernel = "csr-vector";
  options.params = {{"no_such_param", 1}};
  EXPECT_THROW(plan(a, options), InvalidArgument);
  options.backend = Backend::cusparse;
  options.kernel = "csr-vector";
  options.params = {};
  EXPECT_THROW(plan(a, options), InvalidArgument);
}

}  // namespace
}  // namespace spmv
