// ELL: layout invariants, the reference product on the zoo, and refusals.
#include <gtest/gtest.h>

#include <algorithm>

#include "spmv/formats/ell.hpp"
#include "test_formats_support.hpp"

namespace spmv {
namespace {

template <class T>
class EllFormat : public ::testing::Test {};
TYPED_TEST_SUITE(EllFormat, test::FormatValueTypes);

TYPED_TEST(EllFormat, ProductMatchesReferenceOnTheZoo) {
  using T = TypeParam;
  const auto refused = test::check_format_on_zoo<T>([](const Csr<T>& a) { return ell_from_csr(a); },
                                                    [](const Csr<T>& a) { return ell_footprint(a); });
  EXPECT_TRUE(test::refused_none_of(refused, test::regular_matrices()));
  EXPECT_NE(std::find(refused.begin(), refused.end(), "one_huge_row_3000"), refused.end());
}

TEST(EllFormat, LayoutIsColumnMajorPaddedToTheLongestRow) {
  // [1 0 2]
  // [0 0 0]
  // [3 4 5]
  Coo<double> coo;
  coo.rows = 3;
  coo.cols = 3;
  for (auto [r, c, v] : {std::tuple{0, 0, 1.0}, {0, 2, 2.0}, {2, 0, 3.0}, {2, 1, 4.0}, {2, 2, 5.0}}) coo.push(r, c, v);
  const Ell<double> ell = ell_from_csr(to_csr(coo));  // 3 x 3: under the floor of the limit
  EXPECT_EQ(ell.width, 3);
  EXPECT_EQ(ell.stride, 32);
  EXPECT_EQ(ell.nnz, 5);
  ASSERT_EQ(ell.col_idx.size(), 3u * 32u);
  // Slot k of row r at k * stride + r; padding after each row's entries.
  EXPECT_EQ(ell.col_idx[0 * 32 + 0], 0);
  EXPECT_EQ(ell.col_idx[1 * 32 + 0], 2);
  EXPECT_EQ(ell.col_idx[2 * 32 + 0], padding_column);
  EXPECT_EQ(ell.col_idx[0 * 32 + 1], padding_column);
  EXPECT_EQ(ell.values[1 * 32 + 2], 4.0);
  EXPECT_EQ(ell.values[2 * 32 + 2], 5.0);
  EXPECT_EQ(ell.values[2 * 32 + 0], 0.0);
  EXPECT_EQ(ell.col_idx[0 * 32 + 3], padding_column);  // rows 3..31 are alignment padding
}

TEST(EllFormat, FootprintCountsPaddedSlots) {
  const Csr<double> a = test::zoo_matrix("one_huge_row_3000");
  const FormatFootprint f = ell_footprint(a);
  EXPECT_EQ(f.stored_entries, 2900 * 3008);  // longest row 2900, 3000 rows aligned to 3008
  EXPECT_EQ(f.bytes, static_cast<std::size_t>(f.stored_entries) * 12);
  EXPECT_EQ(f.csr_bytes, 3001u * 4 + static_cast<std::size_t>(a.nnz()) * 12);
  EXPECT_GT(f.padding_ratio(), 100.0);
}

TEST(EllFormat, RefusalSaysWhyAndWhatToUseInstead) {
  const Csr<double> a = test::zoo_matrix("one_huge_row_3000");
  try {
    ell_from_csr(a);
    FAIL() << "ELL of a matrix with one huge row was not refused";
  } catch (const FormatLimitError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("ELL would need ", 0), 0u) << message;
    EXPECT_NE(message.find("(longest row 2900, mean "), std::string::npos) << message;
    EXPECT_NE(message.find("use hyb or sell instead, or raise max_padding (now 3.0)"), std::string::npos)
        << message;
  }
  // A limit above the ratio lets it through.
  const double ratio = ell_footprint(a).padding_ratio();
  EXPECT_EQ(ell_from_csr(a, {ratio + 1}).width, 2900);
  EXPECT_THROW(ell_from_csr(a, {0.5}), InvalidArgument);
}

TEST(EllFormat, PartOfGivenWidthKeepsTheFirstEntriesOfEachRow) {
  const Csr<double> a = test::zoo_matrix("banded_2000_bw3");
  const Ell<double> part = ell_part_from_csr(a, 2);
  EXPECT_EQ(part.width, 2);
  EXPECT_EQ(part.nnz, 2 * a.rows);
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t k = 0; k < 2; ++k) EXPECT_EQ(part.col_idx[k * part.stride + r], a.col_idx[a.row_ptr[r] + k]);
}

}  // namespace
}  // namespace spmv
