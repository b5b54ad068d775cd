// The nnz-balanced row partition of the cpu backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "cpu/row_partition.hpp"
#include "test_support.hpp"

namespace spmv::detail {
namespace {

TEST(RowPartition, CoversEveryRowOnceAndBalancesWork) {
  for (const auto& [name, a] : test::matrix_zoo()) {
    index_t longest = 0;
    for (index_t r = 0; r < a.rows; ++r) longest = std::max(longest, a.row_length(r));
    const std::int64_t total = std::int64_t{a.nnz()} + a.rows;
    for (int chunks : {1, 2, 3, 8, 64}) {
      SCOPED_TRACE(name + " / " + std::to_string(chunks) + " chunks");
      const RowPartition p = balanced_row_partition(a.row_ptr, chunks);
      ASSERT_EQ(p.chunks(), chunks);
      EXPECT_EQ(p.begin(0), 0);
      EXPECT_EQ(p.end(chunks - 1), a.rows);
      for (int c = 0; c < chunks; ++c) {
        ASSERT_LE(p.begin(c), p.end(c));
        // A chunk exceeds its share by at most one row's work.
        const std::int64_t work =
            std::int64_t{a.row_ptr[p.end(c)] - a.row_ptr[p.begin(c)]} + (p.end(c) - p.begin(c));
        EXPECT_LE(work, total / chunks + longest + 2);
      }
    }
  }
}

TEST(RowPartition, SplitsEqualRowsEvenly) {
  // 8 rows of 3 non-zeros each into 4 chunks: 2 rows per chunk.
  std::vector<index_t> row_ptr;
  for (index_t r = 0; r <= 8; ++r) row_ptr.push_back(3 * r);
  EXPECT_EQ(balanced_row_partition(row_ptr, 4).chunk_begin, (std::vector<index_t>{0, 2, 4, 6, 8}));
}

TEST(RowPartition, OneLongRowGetsAChunkOfItsOwn) {
  // Row 2 holds 100 of the 104 non-zeros: the split points sit around it.
  const std::vector<index_t> row_ptr{0, 1, 2, 102, 103, 104};
  EXPECT_EQ(balanced_row_partition(row_ptr, 2).chunk_begin, (std::vector<index_t>{0, 3, 5}));
}

}  // namespace
}  // namespace spmv::detail
