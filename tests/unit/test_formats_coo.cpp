// COO and the segmented-scan format: neither pads, so neither is refused.
#include <gtest/gtest.h>

#include "spmv/formats/coo.hpp"
#include "spmv/formats/segmented.hpp"
#include "test_formats_support.hpp"

namespace spmv {
namespace {

template <class T>
class UnpaddedFormats : public ::testing::Test {};
TYPED_TEST_SUITE(UnpaddedFormats, test::FormatValueTypes);

TYPED_TEST(UnpaddedFormats, CooProductMatchesReferenceOnTheZoo) {
  using T = TypeParam;
  const auto refused = test::check_format_on_zoo<T>([](const Csr<T>& a) { return to_coo(a); },
                                                    [](const Csr<T>& a) { return coo_footprint(a); });
  EXPECT_TRUE(refused.empty());
}

TYPED_TEST(UnpaddedFormats, SegmentedProductMatchesReferenceOnTheZoo) {
  using T = TypeParam;
  const auto refused = test::check_format_on_zoo<T>([](const Csr<T>& a) { return segmented_from_csr(a); },
                                                    [](const Csr<T>& a) { return segmented_footprint(a); });
  EXPECT_TRUE(refused.empty());
}

TEST(UnpaddedFormats, CooProductOfUnsortedTripletsAddsDuplicates) {
  Coo<double> coo;
  coo.rows = 2;
  coo.cols = 3;
  coo.push(1, 2, 1.0);
  coo.push(0, 0, 2.0);
  coo.push(1, 2, 0.5);
  const double x[3] = {1.0, 10.0, 100.0};
  double y[2] = {7.0, 7.0};
  multiply(coo, x, y, 2.0, -1.0);
  EXPECT_EQ(y[0], 2.0 * 2.0 - 7.0);
  EXPECT_EQ(y[1], 2.0 * 150.0 - 7.0);
}

TEST(UnpaddedFormats, HeadFlagsMarkTheFirstEntryOfEachNonEmptyRow) {
  const Csr<double> a = test::zoo_matrix("empty_rows_mixed_1500");
  const Segmented<double> s = segmented_from_csr(a);
  ASSERT_EQ(s.head_flags.size(), static_cast<std::size_t>(a.nnz()));
  index_t heads = 0;
  for (index_t r = 0; r < a.rows; ++r) {
    if (a.row_length(r) == 0) continue;
    ++heads;
    EXPECT_EQ(s.head_flags[a.row_ptr[r]], 1) << "row " << r;
  }
  index_t flagged = 0;
  for (auto flag : s.head_flags) flagged += flag;
  EXPECT_EQ(flagged, heads);
  EXPECT_EQ(segmented_footprint(a).bytes, segmented_footprint(a).csr_bytes + a.nnz());
}

}  // namespace
}  // namespace spmv
