// replicate_block_diagonal: I_k (x) A, checked entry by entry against the
// definition and through products.
#include <gtest/gtest.h>

#include "spmv/error.hpp"
#include "spmv/matrix.hpp"
#include "spmv/reference.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

// [ 1 0 2 0 ]
// [ 0 0 0 0 ]   3 x 4 with an empty row
// [ 0 3 0 4 ]
Csr<double> small_rectangular() {
  return test::from_triplets(3, 4, {{0, 0, 1.0}, {0, 2, 2.0}, {2, 1, 3.0}, {2, 3, 4.0}});
}

TEST(ReplicateBlockDiagonal, MatchesTheKroneckerDefinition) {
  const Csr<double> a = small_rectangular();
  const index_t copies = 3;
  const Csr<double> r = replicate_block_diagonal(a, copies);
  EXPECT_NO_THROW(validate(r));
  ASSERT_EQ(r.rows, 9);
  ASSERT_EQ(r.cols, 12);
  ASSERT_EQ(r.nnz(), 12);
  // Entry (i, j) of I_k (x) A is A(i mod rows, j mod cols) when i and j lie in
  // the same diagonal block, else zero.
  std::vector<std::tuple<index_t, index_t, double>> expected;
  for (index_t c = 0; c < copies; ++c)
    for (index_t i = 0; i < a.rows; ++i)
      for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
        expected.emplace_back(c * a.rows + i, c * a.cols + a.col_idx[k], a.values[k]);
  EXPECT_EQ(r, test::from_triplets(9, 12, expected));
}

TEST(ReplicateBlockDiagonal, ProductIsTheBlockwiseProduct) {
  Csr<double> power_law;
  for (const test::ZooMatrix& entry : test::matrix_zoo())
    if (entry.name == "power_law_4000") power_law = entry.matrix;
  ASSERT_GT(power_law.nnz(), 0) << "zoo matrix power_law_4000 not found";
  const Csr<float> a = cast<float>(power_law);
  const index_t copies = 4;
  const Csr<float> r = replicate_block_diagonal(a, copies);
  const std::vector<float> x = test::random_vector<float>(static_cast<std::size_t>(r.cols), 7);
  std::vector<double> y(r.rows), y_block(a.rows);
  reference_spmv<float>(r, x.data(), nullptr, 1.0f, 0.0f, y.data());
  // The reference sums each row in the same order, so the blocks match exactly.
  for (index_t c = 0; c < copies; ++c) {
    reference_spmv<float>(a, x.data() + static_cast<std::size_t>(c) * a.cols, nullptr, 1.0f, 0.0f,
                          y_block.data());
    for (index_t i = 0; i < a.rows; ++i) ASSERT_EQ(y[c * a.rows + i], y_block[i]) << c << " " << i;
  }
}

TEST(ReplicateBlockDiagonal, OneCopyIsTheMatrixAndEmptyStaysEmpty) {
  const Csr<double> a = small_rectangular();
  EXPECT_EQ(replicate_block_diagonal(a, 1), a);
  const Csr<double> empty = replicate_block_diagonal(Csr<double>{}, 5);
  EXPECT_EQ(empty.rows, 0);
  EXPECT_EQ(empty.cols, 0);
  EXPECT_EQ(empty.row_ptr, std::vector<index_t>{0});
}

TEST(ReplicateBlockDiagonal, BadCopyCountsAreRefused) {
  const Csr<double> a = small_rectangular();
  EXPECT_THROW(replicate_block_diagonal(a, 0), InvalidArgument);
  EXPECT_THROW(replicate_block_diagonal(a, -2), InvalidArgument);
  // 3 * 2^30 rows exceed int32: refused before anything is allocated.
  EXPECT_THROW(replicate_block_diagonal(a, index_t{1} << 30), SizeError);
}

}  // namespace
}  // namespace spmv
