// BRO-HYB: HYB's split into a BRO-ELL and a BRO-COO part, exact round
// trips and the product on the zoo and the real matrices, forced splits,
// the footprint, the padding limit and the metrics.
#include <gtest/gtest.h>

#include <vector>

#include "spmv/formats/bro_hyb.hpp"
#include "spmv/formats/hyb.hpp"
#include "spmv/io.hpp"
#include "test_formats_support.hpp"

namespace spmv {
namespace {

template <class T>
void expect_exact_round_trip(const Csr<T>& a, const BroHybOptions& options) {
  const BroHyb<T> bro = bro_hyb_from_csr(a, options);
  EXPECT_EQ(bro.ell.nnz + bro.coo.nnz(), a.nnz());
  EXPECT_TRUE(to_csr(bro) == a);
  test::expect_product_matches_reference(a, bro);
}

BroHybOptions split_at(index_t ell_width) {
  BroHybOptions options;
  options.ell_width = ell_width;
  return options;
}

template <class Vector>
std::size_t bytes_of(const Vector& v) {
  return v.size() * sizeof(typename Vector::value_type);
}

// Every array of both parts.
template <class T>
std::size_t stored_bytes(const BroHyb<T>& a) {
  const BroEll<T>& e = a.ell;
  const BroCoo<T>& c = a.coo;
  return bytes_of(e.width_offset) + bytes_of(e.widths) + bytes_of(e.symbol_offset) +
         bytes_of(e.symbols) + bytes_of(e.values) + bytes_of(e.value_table) +
         bytes_of(e.code_symbol_offset) + bytes_of(e.code_symbols) + bytes_of(c.base_row) +
         bytes_of(c.symbol_offset) + bytes_of(c.widths) + bytes_of(c.symbols) +
         bytes_of(c.col_idx) + bytes_of(c.values);
}

template <class T>
class BroHybFormat : public ::testing::Test {};
TYPED_TEST_SUITE(BroHybFormat, test::FormatValueTypes);

TYPED_TEST(BroHybFormat, ProductMatchesReferenceOnTheZoo) {
  using T = TypeParam;
  const auto refused =
      test::check_format_on_zoo<T>([](const Csr<T>& a) { return bro_hyb_from_csr(a); },
                                   [](const Csr<T>& a) { return bro_hyb_footprint(a); });
  EXPECT_TRUE(refused.empty()) << refused.front();
}

TYPED_TEST(BroHybFormat, RoundTripIsExactOnTheZooForEverySplit) {
  using T = TypeParam;
  for (const auto& [name, matrix] : test::matrix_zoo()) {
    SCOPED_TRACE(name);
    const Csr<T> a = cast<T>(matrix);
    for (index_t width : {-1, 0, 1, 3, 7}) {
      SCOPED_TRACE("ell_width=" + std::to_string(width));
      BroHybOptions options = split_at(width);
      options.ell.max_padding = 1000;
      options.coo.interval = 64;
      expect_exact_round_trip(a, options);
    }
  }
}

TYPED_TEST(BroHybFormat, FootprintIsWhatTheBuilderStores) {
  using T = TypeParam;
  for (const auto& [name, matrix] : test::matrix_zoo()) {
    SCOPED_TRACE(name);
    const Csr<T> a = cast<T>(matrix);
    BroHybOptions options = split_at(3);
    options.ell.max_padding = 1000;
    const FormatFootprint f = bro_hyb_footprint(a, options);
    const BroHyb<T> bro = bro_hyb_from_csr(a, options);
    EXPECT_EQ(f.bytes, stored_bytes(bro));
    EXPECT_EQ(f.nnz, a.nnz());
    EXPECT_EQ(f.csr_bytes, csr_bytes(a.rows, a.nnz(), sizeof(T)));
  }
}

TEST(BroHybFormat, RoundTripIsExactOnTheRealMatrices) {
  const auto files = test::real_matrix_files();
  if (files.empty()) GTEST_SKIP() << "no real matrices under " << test::shared_data_dir();
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    const Csr<double> a = read_matrix<double>(file);
    try {
      expect_exact_round_trip(a, {});
    } catch (const FormatLimitError& refusal) {
      // Only a split whose ELL part pads beyond the limit may be refused.
      EXPECT_FALSE(bro_hyb_footprint(a).within_limit(default_max_padding)) << refusal.what();
    }
  }
}

// 5000 rows of length 4 and 100 of length 50 (as in test_formats_hyb.cpp):
// the Bell-Garland rule takes K = 4.
Csr<double> short_rows_and_long_tails() {
  Coo<double> coo;
  coo.rows = 5100;
  coo.cols = 5100;
  for (index_t r = 0; r < coo.rows; ++r)
    for (index_t k = 0; k < (r < 5000 ? 4 : 50); ++k) coo.push(r, (r + 37 * k) % coo.cols, 1.0 + k);
  return to_csr(coo);
}

TEST(BroHybFormat, SplitsAsHybDoes) {
  const Csr<double> a = short_rows_and_long_tails();
  const Hyb<double> hyb = hyb_from_csr(a);
  const BroHyb<double> bro = bro_hyb_from_csr(a);
  ASSERT_EQ(hyb.ell.width, 4);
  EXPECT_EQ(bro.ell.longest_row, 4);
  EXPECT_EQ(bro.ell.nnz, hyb.ell.nnz);
  EXPECT_EQ(to_coo(bro.coo).row_idx, hyb.coo.row_idx);
  EXPECT_EQ(to_coo(bro.coo).col_idx, hyb.coo.col_idx);
  EXPECT_EQ(to_coo(bro.coo).values, hyb.coo.values);
  EXPECT_DOUBLE_EQ(bro_hyb_ell_fraction(bro), 5100.0 * 4 / (5000 * 4 + 100 * 50));
  EXPECT_EQ(bro_hyb_ell_fraction(bro_hyb_from_csr(a, split_at(0))), 0.0);
  EXPECT_EQ(bro_hyb_ell_fraction(bro_hyb_from_csr(Csr<double>{})), 0.0);
}

TEST(BroHybFormat, RefusesAnEllPartTooWideAndBadOptions) {
  const Csr<double> a = test::zoo_matrix("one_huge_row_3000");
  BroHybOptions options = split_at(2900);
  try {
    bro_hyb_from_csr(a, options);
    FAIL() << "BRO-HYB with an ELL part as wide as the huge row was not refused";
  } catch (const FormatLimitError& e) {
    EXPECT_NE(std::string(e.what()).find("BRO-HYB would need "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("BRO-ELL part of width 2900"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("use a smaller ell_width"), std::string::npos) << e.what();
  }
  options.ell_width = -2;
  EXPECT_THROW(bro_hyb_from_csr(a, options), InvalidArgument);
  options.ell_width = 3;
  options.coo.interval = 40;
  EXPECT_THROW(bro_hyb_from_csr(a, options), InvalidArgument);
  options.coo.interval = 64;
  options.ell.slice_height = 100;
  EXPECT_THROW(bro_hyb_footprint(a, options), InvalidArgument);
}

TEST(BroHybFormat, MetricsCountBothPartsIndexData) {
  const Csr<double> a = short_rows_and_long_tails();
  const BroHyb<double> bro = bro_hyb_from_csr(a);
  const CompressionMetrics ell = bro_ell_metrics(bro.ell);
  const CompressionMetrics coo = bro_coo_metrics(bro.coo);
  const CompressionMetrics whole = bro_hyb_metrics(bro);
  const std::size_t coo_columns = bro.coo.nnz() * sizeof(index_t);
  // HYB's index data: 5100 x 4 ELL columns, 100 x 46 COO rows and columns.
  EXPECT_EQ(whole.against_uncompressed.original_index_bytes, (5100u * 4 + 2 * 100u * 46) * 4);
  EXPECT_EQ(whole.against_uncompressed.compressed_index_bytes,
            ell.against_uncompressed.compressed_index_bytes +
                coo.against_uncompressed.compressed_index_bytes + coo_columns);
  EXPECT_EQ(whole.against_csr.original_index_bytes, (a.nnz() + a.rows + 1u) * 4);
  EXPECT_EQ(whole.against_csr.compressed_index_bytes,
            whole.against_uncompressed.compressed_index_bytes);
  EXPECT_EQ(whole.matrix_bytes, ell.matrix_bytes + coo.matrix_bytes);
  EXPECT_EQ(whole.nnz, a.nnz());
  const double eta = whole.against_uncompressed.space_savings();
  EXPECT_GT(eta, 0.0);
  EXPECT_LT(eta, 1.0);
}

TEST(BroHybFormat, BandedMatricesSaveMostOfTheirIndexData) {
  // K = 7: every row in the BRO-ELL part, column deltas of 1.
  const Csr<double> banded = test::zoo_matrix("banded_2000_bw3");
  const BroHyb<double> bro = bro_hyb_from_csr(banded, split_at(7));
  EXPECT_EQ(bro_hyb_ell_fraction(bro), 1.0);
  EXPECT_GT(bro_hyb_metrics(bro).against_uncompressed.space_savings(), 0.8);
  // A power-law matrix keeps much in BRO-COO, whose columns are not compressed.
  const BroHyb<double> power_law =
      bro_hyb_from_csr(test::zoo_matrix("power_law_4000"), split_at(2));
  EXPECT_LT(bro_hyb_ell_fraction(power_law), 1.0);
  EXPECT_LT(bro_hyb_metrics(power_law).against_uncompressed.space_savings(),
            bro_hyb_metrics(bro).against_uncompressed.space_savings());
}

}  // namespace
}  // namespace spmv
