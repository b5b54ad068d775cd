// Canonical Csr construction and the structural operations of matrix.hpp.
#include <gtest/gtest.h>

#include "core/csr_assembly.hpp"
#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/matrix.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

Coo<double> small_coo() {
  // [ 1 0 2 ]
  // [ 0 0 0 ]
  // [ 3 4 0 ]   given unsorted, with (0,2) split into 1.5 + 0.5
  Coo<double> coo;
  coo.rows = 3;
  coo.cols = 3;
  coo.push(2, 1, 4.0);
  coo.push(0, 2, 1.5);
  coo.push(2, 0, 3.0);
  coo.push(0, 0, 1.0);
  coo.push(0, 2, 0.5);
  return coo;
}

TEST(Csr, CanonicalFromUnsortedCooWithDuplicates) {
  const Csr<double> a = to_csr(small_coo());
  EXPECT_EQ(a.rows, 3);
  EXPECT_EQ(a.cols, 3);
  EXPECT_EQ(a.row_ptr, (std::vector<index_t>{0, 2, 2, 4}));
  EXPECT_EQ(a.col_idx, (std::vector<index_t>{0, 2, 0, 1}));
  EXPECT_EQ(a.values, (std::vector<double>{1.0, 2.0, 3.0, 4.0}));
  EXPECT_NO_THROW(validate(a));
}

TEST(Csr, ExplicitZerosAreKept) {
  Coo<double> coo;
  coo.rows = 2;
  coo.cols = 2;
  coo.push(1, 1, 0.0);
  const Csr<double> a = to_csr(coo);
  EXPECT_EQ(a.nnz(), 1);
  EXPECT_EQ(a.values[0], 0.0);
}

TEST(Csr, OutOfRangeCooEntryIsRefused) {
  Coo<double> coo = small_coo();
  coo.push(3, 0, 1.0);
  EXPECT_THROW(to_csr(coo), InvalidArgument);
  Coo<double> negative;
  negative.rows = -2;
  negative.cols = 3;
  EXPECT_THROW(to_csr(negative), InvalidArgument);
}

TEST(Csr, FromArraysValidatesAndCanonicalises) {
  const Csr<double> a = csr_from_arrays<double>(2, 3, {0, 2, 3}, {2, 0, 1}, {5.0, 6.0, 7.0});
  EXPECT_EQ(a.col_idx, (std::vector<index_t>{0, 2, 1}));
  EXPECT_EQ(a.values, (std::vector<double>{6.0, 5.0, 7.0}));
  EXPECT_THROW(csr_from_arrays<double>(2, 3, {0, 2}, {0, 1}, {1.0, 1.0}), InvalidArgument);
  EXPECT_THROW(csr_from_arrays<double>(2, 3, {0, 2, 1}, {0, 1}, {1.0, 1.0}), InvalidArgument);
  EXPECT_THROW(csr_from_arrays<double>(2, 3, {0, 1, 2}, {0, 3}, {1.0, 1.0}), InvalidArgument);
  EXPECT_THROW(csr_from_arrays<double>(2, 3, {0, 1, 2}, {0, 1}, {1.0}), InvalidArgument);
}

TEST(Csr, ValidateRejectsUnsortedRows) {
  Csr<double> a = to_csr(small_coo());
  std::swap(a.col_idx[2], a.col_idx[3]);
  EXPECT_THROW(validate(a), InvalidArgument);
}

// Large enough for the parallel check: the message names the first row whose
// pointer decreases, as a serial check would.
TEST(Csr, ValidateNamesTheFirstDecreasingRowPointer) {
  Csr<double> a = generate(parse_generator_spec("stencil5:nx=400,ny=400"));
  std::swap(a.row_ptr[150001], a.row_ptr[150002]);
  std::swap(a.row_ptr[20001], a.row_ptr[20002]);
  try {
    validate(a);
    ADD_FAILURE() << "validate accepted decreasing row pointers";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("row_ptr decreases at row 20001"), std::string::npos) << e.what();
  }
}

TEST(Csr, SizesBeyondInt32AreRefused) {
  EXPECT_THROW(check_index_range(std::int64_t(1) << 31, 5, 0, "test"), SizeError);
  EXPECT_THROW(check_index_range(5, 5, std::int64_t(3) << 31, "test"), SizeError);
  EXPECT_NO_THROW(check_index_range(max_index, max_index, max_index, "test"));
}

TEST(Csr, TransposeTwiceIsIdentityOnTheZoo) {
  for (const auto& m : test::matrix_zoo()) {
    const Csr<double> t = transpose(m.matrix);
    EXPECT_NO_THROW(validate(t)) << m.name;
    EXPECT_EQ(t.rows, m.matrix.cols) << m.name;
    EXPECT_EQ(transpose(t), m.matrix) << m.name;
  }
}

// A symmetric (or skew-symmetric) matrix assembled from its lower triangle
// equals the Csr of the triangle plus its mirror image, built as a COO; the
// same positions without values (a pattern file) stand for ones.
TEST(Csr, AssembledTriangleEqualsTheExpandedCoo) {
  for (const auto& m : test::matrix_zoo()) {
    if (m.matrix.rows != m.matrix.cols) continue;
    for (const double sign : {1.0, -1.0}) {
      const Coo<double> all = to_coo(m.matrix);
      Coo<double> triangle, expanded, expanded_ones;
      triangle.rows = triangle.cols = m.matrix.rows;
      expanded.rows = expanded.cols = expanded_ones.rows = expanded_ones.cols = m.matrix.rows;
      auto add = [&](index_t r, index_t c, double v) {
        triangle.push(r, c, v);
        expanded.push(r, c, v);
        expanded_ones.push(r, c, 1.0);
        if (r == c) return;
        expanded.push(c, r, sign * v);
        expanded_ones.push(c, r, sign);
      };
      for (index_t k = 0; k < all.nnz(); ++k)
        if (all.col_idx[k] < all.row_idx[k] || (sign > 0 && all.col_idx[k] == all.row_idx[k]))
          add(all.row_idx[k], all.col_idx[k], all.values[k]);
      if (triangle.nnz() > 0) add(triangle.row_idx[0], triangle.col_idx[0], 0.25);  // a duplicate, summed
      const std::string name = m.name + (sign < 0 ? " skew" : "");
      EXPECT_EQ(detail::assemble_csr(triangle, sign, "test"), to_csr(expanded)) << name;
      Coo<double> positions = triangle;
      positions.values.clear();
      EXPECT_EQ(detail::assemble_csr(positions, sign, "test"), to_csr(expanded_ones)) << name << " pattern";
    }
  }
  Coo<double> wide;
  wide.rows = 2;
  wide.cols = 3;
  EXPECT_THROW(detail::assemble_csr(wide, 1.0, "test"), InvalidArgument);
  Coo<double> valueless = small_coo();
  valueless.values.clear();
  EXPECT_THROW(to_csr(valueless), InvalidArgument);  // only the readers' assembly takes entries without values
}

TEST(Csr, TransposeByHand) {
  const Csr<double> t = transpose(to_csr(small_coo()));
  EXPECT_EQ(t.row_ptr, (std::vector<index_t>{0, 2, 3, 4}));
  EXPECT_EQ(t.col_idx, (std::vector<index_t>{0, 2, 2, 0}));
  EXPECT_EQ(t.values, (std::vector<double>{1.0, 3.0, 4.0, 2.0}));
}

TEST(Csr, PermuteMovesRowsAndColumns) {
  const Csr<double> a = to_csr(small_coo());
  // Reverse rows and columns: entry (i, j) moves to (2 - i, 2 - j).
  const Csr<double> p = permute(a, {2, 1, 0}, {2, 1, 0});
  EXPECT_EQ(p.row_ptr, (std::vector<index_t>{0, 2, 2, 4}));
  EXPECT_EQ(p.col_idx, (std::vector<index_t>{1, 2, 0, 2}));
  EXPECT_EQ(p.values, (std::vector<double>{4.0, 3.0, 2.0, 1.0}));
  EXPECT_EQ(permute(a, {}, {}), a);
  EXPECT_THROW(permute(a, {0, 0, 1}, {}), InvalidArgument);
  EXPECT_THROW(permute(a, {0, 1}, {}), InvalidArgument);
}

TEST(Csr, RowRangeExtractsRows) {
  const Csr<double> a = to_csr(small_coo());
  const Csr<double> s = row_range(a, 1, 3);
  EXPECT_EQ(s.rows, 2);
  EXPECT_EQ(s.row_ptr, (std::vector<index_t>{0, 0, 2}));
  EXPECT_EQ(s.col_idx, (std::vector<index_t>{0, 1}));
  EXPECT_EQ(row_range(a, 0, 3), a);
  EXPECT_EQ(row_range(a, 2, 2).nnz(), 0);
  EXPECT_THROW(row_range(a, 2, 4), InvalidArgument);
}

TEST(Csr, CooRoundTripAndCast) {
  const Csr<double> a = to_csr(small_coo());
  EXPECT_EQ(to_csr(to_coo(a)), a);
  const Csr<float> f = cast<float>(a);
  EXPECT_EQ(f.values, (std::vector<float>{1.f, 2.f, 3.f, 4.f}));
  EXPECT_EQ(cast<double>(f), a);
}

}  // namespace
}  // namespace spmv
