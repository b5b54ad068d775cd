// DIA: occupied diagonals, layout, product on the zoo, refusal of scattered matrices.
#include <gtest/gtest.h>

#include <algorithm>

#include "formats/dia_limits.hpp"
#include "spmv/formats/dia.hpp"
#include "test_formats_support.hpp"

namespace spmv {
namespace {

template <class T>
class DiaFormat : public ::testing::Test {};
TYPED_TEST_SUITE(DiaFormat, test::FormatValueTypes);

TYPED_TEST(DiaFormat, ProductMatchesReferenceOnTheZoo) {
  using T = TypeParam;
  const auto refused = test::check_format_on_zoo<T>([](const Csr<T>& a) { return dia_from_csr(a); },
                                                    [](const Csr<T>& a) { return dia_footprint(a); });
  EXPECT_TRUE(test::refused_none_of(refused, test::regular_matrices()));
  EXPECT_NE(std::find(refused.begin(), refused.end(), "power_law_4000"), refused.end());
}

TEST(DiaFormat, StoresOneColumnPerOccupiedDiagonal) {
  // [1 2 0 0]
  // [0 3 0 0]
  // [4 0 5 6]   (3 x 4: offsets -2, 0, 1)
  Coo<double> coo;
  coo.rows = 3;
  coo.cols = 4;
  for (auto [r, c, v] : {std::tuple{0, 0, 1.0}, {0, 1, 2.0}, {1, 1, 3.0}, {2, 0, 4.0}, {2, 2, 5.0}, {2, 3, 6.0}})
    coo.push(r, c, v);
  const Dia<double> dia = dia_from_csr(to_csr(coo), {100.0});
  EXPECT_EQ(dia.offsets, (std::vector<index_t>{-2, 0, 1}));
  EXPECT_EQ(dia.stride, 32);
  ASSERT_EQ(dia.values.size(), 3u * 32u);
  EXPECT_EQ(dia.values[0 * 32 + 2], 4.0);  // (2, 0)
  EXPECT_EQ(dia.values[0 * 32 + 0], 0.0);  // (0, -2) lies outside
  EXPECT_EQ(dia.values[1 * 32 + 1], 3.0);
  EXPECT_EQ(dia.values[1 * 32 + 2], 5.0);
  EXPECT_EQ(dia.values[2 * 32 + 0], 2.0);
  EXPECT_EQ(dia.values[2 * 32 + 1], 0.0);  // (1, 2) is not an entry
  EXPECT_EQ(dia.values[2 * 32 + 2], 6.0);
  const FormatFootprint f = dia_footprint(to_csr(coo));
  EXPECT_EQ(f.stored_entries, 3 * 32);
  EXPECT_EQ(f.bytes, 3u * 32u * 8u + 3u * 4u);
}

TEST(DiaFormat, RefusalCountsTheDiagonals) {
  try {
    dia_from_csr(test::zoo_matrix("power_law_4000"));
    FAIL() << "DIA of a power-law matrix was not refused";
  } catch (const FormatLimitError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("DIA would need ", 0), 0u) << message;
    EXPECT_NE(message.find(" occupied diagonals, mean row length "), std::string::npos) << message;
    EXPECT_NE(message.find("use ell, sell or csr-vector instead"), std::string::npos) << message;
  }
}

// The device build sizes its set of diagonals by dia_most_diagonals: the
// limit accepts that many and refuses one more (unless every diagonal there
// can be is accepted).
TEST(DiaFormat, MostDiagonalsIsTheLimitsEdge) {
  for (const auto& m : test::matrix_zoo()) {
    const Csr<double>& a = m.matrix;
    const std::size_t possible = a.rows > 0 && a.cols > 0 ? static_cast<std::size_t>(a.rows) + a.cols - 1 : 0;
    for (double max_padding : {1.0, default_max_padding, 40.0}) {
      SCOPED_TRACE(m.name + " max_padding " + std::to_string(max_padding));
      const std::size_t most = detail::dia_most_diagonals(a.rows, a.cols, a.nnz(), sizeof(double), max_padding);
      EXPECT_LE(most, possible);
      EXPECT_NO_THROW(detail::check_dia_limit(a.rows, a.nnz(), sizeof(double), most, max_padding));
      if (most < possible) {
        EXPECT_THROW(detail::check_dia_limit(a.rows, a.nnz(), sizeof(double), most + 1, max_padding), Error);
      }
    }
  }
}

}  // namespace
}  // namespace spmv
