// HYB: the Bell-Garland split, a forced split, and the product on the zoo.
#include <gtest/gtest.h>

#include <algorithm>

#include "spmv/formats/hyb.hpp"
#include "spmv/stats.hpp"
#include "test_formats_support.hpp"

namespace spmv {
namespace {

template <class T>
class HybFormat : public ::testing::Test {};
TYPED_TEST_SUITE(HybFormat, test::FormatValueTypes);

TYPED_TEST(HybFormat, ProductMatchesReferenceOnTheZoo) {
  using T = TypeParam;
  const auto refused = test::check_format_on_zoo<T>(
      [](const Csr<T>& a) { return hyb_from_csr(a); },
      [](const Csr<T>& a) { return hyb_footprint(a, hyb_ell_width(a)); });
  EXPECT_TRUE(refused.empty()) << refused.front();
}

TYPED_TEST(HybFormat, ForcedWidthsMatchReference) {
  using T = TypeParam;
  for (const char* name : {"power_law_4000", "one_huge_row_3000", "banded_2000_bw3", "tall_20000x40"}) {
    SCOPED_TRACE(name);
    const Csr<T> a = cast<T>(test::zoo_matrix(name));
    for (index_t width : {0, 1, 3, 7}) {
      SCOPED_TRACE("ell_width=" + std::to_string(width));
      const Hyb<T> hyb = hyb_from_csr(a, {width, 100.0});
      EXPECT_EQ(hyb.ell.width, width);
      EXPECT_EQ(hyb.ell.nnz + hyb.coo.nnz(), a.nnz());
      test::expect_product_matches_reference(a, hyb);
    }
  }
}

TEST(HybFormat, DefaultSplitIsTheBellGarlandRule) {
  // 5000 rows of length 4 and 100 of length 50: K = 4 puts the long tails in COO.
  Coo<double> coo;
  coo.rows = 5100;
  coo.cols = 5100;
  for (index_t r = 0; r < coo.rows; ++r)
    for (index_t k = 0; k < (r < 5000 ? 4 : 50); ++k) coo.push(r, (r + 37 * k) % coo.cols, 1.0 + k);
  const Csr<double> a = to_csr(coo);
  std::vector<index_t> lengths(a.rows);
  for (index_t r = 0; r < a.rows; ++r) lengths[r] = a.row_length(r);
  EXPECT_EQ(hyb_ell_width(a), hyb_split_width(lengths));
  const Hyb<double> hyb = hyb_from_csr(a);
  EXPECT_EQ(hyb.ell.width, 4);
  EXPECT_EQ(hyb.coo.nnz(), 100 * 46);
  // COO part in row-major order, as the GPU kernel requires.
  EXPECT_TRUE(std::is_sorted(hyb.coo.row_idx.begin(), hyb.coo.row_idx.end()));
  EXPECT_THROW(hyb_from_csr(a, {-2}), InvalidArgument);
}

TEST(HybFormat, RefusesAnEllPartTooWide) {
  const Csr<double> a = test::zoo_matrix("one_huge_row_3000");
  try {
    hyb_from_csr(a, {2900});
    FAIL() << "HYB with an ELL part as wide as the huge row was not refused";
  } catch (const FormatLimitError& e) {
    EXPECT_NE(std::string(e.what()).find("HYB would need "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("ELL part of width 2900"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace spmv
