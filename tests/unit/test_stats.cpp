// MatrixStats: every field on hand-computed matrices, the HYB split rule, and
// brute-force cross-checks on the matrix zoo and on generated matrices.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <tuple>

#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/stats.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

using test::from_triplets;

TEST(Stats, EveryFieldOnAHandComputedMatrix) {
  // [ 1 2 . . . ]
  // [ . . . . . ]
  // [ 3 . 1 2 5 ]
  // [ . . . . 1 ]
  const Csr<double> a = from_triplets(
      4, 5, {{0, 0, 1}, {0, 1, 2}, {2, 0, 3}, {2, 2, 1}, {2, 3, 2}, {2, 4, 5}, {3, 4, 1}});
  StatsOptions options;
  options.block_sizes = {{2, 2}, {3, 3}, {1, 5}};
  const MatrixStats s = analyse(a, options);
  EXPECT_EQ(s.rows, 4);
  EXPECT_EQ(s.cols, 5);
  EXPECT_EQ(s.nnz, 7);
  // Row lengths 2, 0, 4, 1.
  EXPECT_EQ(s.row_length.min, 0);
  EXPECT_EQ(s.row_length.max, 4);
  EXPECT_DOUBLE_EQ(s.row_length.mean, 1.75);
  EXPECT_DOUBLE_EQ(s.row_length.std,
                   std::sqrt((0.25 * 0.25 + 1.75 * 1.75 + 2.25 * 2.25 + 0.75 * 0.75) / 4));
  // Buckets: {0}, [1,2), [2,4), [4,8).
  EXPECT_EQ(s.row_length_histogram, (std::vector<index_t>{1, 1, 1, 1}));
  EXPECT_EQ(s.empty_rows, 1);
  EXPECT_EQ(s.lower_bandwidth, 2);  // (2, 0)
  EXPECT_EQ(s.upper_bandwidth, 2);  // (2, 4)
  // j - i: 0, 1 (row 0); -2, 0, 1, 2 (row 2); 1 (row 3).
  EXPECT_EQ(s.occupied_diagonals, 4);
  EXPECT_DOUBLE_EQ(s.ell_padding_ratio, 4.0 * 4 / 7);
  EXPECT_EQ(s.hyb_ell_width, 0);  // fewer than 4096 rows
  EXPECT_EQ(s.hyb_coo_nnz, 7);
  ASSERT_EQ(s.block_density.size(), 3u);
  // 2 x 2: block row 0 touches block column 0; block row 1 touches 0, 1, 2.
  EXPECT_EQ(s.block_density[0].block_rows, 2);
  EXPECT_EQ(s.block_density[0].block_cols, 2);
  EXPECT_EQ(s.block_density[0].occupied_blocks, 4);
  EXPECT_DOUBLE_EQ(s.block_density[0].density, 7.0 / 16);
  // 3 x 3 (edge blocks count in full): rows 0-2 touch block columns 0, 1; row 3 touches 1.
  EXPECT_EQ(s.block_density[1].occupied_blocks, 3);
  EXPECT_DOUBLE_EQ(s.block_density[1].density, 7.0 / 27);
  // 1 x 5: one block per non-empty row.
  EXPECT_EQ(s.block_density[2].occupied_blocks, 3);
  EXPECT_DOUBLE_EQ(s.block_density[2].density, 7.0 / 15);
  EXPECT_FALSE(s.pattern_symmetric);  // not square
  EXPECT_FALSE(s.value_symmetric);
  EXPECT_EQ(s.distinct_values, 4);  // 1, 2, 3, 5
}

TEST(Stats, OnlyUpperOrOnlyLowerEntriesGiveZeroOtherBandwidth) {
  const MatrixStats upper = analyse(from_triplets(3, 3, {{0, 2, 1}, {1, 2, 1}}));
  EXPECT_EQ(upper.lower_bandwidth, 0);
  EXPECT_EQ(upper.upper_bandwidth, 2);
  const MatrixStats lower = analyse(from_triplets(3, 3, {{2, 0, 1}}));
  EXPECT_EQ(lower.lower_bandwidth, 2);
  EXPECT_EQ(lower.upper_bandwidth, 0);
}

TEST(Stats, SymmetryOfPatternAndValues) {
  const std::vector<std::tuple<index_t, index_t, double>> symmetric = {
      {0, 0, 4}, {0, 1, 1}, {1, 0, 1}, {1, 1, 4}, {1, 2, 2}, {2, 1, 2}, {2, 2, 4}};
  MatrixStats s = analyse(from_triplets(3, 3, symmetric));
  EXPECT_TRUE(s.pattern_symmetric);
  EXPECT_TRUE(s.value_symmetric);
  EXPECT_EQ(s.distinct_values, 3);

  auto changed = symmetric;
  std::get<2>(changed[4]) = 3;  // a12 = 3, a21 = 2
  s = analyse(from_triplets(3, 3, changed));
  EXPECT_TRUE(s.pattern_symmetric);
  EXPECT_FALSE(s.value_symmetric);

  auto extra = symmetric;
  extra.emplace_back(0, 2, 1.0);  // no (2, 0)
  s = analyse(from_triplets(3, 3, extra));
  EXPECT_FALSE(s.pattern_symmetric);
  EXPECT_FALSE(s.value_symmetric);

  // Same row lengths and column counts, yet not symmetric: a cycle.
  s = analyse(from_triplets(3, 3, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}}));
  EXPECT_FALSE(s.pattern_symmetric);
}

TEST(Stats, DistinctValuesTreatSignedZerosAsOneAndNaNsAsOne) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(analyse(from_triplets(1, 4, {{0, 0, 0.0}, {0, 1, -0.0}, {0, 2, 1.0}, {0, 3, 1.0}}))
                .distinct_values,
            2);
  EXPECT_EQ(analyse(from_triplets(1, 4, {{0, 0, nan}, {0, 1, 1.0}, {0, 2, nan}, {0, 3, 2.0}}))
                .distinct_values,
            3);
  // A NaN breaks value symmetry (NaN != NaN) but not pattern symmetry.
  const MatrixStats s = analyse(from_triplets(1, 1, {{0, 0, nan}}));
  EXPECT_TRUE(s.pattern_symmetric);
  EXPECT_FALSE(s.value_symmetric);
}

TEST(Stats, DistinctValuesAroundTheFewValuesFastPath) {
  // analyse counts up to 1024 values with a small set and sorts beyond that;
  // both must agree with a plain count, NaN and signed zeros included.
  for (index_t distinct : {1023, 1024, 1025, 3000}) {
    SCOPED_TRACE(distinct);
    const index_t cols = 7000;
    std::vector<std::tuple<index_t, index_t, double>> entries;
    for (index_t c = 0; c < cols; ++c) entries.emplace_back(0, c, 1.0 + c % (distinct - 2));
    std::get<2>(entries[10]) = 0.0;
    std::get<2>(entries[20]) = -0.0;
    std::get<2>(entries[30]) = std::numeric_limits<double>::quiet_NaN();
    std::get<2>(entries[40]) = -std::numeric_limits<double>::quiet_NaN();
    // distinct - 2 values 1, 2, ..., plus zero and NaN (no other entry had their value).
    EXPECT_EQ(analyse(from_triplets(1, cols, entries)).distinct_values, distinct);
  }
}

TEST(Stats, EmptyShapes) {
  for (const auto& [rows, cols] :
       std::vector<std::pair<index_t, index_t>>{{0, 0}, {0, 7}, {5, 0}, {6, 4}}) {
    SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(cols));
    const MatrixStats s = analyse(from_triplets(rows, cols, {}));
    EXPECT_EQ(s.rows, rows);
    EXPECT_EQ(s.cols, cols);
    EXPECT_EQ(s.nnz, 0);
    EXPECT_EQ(s.row_length.max, 0);
    EXPECT_EQ(s.row_length.mean, 0);
    EXPECT_EQ(s.empty_rows, rows);
    EXPECT_EQ(s.row_length_histogram,
              rows == 0 ? std::vector<index_t>{} : std::vector<index_t>{rows});
    EXPECT_EQ(s.occupied_diagonals, 0);
    EXPECT_EQ(s.ell_padding_ratio, 1.0);
    EXPECT_EQ(s.hyb_ell_width, 0);
    EXPECT_EQ(s.hyb_coo_nnz, 0);
    for (const BlockDensity& block : s.block_density) {
      EXPECT_EQ(block.occupied_blocks, 0);
      EXPECT_EQ(block.density, 0.0);
    }
    EXPECT_EQ(s.pattern_symmetric, rows == cols);  // an empty square matrix is symmetric
    EXPECT_EQ(s.distinct_values, 0);
  }
}

TEST(Stats, BadBlockShapeIsRefused) {
  StatsOptions options;
  options.block_sizes = {{0, 4}};
  EXPECT_THROW(analyse(from_triplets(2, 2, {{0, 0, 1}}), options), InvalidArgument);
}

TEST(HybSplitWidth, FollowsCuspRule) {
  EXPECT_EQ(hyb_split_width({}), 0);
  EXPECT_EQ(hyb_split_width(std::vector<index_t>(10000, 0)), 0);
  EXPECT_EQ(hyb_split_width(std::vector<index_t>(5000, 3)), 3);
  EXPECT_EQ(hyb_split_width(std::vector<index_t>(4095, 10)), 0);  // below the 4096-row break-even
  EXPECT_EQ(hyb_split_width(std::vector<index_t>(4096, 10)), 10);

  // 4000 rows of length 1 and 6000 of length 5: 6000 rows reach 5 (>= 4096 and >= 10000 / 3).
  std::vector<index_t> lengths(4000, 1);
  lengths.resize(10000, 5);
  EXPECT_EQ(hyb_split_width(lengths), 5);

  // The rows / 3 threshold is exact: 10000 long rows of 30000 pass, of 30001 do not.
  lengths.assign(20000, 2);
  lengths.resize(30000, 8);
  EXPECT_EQ(hyb_split_width(lengths), 8);
  lengths.insert(lengths.begin(), 2);
  EXPECT_EQ(hyb_split_width(lengths), 2);

  // A few huge rows do not widen the ELL part.
  lengths.assign(100000, 4);
  lengths[17] = 5000;
  EXPECT_EQ(hyb_split_width(lengths), 4);
}

TEST(Stats, HybFieldsOfAnalyse) {
  // 10000 rows of length 3 and two rows of length 50: K = 3, 2 * 47 entries in COO.
  const Csr<double> a = gen_few_huge_rows(10002, 100, 3, 2, 50, 1);
  const MatrixStats s = analyse(a);
  EXPECT_EQ(s.hyb_ell_width, 3);
  EXPECT_EQ(s.hyb_coo_nnz, 2 * 47);
  EXPECT_DOUBLE_EQ(s.ell_padding_ratio, 10002.0 * 50 / a.nnz());
}

// Brute-force versions of the structural fields, for cross-checking.
struct BruteForce {
  index_t lower = 0, upper = 0;
  std::set<index_t> diagonals;
  std::set<std::pair<index_t, index_t>> entries;
  std::set<double> values;
  bool value_symmetric = true;
};

BruteForce brute_force(const Csr<double>& a) {
  BruteForce b;
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const index_t c = a.col_idx[k];
      b.lower = std::max(b.lower, r - c);
      b.upper = std::max(b.upper, c - r);
      b.diagonals.insert(c - r);
      b.entries.emplace(r, c);
      b.values.insert(a.values[k] == 0 ? 0.0 : a.values[k]);
    }
  return b;
}

std::int64_t brute_force_blocks(const Csr<double>& a, index_t block_rows, index_t block_cols) {
  std::set<std::pair<index_t, index_t>> blocks;
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
      blocks.emplace(r / block_rows, a.col_idx[k] / block_cols);
  return static_cast<std::int64_t>(blocks.size());
}

bool brute_force_pattern_symmetric(const Csr<double>& a, const BruteForce& b) {
  if (a.rows != a.cols) return false;
  return std::all_of(b.entries.begin(), b.entries.end(), [&](const auto& e) {
    return b.entries.count({e.second, e.first}) == 1;
  });
}

void expect_consistent_with_brute_force(const Csr<double>& a) {
  const MatrixStats s = analyse(a);
  const BruteForce b = brute_force(a);
  EXPECT_EQ(s.rows, a.rows);
  EXPECT_EQ(s.cols, a.cols);
  EXPECT_EQ(s.nnz, a.nnz());
  EXPECT_EQ(std::accumulate(s.row_length_histogram.begin(), s.row_length_histogram.end(),
                            std::int64_t{0}),
            a.rows);
  if (a.rows > 0) {
    EXPECT_EQ(s.row_length_histogram.front(), s.empty_rows);
    EXPECT_NEAR(s.row_length.mean * a.rows, a.nnz(), 1e-6 * (a.nnz() + 1));
    EXPECT_LE(s.row_length.min, s.row_length.mean);
    EXPECT_LE(s.row_length.mean, s.row_length.max);
    EXPECT_LE(s.row_length.std, s.row_length.max - s.row_length.min);
    // The top bucket holds the longest row.
    EXPECT_GE(s.row_length.max,
              s.row_length_histogram.size() <= 1 ? 0 : 1 << (s.row_length_histogram.size() - 2));
    EXPECT_GT(s.row_length_histogram.back(), 0);
  }
  EXPECT_EQ(s.lower_bandwidth, b.lower);
  EXPECT_EQ(s.upper_bandwidth, b.upper);
  EXPECT_EQ(s.occupied_diagonals, static_cast<index_t>(b.diagonals.size()));
  EXPECT_LE(s.hyb_coo_nnz, s.nnz);
  EXPECT_LE(s.hyb_ell_width, s.row_length.max);
  if (a.nnz() > 0) {
    EXPECT_GE(s.ell_padding_ratio, 1.0);
  }
  for (const BlockDensity& block : s.block_density) {
    EXPECT_EQ(block.occupied_blocks, brute_force_blocks(a, block.block_rows, block.block_cols))
        << block.block_rows << " x " << block.block_cols;
    if (block.occupied_blocks > 0) {
      EXPECT_GT(block.density, 0.0);
      EXPECT_LE(block.density, 1.0);
    }
  }
  EXPECT_EQ(s.pattern_symmetric, brute_force_pattern_symmetric(a, b));
  if (!s.pattern_symmetric) {
    EXPECT_FALSE(s.value_symmetric);
  }
  EXPECT_EQ(s.distinct_values, static_cast<std::int64_t>(b.values.size()));
}

TEST(Stats, ZooMatricesAgreeWithBruteForce) {
  for (const auto& [name, matrix] : test::matrix_zoo()) {
    SCOPED_TRACE(name);
    expect_consistent_with_brute_force(matrix);
  }
}

TEST(Stats, GeneratedMatricesAgreeWithBruteForce) {
  for (const char* spec :
       {"stencil5:n=9", "stencil27:n=6", "rmat:scale=10", "blockfem:n=3,block=4",
        "banded:rows=500,lower=7,upper=1", "fewhuge:rows=2000,cols=6000", "dense:rows=9,cols=70",
        // Blocks counted in hash sets only (few entries, many block columns), then in bitmaps only.
        "uniform:rows=300,cols=2000000,per_row=3", "widelp:rows=40,cols=3000,per_row=900"}) {
    SCOPED_TRACE(spec);
    expect_consistent_with_brute_force(generate(parse_generator_spec(spec)));
  }
}

// Bandwidths beyond 2^20 (scattered columns) take the other diagonal count:
// each thread counts its own slice of the diagonals in a bitmap of its own.
// With enough entries to run in parallel, on one thread and on more threads
// than the slices divide evenly; a sample counts the same diagonals on any
// number of threads.
TEST(Stats, ScatteredColumnsDiagonalsAgreeWithBruteForceOnAnyThreadCount) {
  const int threads = omp_get_max_threads();
  // Wide: columns scattered over 3M. Tall: every 16th of 1.2M rows holds one
  // entry in the first 64 columns, a lower bandwidth near 1.12M.
  std::vector<std::tuple<index_t, index_t, double>> tall_entries;
  for (index_t i = 0; i < 70000; ++i) tall_entries.emplace_back(16 * i + 7, (37 * i) % 64, 1.0 + i % 5);
  const std::vector<std::pair<std::string, Csr<double>>> matrices = {
      {"wide", generate(parse_generator_spec("uniform:rows=20000,cols=3000000,per_row=4"))},
      {"tall", from_triplets(1200000, 64, tall_entries)}};
  for (const auto& [name, a] : matrices) {
    StatsOptions sampled;
    sampled.sample_nonzeros = a.nnz() / 3;
    omp_set_num_threads(1);
    const MatrixStats sample_on_one = analyse(a, sampled);
    for (int team : {1, 3, 7}) {
      SCOPED_TRACE(name + " on " + std::to_string(team) + " threads");
      omp_set_num_threads(team);
      expect_consistent_with_brute_force(a);
      const MatrixStats sample = analyse(a, sampled);
      EXPECT_EQ(sample.occupied_diagonals, sample_on_one.occupied_diagonals);
      EXPECT_GT(sample.lower_bandwidth + sample.upper_bandwidth, 1 << 20);
    }
  }
  omp_set_num_threads(threads);
}

TEST(Stats, StencilsAreSymmetricWithTwoValuesAndKnownDiagonals) {
  const index_t n = 10;
  const MatrixStats five = analyse(gen_stencil_2d_5pt(n, n));
  EXPECT_TRUE(five.value_symmetric);
  EXPECT_EQ(five.distinct_values, 2);
  EXPECT_EQ(five.occupied_diagonals, 5);
  EXPECT_EQ(five.lower_bandwidth, n);
  const MatrixStats seven = analyse(gen_stencil_3d(n, n, n, 7));
  EXPECT_TRUE(seven.value_symmetric);
  EXPECT_EQ(seven.occupied_diagonals, 7);
  EXPECT_EQ(seven.upper_bandwidth, n * n);
  const MatrixStats box = analyse(gen_stencil_3d(n, n, n, 27));
  EXPECT_TRUE(box.value_symmetric);
  EXPECT_EQ(box.occupied_diagonals, 27);
  EXPECT_EQ(box.upper_bandwidth, n * n + n + 1);
  EXPECT_EQ(box.row_length.max, 27);
  EXPECT_EQ(box.row_length.min, 8);
}

TEST(Stats, ASampleAsLargeAsTheMatrixIsTheWholeMatrix) {
  const Csr<double> a = gen_uniform_random(500, 400, 7, 11);
  StatsOptions sampled;
  sampled.sample_nonzeros = a.nnz();
  const MatrixStats whole = analyse(a), same = analyse(a, sampled);
  EXPECT_EQ(same.sampled_rows, a.rows);
  EXPECT_EQ(same.sampled_nnz, a.nnz());
  EXPECT_EQ(whole.sampled_nnz, a.nnz());
  EXPECT_EQ(same.occupied_diagonals, whole.occupied_diagonals);
  EXPECT_EQ(same.distinct_values, whole.distinct_values);
  EXPECT_EQ(same.block_density[1].occupied_blocks, whole.block_density[1].occupied_blocks);
}

// A stencil looks the same everywhere: a sample sees its diagonals and its
// bandwidth exactly, its block density nearly (wide blocks less so: the runs
// start at multiples of 64 rows, which alias with the grid's lines), and
// reads about the budget.
TEST(Stats, ASampledStencilHasTheWholeStencilsStructure) {
  const index_t n = 40;
  const Csr<double> a = gen_stencil_3d(n, n, n, 27);
  StatsOptions sampled;
  sampled.sample_nonzeros = 20000;
  const MatrixStats whole = analyse(a), sample = analyse(a, sampled);
  EXPECT_LT(sample.sampled_nnz, 2 * sampled.sample_nonzeros);
  EXPECT_GT(sample.sampled_nnz, sampled.sample_nonzeros / 2);
  EXPECT_LT(sample.sampled_rows, a.rows / 10);
  EXPECT_EQ(sample.occupied_diagonals, 27);
  EXPECT_EQ(sample.upper_bandwidth, whole.upper_bandwidth);
  EXPECT_EQ(sample.distinct_values, whole.distinct_values);
  EXPECT_EQ(sample.row_length_histogram, whole.row_length_histogram);  // always every row
  for (std::size_t b = 0; b < whole.block_density.size(); ++b) {
    const double tolerance = whole.block_density[b].block_cols < 64 ? 0.05 : 0.25;
    EXPECT_NEAR(sample.block_density[b].density, whole.block_density[b].density,
                tolerance * whole.block_density[b].density);
  }
}

// Fewer rows than sample runs (a few long rows): the sample stays within the
// matrix and still reads some rows.
TEST(Stats, ASampleOfAFewLongRows) {
  const Csr<double> a = gen_uniform_random(3, 100000, 50000, 5);
  StatsOptions sampled;
  sampled.sample_nonzeros = 1000;
  const MatrixStats s = analyse(a, sampled);
  EXPECT_GE(s.sampled_rows, 1);
  EXPECT_LE(s.sampled_rows, 3);
  EXPECT_EQ(s.row_length.max, 50000);
  EXPECT_GT(s.occupied_diagonals, 0);
}

// A hub as the first row and a budget of one run: the run that would begin
// with it begins after it, and the sample stays within its budget (it had
// read every row).
TEST(Stats, ASampleWhoseOnlyRunBeginsWithAHub) {
  std::vector<std::tuple<index_t, index_t, double>> entries;
  for (index_t c = 0; c < 5000; ++c) entries.emplace_back(0, c, 1.0);
  for (index_t r = 1; r < 10000; ++r) {
    entries.emplace_back(r, r % 97, 2.0);
    entries.emplace_back(r, 5000 + r, 3.0);
  }
  const Csr<double> a = from_triplets(10000, 20000, entries);
  StatsOptions sampled;
  sampled.sample_nonzeros = 1;
  const MatrixStats s = analyse(a, sampled);
  EXPECT_EQ(s.sampled_rows, 7);  // rows 1-7: to the first boundary past one entry, rounded up to 8 rows
  EXPECT_EQ(s.sampled_nnz, 14);
  EXPECT_EQ(s.row_length.max, 5000);  // the lengths are read from every row
}

// Row lengths from a sample of rows (StatsOptions::sample_rows): no sample
// on a matrix of fewer rows, and on larger ones the estimates against every
// row's statistics.
TEST(Stats, ARowSampleAsLargeAsTheMatrixReadsEveryRow) {
  const Csr<double> a = gen_uniform_random(3000, 400, 7, 11);
  StatsOptions sampled;
  sampled.sample_rows = a.rows;
  const MatrixStats whole = analyse(a), same = analyse(a, sampled);
  EXPECT_EQ(whole.row_length_rows, a.rows);
  EXPECT_EQ(same.row_length_rows, a.rows);
  EXPECT_EQ(same.row_length_histogram, whole.row_length_histogram);
  EXPECT_EQ(same.row_length.std, whole.row_length.std);
  EXPECT_EQ(same.hyb_coo_nnz, whole.hyb_coo_nnz);
}

// The spread of lengths is compared as the coefficient of variation (std /
// mean), within `cv_tolerance` of it or of 0.25 when it is smaller: a
// regular matrix's small spread may be off by a larger share of itself.
void expect_row_sample_near(const Csr<double>& a, std::int64_t sample_rows, double cv_tolerance) {
  StatsOptions sampled;
  sampled.sample_rows = sample_rows;
  const MatrixStats whole = analyse(a), sample = analyse(a, sampled);
  EXPECT_LE(sample.row_length_rows, sample_rows * 3 / 2);
  EXPECT_GE(sample.row_length_rows, sample_rows / 2);
  EXPECT_EQ(sample.row_length.mean, whole.row_length.mean);
  EXPECT_EQ(sample.row_length.max, whole.row_length.max);  // in the heaviest blocks
  EXPECT_EQ(sample.ell_padding_ratio, whole.ell_padding_ratio);
  const double whole_cv = whole.row_length.std / whole.row_length.mean;
  EXPECT_NEAR(sample.row_length.std / whole.row_length.mean, whole_cv, cv_tolerance * std::max(whole_cv, 0.25));
  EXPECT_EQ(std::accumulate(sample.row_length_histogram.begin(), sample.row_length_histogram.end(), std::int64_t{0}),
            a.rows);
  EXPECT_EQ(sample.row_length_histogram.size(), whole.row_length_histogram.size());
  EXPECT_NEAR(static_cast<double>(sample.hyb_coo_nnz), static_cast<double>(whole.hyb_coo_nnz), 0.05 * a.nnz());
}

TEST(Stats, ARowSampleOfAStencilHasItsLengths) {
  const Csr<double> a = gen_stencil_3d(60, 60, 60, 27);
  expect_row_sample_near(a, 16384, 0.1);
  StatsOptions sampled;
  sampled.sample_rows = 16384;
  EXPECT_EQ(analyse(a, sampled).hyb_ell_width, analyse(a).hyb_ell_width);
}

// A few rows far longer than the rest: the heaviest blocks hold them, so
// the longest row and the spread of lengths (which they dominate) are seen.
TEST(Stats, ARowSampleFindsAFewHugeRows) {
  const Csr<double> a = gen_few_huge_rows(400000, 400000, 4, 8, 20000, 3);
  expect_row_sample_near(a, 16384, 0.05);
  // More huge rows than the heaviest blocks a sample starts from (8 of 1024
  // rows here), as many as it may read (16): the blocks above twice the
  // mean are all read.
  const Csr<double> more = gen_few_huge_rows(400000, 400000, 4, 16, 20000, 3);
  expect_row_sample_near(more, 16384, 0.05);
}

TEST(Stats, ARowSampleOfAPowerLawGraph) {
  const Csr<double> a = gen_rmat(18, 8, 0.57, 0.19, 0.19, 5);
  expect_row_sample_near(a, 32768, 0.25);
}

// A sample large enough for every pass to run in parallel (the row-length
// blocks, over 2^16 rows, shared among the threads; the entries' passes, the
// scattered diagonals among them) gives the same statistics on any number of
// threads.
TEST(Stats, ASampleIsTheSameOnAnyThreadCount) {
  const int threads = omp_get_max_threads();
  const Csr<double> a = gen_rmat(20, 4, 0.57, 0.19, 0.19, 5);
  StatsOptions sampled;
  sampled.sample_rows = std::int64_t{1} << 17;
  sampled.sample_nonzeros = std::int64_t{1} << 18;
  omp_set_num_threads(1);
  const MatrixStats one = analyse(a, sampled);
  ASSERT_GE(one.row_length_rows, std::int64_t{1} << 16);
  ASSERT_GE(one.sampled_nnz, std::int64_t{1} << 17);
  ASSERT_GT(one.lower_bandwidth + one.upper_bandwidth, 1 << 20);  // the scattered diagonals' count
  for (int team : {3, 7}) {
    omp_set_num_threads(team);
    test::expect_same_stats(analyse(a, sampled), one, std::to_string(team) + " threads");
  }
  omp_set_num_threads(threads);
}

TEST(Stats, FloatMatchesDouble) {
  const Csr<double> a = gen_uniform_random(300, 200, 5, 3);
  const MatrixStats d = analyse(a);
  const MatrixStats f = analyse(cast<float>(a));
  EXPECT_EQ(f.nnz, d.nnz);
  EXPECT_EQ(f.row_length_histogram, d.row_length_histogram);
  EXPECT_EQ(f.occupied_diagonals, d.occupied_diagonals);
  EXPECT_EQ(f.block_density[1].occupied_blocks, d.block_density[1].occupied_blocks);
  const Csr<float> single = cast<float>(a);
  EXPECT_EQ(f.distinct_values,
            static_cast<std::int64_t>(
                std::set<float>(single.values.begin(), single.values.end()).size()));
}

}  // namespace
}  // namespace spmv
