// Reorderings (reorder.hpp): RCM, AMD and BAR give permutations that do what
// each promises on cases where the answer is known.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>

#include "spmv/error.hpp"
#include "spmv/formats/bro_ell.hpp"
#include "spmv/gen.hpp"
#include "spmv/io.hpp"
#include "spmv/reorder.hpp"
#include "spmv/stats.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

index_t bandwidth(const Csr<double>& a) {
  const MatrixStats s = analyse(a);
  return std::max(s.lower_bandwidth, s.upper_bandwidth);
}

std::vector<index_t> shuffled_order(index_t n, std::uint64_t seed) {
  std::vector<index_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(seed));
  return order;
}

// A symmetric band of half-width `half_width` (every entry within it).
Csr<double> banded(index_t n, index_t half_width) {
  std::vector<std::tuple<index_t, index_t, double>> entries;
  for (index_t i = 0; i < n; ++i)
    for (index_t j = std::max<index_t>(0, i - half_width); j <= std::min(n - 1, i + half_width); ++j)
      entries.emplace_back(i, j, 1.0 + i + 0.5 * j);
  return test::from_triplets(n, n, entries);
}

Csr<double> symmetric_shuffle(const Csr<double>& a, std::uint64_t seed) {
  MatrixOrdering shuffle;
  shuffle.row_order = shuffled_order(a.rows, seed);
  shuffle.column_order = shuffle.row_order;
  return reorder(a, shuffle);
}

// nnz of the Cholesky factor L (below the diagonal) of the pattern of
// A + A^T eliminated in `order`, by dense symbolic elimination (small n only).
std::int64_t cholesky_fill(const Csr<double>& a, const std::vector<index_t>& order) {
  const auto n = static_cast<std::size_t>(a.rows);
  const std::vector<index_t> position = inverse_permutation(order);
  std::vector<std::vector<bool>> pattern(n, std::vector<bool>(n, false));
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      pattern[position[i]][position[a.col_idx[k]]] = true;
      pattern[position[a.col_idx[k]]][position[i]] = true;
    }
  std::int64_t below_diagonal = 0;
  for (std::size_t pivot = 0; pivot < n; ++pivot) {
    std::vector<std::size_t> later;
    for (std::size_t j = pivot + 1; j < n; ++j)
      if (pattern[pivot][j]) later.push_back(j);
    below_diagonal += static_cast<std::int64_t>(later.size());
    for (std::size_t u : later)
      for (std::size_t v : later) pattern[u][v] = true;
  }
  return below_diagonal;
}

TEST(Reorder, NamesRoundTrip) {
  for (Reordering r : {Reordering::none, Reordering::rcm, Reordering::amd, Reordering::bro_aware})
    EXPECT_EQ(reordering_from_string(to_string(r)), r);
  EXPECT_STREQ(to_string(Reordering::bro_aware), "bar");
  try {
    reordering_from_string("metis");
    FAIL() << "no error for an unknown reordering";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("'metis'"), std::string::npos) << e.what();
  }
}

TEST(Reorder, PermutationHelpers) {
  EXPECT_TRUE(is_permutation({2, 0, 1}, 3));
  EXPECT_FALSE(is_permutation({2, 0, 0}, 3));
  EXPECT_FALSE(is_permutation({0, 1, 3}, 3));
  EXPECT_FALSE(is_permutation({0, 1}, 3));
  EXPECT_TRUE(is_permutation({}, 0));
  EXPECT_EQ(inverse_permutation({2, 0, 1}), (std::vector<index_t>{1, 2, 0}));
  EXPECT_THROW(inverse_permutation({1, 1}), InvalidArgument);
}

TEST(Reorder, ReorderMovesEntriesToTheirNewPositions) {
  const Csr<double> a = test::from_triplets(3, 4, {{0, 1, 1.0}, {1, 3, 2.0}, {2, 0, 3.0}});
  MatrixOrdering ordering;
  ordering.row_order = {2, 0, 1};     // new row 0 is old row 2
  ordering.column_order = {3, 2, 1, 0};
  // A'(i, j) = A(row_order[i], column_order[j]).
  const Csr<double> expected = test::from_triplets(3, 4, {{0, 3, 3.0}, {1, 2, 1.0}, {2, 0, 2.0}});
  EXPECT_EQ(reorder(a, ordering), expected);
}

TEST(Reorder, EveryMethodGivesAPermutationOnTheZoo) {
  for (const auto& [name, a] : test::matrix_zoo()) {
    SCOPED_TRACE(name);
    const MatrixOrdering bar = compute_ordering(a, Reordering::bro_aware);
    EXPECT_TRUE(is_permutation(bar.row_order, a.rows));
    EXPECT_TRUE(bar.column_order.empty()) << "BAR reorders rows only";
    if (a.rows != a.cols) continue;
    EXPECT_TRUE(is_permutation(reverse_cuthill_mckee(a), a.rows));
    try {
      EXPECT_TRUE(is_permutation(approximate_minimum_degree(a), a.rows));
    } catch (const Unavailable& e) {
      ADD_FAILURE() << "this build has no AMD: " << e.what();
    }
  }
}

TEST(Reorder, RcmRestoresTheBandOfAShuffledBandedMatrix) {
  const Csr<double> band = banded(500, 3);
  const Csr<double> shuffled = symmetric_shuffle(band, 11);
  ASSERT_GT(bandwidth(shuffled), 300);  // the shuffle really scattered it
  MatrixOrdering rcm;
  rcm.row_order = reverse_cuthill_mckee(shuffled);
  rcm.column_order = rcm.row_order;
  const Csr<double> restored = reorder(shuffled, rcm);
  // Cuthill-McKee levels of a band of half-width 3 hold 3 nodes each, and
  // neighbours are at most two levels apart: bandwidth at most 2 * 3.
  EXPECT_LE(bandwidth(restored), 6);
  EXPECT_LT(envelope_profile(restored), envelope_profile(shuffled) / 20);
}

TEST(Reorder, RcmHandlesComponentsAndIsolatedNodes) {
  // Two shuffled bands, and isolated nodes with only a diagonal or nothing.
  std::vector<std::tuple<index_t, index_t, double>> entries;
  const index_t n = 300;
  for (index_t i = 0; i < 120; ++i)
    for (index_t j = std::max<index_t>(0, i - 2); j < std::min<index_t>(120, i + 3); ++j)
      entries.emplace_back(i, j, 1.0);
  for (index_t i = 120; i < 280; ++i)
    for (index_t j = std::max<index_t>(120, i - 1); j < std::min<index_t>(280, i + 2); ++j)
      entries.emplace_back(i, j, 1.0);
  for (index_t i = 280; i < n; i += 2) entries.emplace_back(i, i, 1.0);
  const Csr<double> shuffled = symmetric_shuffle(test::from_triplets(n, n, entries), 5);
  MatrixOrdering rcm;
  rcm.row_order = reverse_cuthill_mckee(shuffled);
  ASSERT_TRUE(is_permutation(rcm.row_order, n));
  rcm.column_order = rcm.row_order;
  EXPECT_LE(bandwidth(reorder(shuffled, rcm)), 4);
}

TEST(Reorder, RcmReadsTheUnsymmetricPatternAsAPlusATranspose) {
  // A path 0-1-2-3-4 given only by its upper triangle, scrambled.
  const Csr<double> a = test::from_triplets(5, 5, {{3, 0, 1.0}, {0, 4, 1.0}, {4, 1, 1.0}, {1, 2, 1.0}});
  MatrixOrdering rcm;
  rcm.row_order = reverse_cuthill_mckee(a);
  rcm.column_order = rcm.row_order;
  EXPECT_EQ(bandwidth(reorder(a, rcm)), 1);
}

TEST(Reorder, SymmetricReorderingsRefuseNonSquareMatrices) {
  const Csr<double> a = test::from_triplets(3, 5, {{0, 4, 1.0}});
  for (Reordering method : {Reordering::rcm, Reordering::amd}) {
    try {
      compute_ordering(a, method);
      FAIL() << to_string(method) << " accepted a 3 x 5 matrix";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("3 x 5"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(to_string(method)), std::string::npos) << e.what();
    }
  }
}

TEST(Reorder, AmdOrdersTheHubOfAnArrowLastSoThereIsNoFill) {
  // Node 0 is joined to every other node: eliminated first it fills the
  // whole factor (n(n-1)/2 entries); eliminated last it fills nothing (n-1).
  const index_t n = 60;
  std::vector<std::tuple<index_t, index_t, double>> entries;
  for (index_t i = 0; i < n; ++i) {
    entries.emplace_back(i, i, 4.0);
    if (i > 0) entries.emplace_back(0, i, 1.0);  // A + A^T is the arrow
  }
  const Csr<double> arrow = test::from_triplets(n, n, entries);
  std::vector<index_t> natural(static_cast<std::size_t>(n));
  std::iota(natural.begin(), natural.end(), 0);
  ASSERT_EQ(cholesky_fill(arrow, natural), std::int64_t{n} * (n - 1) / 2);
  std::vector<index_t> amd;
  try {
    amd = approximate_minimum_degree(arrow);
  } catch (const Unavailable& e) {
    GTEST_SKIP() << e.what();
  }
  ASSERT_TRUE(is_permutation(amd, n));
  EXPECT_EQ(cholesky_fill(arrow, amd), n - 1);
}

TEST(Reorder, BroEllCostOfAHandComputedSlice) {
  // h = 2, w = 1 (h/w = 2), alpha = 32; double x: 16 entries per 128-byte line.
  // Row 0: columns 0, 20 -> deltas 1, 20 -> 1 and 5 bits; lines 0, 1.
  // Row 1: column 3     -> delta 4      -> 3 bits;        line 0.
  // d = (3, 5): ceil(8 / 32) = 1 symbol; c = (1 line, 1 line) = 2.
  // Phi = 2 * (1 + 2) = 6.
  const Csr<double> a = test::from_triplets(2, 30, {{0, 0, 1.0}, {0, 20, 1.0}, {1, 3, 1.0}});
  BroAwareOptions options;
  options.slice_height = 2;
  options.warp_size = 1;
  EXPECT_DOUBLE_EQ(bro_ell_cost(a, {}, options), 6.0);
  EXPECT_DOUBLE_EQ(bro_ell_cost(a, {1, 0}, options), 6.0);  // one slice either way
  // Two slices of one row: 1 * (1 + 2) + 1 * (1 + 1) with h/w = 1.
  options.slice_height = 1;
  EXPECT_DOUBLE_EQ(bro_ell_cost(a, {}, options), 5.0);
  EXPECT_THROW(bro_ell_cost(a, {0, 0}, options), InvalidArgument);
}

// Rows alternate between two kinds: short rows whose entries sit far apart
// (wide bit fields, the same few cache lines), and long rows of consecutive
// columns (1-bit fields after the first). Slices of consecutive rows mix the
// kinds and pay both; sorting by length, as BAR starts, separates them.
Csr<double> interleaved_kinds(index_t rows) {
  std::vector<std::tuple<index_t, index_t, double>> entries;
  for (index_t r = 0; r < rows; ++r) {
    if (r % 2) {
      for (index_t j = 0; j < 4; ++j) entries.emplace_back(r, j * 4099 + r % 8, 1.0);
    } else {
      for (index_t j = 0; j < 16; ++j) entries.emplace_back(r, j + r % 64, 1.0);
    }
  }
  return test::from_triplets(rows, 1 << 14, entries);
}

TEST(Reorder, BarLowersTheBroEllCostOfInterleavedRowKinds) {
  const Csr<double> a = interleaved_kinds(1024);
  BroAwareOptions options;
  options.slice_height = 64;
  const std::vector<index_t> order = bro_aware_row_order(a, options);
  ASSERT_TRUE(is_permutation(order, a.rows));
  const double before = bro_ell_cost(a, {}, options), after = bro_ell_cost(a, order, options);
  EXPECT_LT(after, 0.8 * before) << "before " << before << ", after " << after;
}

TEST(Reorder, BarRegroupsTheShuffledRowsOfABand) {
  // Rows of equal length and scattered positions: what helps here is putting
  // rows that read the same part of x together (the candidates by first column).
  MatrixOrdering shuffle;
  shuffle.row_order = shuffled_order(4096, 3);
  const Csr<double> a = reorder(banded(4096, 4), shuffle);
  const std::vector<index_t> order = bro_aware_row_order(a);
  const double before = bro_ell_cost(a, {}), after = bro_ell_cost(a, order);
  EXPECT_LT(after, 0.7 * before) << "before " << before << ", after " << after;
}

// The experiment of Tang et al.'s Section 3.4 on a matrix with a known good
// order: a 27-point stencil whose rows were shuffled. BAR, which looks at the
// BRO-ELL slices, must recover more of the compression than RCM, which looks
// at the bandwidth of A + A^T.
TEST(Reorder, BarBeatsTheIdentityAndRcmOnARowShuffledStencil) {
  const Csr<double> natural = generate(parse_generator_spec("stencil27:n=16"));
  const Csr<double> shuffled = generate(parse_generator_spec("stencil27:n=16,shuffle=1"));
  const double natural_cost = bro_ell_cost(natural, {});
  const double shuffled_cost = bro_ell_cost(shuffled, {});
  const Csr<double> rcm = reorder(shuffled, compute_ordering(shuffled, Reordering::rcm));
  const double rcm_cost = bro_ell_cost(rcm, {});
  const double bar_cost = bro_ell_cost(shuffled, bro_aware_row_order(shuffled));
  ASSERT_GT(shuffled_cost, 1.2 * natural_cost);  // the shuffle really cost compression
  EXPECT_LT(bar_cost, shuffled_cost) << "natural " << natural_cost << ", rcm " << rcm_cost;
  EXPECT_LT(bar_cost, rcm_cost) << "natural " << natural_cost << ", shuffled " << shuffled_cost;
  std::printf("BRO-ELL cost of stencil27 16^3: natural %.0f, rows shuffled %.0f, then RCM %.0f, "
              "then BAR %.0f\n", natural_cost, shuffled_cost, rcm_cost, bar_cost);
}

TEST(Reorder, BarNeverRaisesTheCostOnTheZoo) {
  for (const auto& [name, a] : test::matrix_zoo()) {
    for (index_t h : {32, 256}) {
      for (index_t t : {1, 4}) {
        BroAwareOptions options;
        options.slice_height = h;
        options.threads_per_row = t;
        const std::vector<index_t> order = bro_aware_row_order(a, options);
        EXPECT_LE(bro_ell_cost(a, order, options), bro_ell_cost(a, {}, options))
            << name << " h=" << h << " T=" << t;
      }
    }
  }
}

// With every column in one cache line, c(S, j) is 1 per slice column, so Phi
// is h/w times the sum over slices of (symbols per stream + slice columns):
// the cost model must see the slices the BRO-ELL builder makes, for each
// stream count T (T streams per row, h/T rows per slice, deltas within a stream).
TEST(Reorder, BroEllCostCountsTheSlicesOfTheBroEllFormat) {
  const Csr<double> a = interleaved_kinds(300);
  for (index_t t : {1, 2, 4, 8}) {
    BroEllOptions format;
    format.slice_height = 32;
    format.threads_per_row = t;
    const BroEll<double> bro = bro_ell_from_csr(a, format);
    double expected = 0;
    for (index_t slice = 0; slice < bro.slices(); ++slice)
      expected += (bro.symbol_offset[slice + 1] - bro.symbol_offset[slice]) / bro.slice_height +
                  bro.slice_columns(slice);
    BroAwareOptions options;
    options.slice_height = 32;
    options.threads_per_row = t;
    options.warp_size = 32;
    options.cache_line_bytes = 1 << 30;
    EXPECT_DOUBLE_EQ(bro_ell_cost(a, {}, options), expected) << "T=" << t;
  }
}

TEST(Reorder, BarRefusesBadOptions) {
  BroAwareOptions options;
  options.candidates = 0;
  EXPECT_THROW(bro_aware_row_order(banded(10, 1), options), InvalidArgument);
  options = {};
  options.symbol_bits = 65;
  EXPECT_THROW(bro_ell_cost(banded(10, 1), {}, options), InvalidArgument);
  options = {};
  options.threads_per_row = 3;  // not a power of two
  EXPECT_THROW(bro_aware_row_order(banded(10, 1), options), InvalidArgument);
  options.threads_per_row = 64;  // more streams per row than a warp
  EXPECT_THROW(bro_ell_cost(banded(10, 1), {}, options), InvalidArgument);
}

TEST(Reorder, RealMatricesGetPermutationsAndBarNeverRaisesTheCost) {
  const auto files = test::real_matrix_files();
  if (files.empty()) GTEST_SKIP() << "no real matrices under " << test::shared_data_dir();
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    const Csr<double> a = read_matrix<double>(file);
    const std::vector<index_t> bar = bro_aware_row_order(a);
    EXPECT_TRUE(is_permutation(bar, a.rows));
    EXPECT_LE(bro_ell_cost(a, bar), bro_ell_cost(a, {}));
    if (a.rows != a.cols) continue;
    EXPECT_TRUE(is_permutation(reverse_cuthill_mckee(a), a.rows));
    EXPECT_TRUE(is_permutation(approximate_minimum_degree(a), a.rows));
  }
}

TEST(Reorder, EnvelopeProfile) {
  // Row 0: first column 0 -> 0; row 1: none; row 2: first column 0 -> 2; row 3: first column 3 -> 0.
  const Csr<double> a = test::from_triplets(4, 4, {{0, 0, 1.0}, {2, 0, 1.0}, {2, 2, 1.0}, {3, 3, 1.0}});
  EXPECT_EQ(envelope_profile(a), 2);
}

}  // namespace
}  // namespace spmv
