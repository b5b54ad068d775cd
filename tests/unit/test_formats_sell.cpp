// SELL-C-sigma: sorting windows, chunk widths, the row permutation kept
// inside, and the product on the zoo for several C and sigma.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "spmv/formats/sell.hpp"
#include "test_formats_support.hpp"

namespace spmv {
namespace {

template <class T>
class SellFormat : public ::testing::Test {};
TYPED_TEST_SUITE(SellFormat, test::FormatValueTypes);

TYPED_TEST(SellFormat, ProductMatchesReferenceOnTheZoo) {
  using T = TypeParam;
  for (const SellOptions options : {SellOptions{32, 256}, SellOptions{8, 1}, SellOptions{4, 4096}, SellOptions{1, 7}}) {
    SCOPED_TRACE("C=" + std::to_string(options.chunk_rows) + " sigma=" + std::to_string(options.sigma));
    const auto refused = test::check_format_on_zoo<T>(
        [&](const Csr<T>& a) { return sell_from_csr(a, options); },
        [&](const Csr<T>& a) { return sell_footprint(a, options); });
    EXPECT_TRUE(test::refused_none_of(refused, test::regular_matrices()));
  }
}

TEST(SellFormat, SortsWithinWindowsAndPadsEachChunkToItsLongestRow) {
  const Csr<double> a = test::zoo_matrix("power_law_4000");
  const SellOptions options{32, 256, 100.0};
  const Sell<double> sell = sell_from_csr(a, options);
  // row_of is a permutation that keeps rows inside their window, sorted by decreasing length.
  std::vector<index_t> seen = sell.row_of;
  std::sort(seen.begin(), seen.end());
  std::vector<index_t> identity(a.rows);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(seen, identity);
  for (index_t p = 0; p < a.rows; ++p) {
    EXPECT_EQ(sell.row_of[p] / 256, p / 256) << p;
    EXPECT_EQ(sell.row_length[p], a.row_length(sell.row_of[p]));
    if (p % 256 != 0) {
      EXPECT_LE(sell.row_length[p], sell.row_length[p - 1]) << p;
    }
  }
  ASSERT_EQ(sell.chunk_ptr.size(), static_cast<std::size_t>((a.rows + 31) / 32 + 1));
  for (std::size_t c = 0; c + 1 < sell.chunk_ptr.size(); ++c) {
    const index_t widest = *std::max_element(sell.row_length.begin() + c * 32,
                                             sell.row_length.begin() + std::min<std::size_t>(a.rows, (c + 1) * 32));
    EXPECT_EQ(sell.chunk_ptr[c + 1] - sell.chunk_ptr[c], widest * 32) << "chunk " << c;
  }
  // Sorting reduces the padding against no sorting.
  EXPECT_LT(sell_footprint(a, options).stored_entries, sell_footprint(a, SellOptions{32, 1}).stored_entries);
}

TEST(SellFormat, SigmaOneKeepsTheRowOrder) {
  const Csr<double> a = test::zoo_matrix("empty_rows_mixed_1500");
  const Sell<double> sell = sell_from_csr(a, SellOptions{16, 1});
  for (index_t p = 0; p < a.rows; ++p) EXPECT_EQ(sell.row_of[p], p);
  // Entry j of position p at chunk_ptr[p / C] + j * C + p % C.
  for (index_t p = 0; p < a.rows; ++p)
    for (index_t j = 0; j < a.row_length(p); ++j)
      EXPECT_EQ(sell.col_idx[sell.chunk_ptr[p / 16] + j * 16 + p % 16], a.col_idx[a.row_ptr[p] + j]);
}

TEST(SellFormat, RejectsBadChunkAndWindowSizes) {
  const Csr<double> a = test::zoo_matrix("banded_2000_bw3");
  EXPECT_THROW(sell_from_csr(a, SellOptions{0, 1}), InvalidArgument);
  EXPECT_THROW(sell_from_csr(a, SellOptions{32, 48}), InvalidArgument);
  EXPECT_THROW(sell_footprint(a, SellOptions{32, 0}), InvalidArgument);
}

TEST(SellFormat, RefusalNamesCAndSigma) {
  try {
    sell_from_csr(test::zoo_matrix("one_huge_row_3000"));
    FAIL() << "SELL of a matrix with one huge row was not refused";
  } catch (const FormatLimitError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("SELL-32-256 would need ", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace spmv
