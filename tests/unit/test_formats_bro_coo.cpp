// BRO-COO: a hand-checked layout, exact round trips and the product on the
// zoo and the real matrices for several interval lengths, the footprint and
// the compression metrics.
#include <gtest/gtest.h>

#include <vector>

#include "spmv/formats/bro_coo.hpp"
#include "spmv/io.hpp"
#include "test_formats_support.hpp"

namespace spmv {
namespace {

// Intervals of one step, of two (ending mid-row on most matrices), and the default.
const std::vector<index_t> tested_intervals = {32, 64, 96, bro_coo_default_interval};

// Decoding gives back the row-major COO of `a` (hence `a` itself), and the
// product matches the reference.
template <class T>
void expect_exact_round_trip(const Csr<T>& a, index_t interval) {
  SCOPED_TRACE("interval=" + std::to_string(interval));
  const BroCoo<T> bro = bro_coo_from_csr(a, {interval});
  const Coo<T> expected = to_coo(a);
  const Coo<T> decoded = to_coo(bro);
  EXPECT_EQ(decoded.rows, a.rows);
  EXPECT_EQ(decoded.cols, a.cols);
  EXPECT_EQ(decoded.row_idx, expected.row_idx);
  EXPECT_EQ(decoded.col_idx, expected.col_idx);
  EXPECT_EQ(decoded.values, expected.values);
  EXPECT_TRUE(to_csr(decoded) == a);
  test::expect_product_matches_reference(a, bro);
}

template <class T>
class BroCooFormat : public ::testing::Test {};
TYPED_TEST_SUITE(BroCooFormat, test::FormatValueTypes);

TYPED_TEST(BroCooFormat, RoundTripIsExactOnTheZoo) {
  using T = TypeParam;
  for (const auto& [name, matrix] : test::matrix_zoo()) {
    SCOPED_TRACE(name);
    for (index_t interval : tested_intervals) expect_exact_round_trip(cast<T>(matrix), interval);
  }
}

TYPED_TEST(BroCooFormat, ProductMatchesReferenceOnTheZooAndIsNeverRefused) {
  using T = TypeParam;
  const auto refused =
      test::check_format_on_zoo<T>([](const Csr<T>& a) { return bro_coo_from_csr(a); },
                                   [](const Csr<T>& a) { return bro_coo_footprint(a); });
  EXPECT_TRUE(refused.empty());
}

TYPED_TEST(BroCooFormat, FootprintIsWhatTheBuilderStores) {
  using T = TypeParam;
  for (const auto& [name, matrix] : test::matrix_zoo()) {
    SCOPED_TRACE(name);
    const Csr<T> a = cast<T>(matrix);
    for (index_t interval : tested_intervals) {
      const BroCoo<T> bro = bro_coo_from_csr(a, {interval});
      const FormatFootprint f = bro_coo_footprint(a, {interval});
      EXPECT_EQ(f.bytes, bro.widths.size() + bro.symbols.size() * 4 +
                             (bro.base_row.size() + bro.symbol_offset.size()) * sizeof(index_t) +
                             bro.col_idx.size() * sizeof(index_t) + bro.values.size() * sizeof(T));
      EXPECT_EQ(f.bytes, bro_coo_metrics(bro).matrix_bytes);
      EXPECT_EQ(f.stored_entries, a.nnz());
      EXPECT_EQ(f.csr_bytes, csr_bytes(a.rows, a.nnz(), sizeof(T)));
    }
  }
}

TEST(BroCooFormat, RoundTripIsExactOnTheRealMatrices) {
  const auto files = test::real_matrix_files();
  if (files.empty()) GTEST_SKIP() << "no real matrices under " << test::shared_data_dir();
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    const Csr<double> a = read_matrix<double>(file);
    for (index_t interval : {index_t(64), bro_coo_default_interval})
      expect_exact_round_trip(a, interval);
  }
}

// Rows 0, 2, 3, 4 hold 20, 30, 15 and 5 entries (row 1 is empty): 70
// entries in intervals of 64, the second of 6 entries only.
Csr<double> layout_example() {
  std::vector<std::tuple<index_t, index_t, double>> entries;
  const index_t lengths[5] = {20, 0, 30, 15, 5};
  for (index_t r = 0; r < 5; ++r)
    for (index_t c = 0; c < lengths[r]; ++c) entries.emplace_back(r, c, 1.0 + r + c / 64.0);
  return test::from_triplets(5, 32, entries);
}

TEST(BroCooFormat, LayoutOfASmallExampleIsAsWorkedOutByHand) {
  const BroCoo<double> bro = bro_coo_from_csr(layout_example(), {64});
  ASSERT_EQ(bro.intervals(), 2);
  EXPECT_EQ(bro.steps_per_interval(), 2);
  // Interval 0, entries 0..63 from row 0. Step 0 (entries 0..31): lanes 0..19
  // in row 0 (delta 0), lanes 20..31 in row 2 (delta 2); width 2. Step 1
  // (entries 32..63): lanes 0..17 in row 2 (delta 2), lanes 18..19 in row 3
  // (delta 3), lanes 20..31 in row 3 (delta 1); width 2.
  // Interval 1, entries 64..69 from row 3: lane 0 in row 3 (delta 0), lanes
  // 1..5 in row 4 and lanes 6..31, past the end, as the last entry: row 4
  // (delta 1); width 1.
  EXPECT_EQ(bro.base_row, (std::vector<index_t>{0, 3}));
  EXPECT_EQ(bro.widths, (std::vector<std::uint8_t>{2, 2, 1}));
  EXPECT_EQ(bro.symbol_offset, (std::vector<index_t>{0, 32, 64}));
  ASSERT_EQ(bro.symbols.size(), 64u);
  for (index_t lane = 0; lane < 32; ++lane) {
    SCOPED_TRACE("lane " + std::to_string(lane));
    // Fields 00 10, 00 11 and 10 01, then zero padding.
    const std::uint32_t first = lane < 18 ? 0x20000000u : lane < 20 ? 0x30000000u : 0x90000000u;
    EXPECT_EQ(bro.symbols[lane], first);
    EXPECT_EQ(bro.symbols[32 + lane], lane == 0 ? 0u : 0x80000000u);
  }
  const CompressionMetrics metrics = bro_coo_metrics(bro);
  EXPECT_EQ(metrics.against_uncompressed.original_index_bytes, 70u * 4);
  EXPECT_EQ(metrics.against_uncompressed.compressed_index_bytes, 3u + 64 * 4 + 5 * 4);
  EXPECT_EQ(metrics.against_csr.original_index_bytes, 6u * 4 + 70 * 4);
  EXPECT_EQ(metrics.against_csr.compressed_index_bytes, 3u + 64 * 4 + 5 * 4 + 70 * 4);
}

TEST(BroCooFormat, RefusesIntervalsThatAreNotWholeWarps) {
  const Csr<double> a = layout_example();
  for (index_t interval : {0, -32, 48, 1}) {
    EXPECT_THROW(bro_coo_from_csr(a, {interval}), InvalidArgument) << interval;
    EXPECT_THROW(bro_coo_footprint(a, {interval}), InvalidArgument) << interval;
  }
}

// Every entry `gap` rows below the previous one: a warp step spans 32 gaps.
Csr<double> spread_entries(index_t entries, index_t gap) {
  std::vector<std::tuple<index_t, index_t, double>> triplets;
  for (index_t k = 0; k < entries; ++k) triplets.emplace_back(k * gap, k % 7, 1.0);
  return test::from_triplets(entries * gap, 7, triplets);
}

TEST(BroCooFormat, DenseRowsAndBandsCompressWellScatteredRowsLess) {
  // 64 entries per row: deltas of 0 or 1, one bit per entry against 32.
  const auto dense = bro_coo_metrics(bro_coo_from_csr(test::zoo_matrix("dense_block_64x64")));
  EXPECT_GT(dense.against_uncompressed.space_savings(), 0.9);
  // 7 entries per row: a step spans about 5 rows, 3 bits per entry.
  const auto banded = bro_coo_metrics(bro_coo_from_csr(test::zoo_matrix("banded_2000_bw3")));
  EXPECT_GT(banded.against_uncompressed.space_savings(), 0.85);
  EXPECT_LT(banded.against_uncompressed.space_savings(),
            dense.against_uncompressed.space_savings());
  EXPECT_GT(banded.against_uncompressed.compression_ratio(), 1 / (1 - 0.85));
  // One entry every 4096 rows: a step spans 2^17 rows, 18 bits per entry.
  const auto scattered = bro_coo_metrics(bro_coo_from_csr(spread_entries(3000, 4096)));
  EXPECT_GT(scattered.against_uncompressed.space_savings(), 0.3);
  EXPECT_LT(scattered.against_uncompressed.space_savings(), 0.5);
  // Against CSR the columns count as well, and CSR's rows take only 4 bytes
  // per row (0.57 per entry here): BRO-COO's 0.4 save little.
  EXPECT_GT(banded.against_csr.space_savings(), 0.0);
  EXPECT_LT(banded.against_csr.space_savings(), 0.1);
  EXPECT_EQ(banded.nnz, test::zoo_matrix("banded_2000_bw3").nnz());
}

}  // namespace
}  // namespace spmv
