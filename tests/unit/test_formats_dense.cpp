// Dense copy for the cuBLAS crossover: layout, product, and the size limit.
#include <gtest/gtest.h>

#include "spmv/formats/dense.hpp"
#include "test_formats_support.hpp"

namespace spmv {
namespace {

template <class T>
class DenseFormat : public ::testing::Test {};
TYPED_TEST_SUITE(DenseFormat, test::FormatValueTypes);

TYPED_TEST(DenseFormat, ProductMatchesReferenceOnTheZoo) {
  using T = TypeParam;
  for (const auto& [name, matrix] : test::matrix_zoo()) {
    SCOPED_TRACE(name);
    const Csr<T> a = cast<T>(matrix);
    test::expect_product_matches_reference(a, dense_from_csr(a));
  }
}

TEST(DenseFormat, ColumnMajorWithZerosOutsideTheEntries) {
  Coo<double> coo;
  coo.rows = 2;
  coo.cols = 3;
  coo.push(0, 2, 1.5);
  coo.push(1, 0, -2.0);
  const Dense<double> d = dense_from_csr(to_csr(coo));
  EXPECT_EQ(d.values, (std::vector<double>{0.0, -2.0, 0.0, 0.0, 1.5, 0.0}));
  EXPECT_EQ(dense_footprint(to_csr(coo)).bytes, 6u * 8u);
}

TEST(DenseFormat, RefusedBeyondItsSizeLimit) {
  const Csr<double> a = test::zoo_matrix("banded_2000_bw3");  // 2000 x 2000 doubles: 30.5 MiB
  try {
    dense_from_csr(a, {std::size_t(16) << 20});
    FAIL() << "a 30.5 MiB dense copy was not refused under a 16 MiB limit";
  } catch (const FormatLimitError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("dense would need 30.5 MiB (2000 x 2000, ", 0), 0u) << message;
    EXPECT_NE(message.find("beyond its limit of 16.0 MiB: use a sparse format"), std::string::npos) << message;
  }
  EXPECT_EQ(dense_from_csr(a, {std::size_t(32) << 20}).values.size(), 2000u * 2000u);
}

}  // namespace
}  // namespace spmv
