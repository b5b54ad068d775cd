// Baskaran's blocked format: the inspector's alignment rules, segment
// padding to half-warps, fill-in, and the product on the zoo.
#include <gtest/gtest.h>

#include <algorithm>

#include "spmv/formats/blocked.hpp"
#include "test_formats_support.hpp"

namespace spmv {
namespace {

template <class T>
class BlockedFormat : public ::testing::Test {};
TYPED_TEST_SUITE(BlockedFormat, test::FormatValueTypes);

TYPED_TEST(BlockedFormat, ProductMatchesReferenceOnTheZoo) {
  using T = TypeParam;
  for (const BlockedOptions options : {BlockedOptions{4, 64}, BlockedOptions{1, 16}, BlockedOptions{8, 256},
                                       BlockedOptions{3, 1024}}) {
    SCOPED_TRACE("b_r=" + std::to_string(options.block_rows) + " b_c=" + std::to_string(options.block_cols));
    const auto refused = test::check_format_on_zoo<T>(
        [&](const Csr<T>& a) { return blocked_from_csr(a, options); },
        [&](const Csr<T>& a) { return blocked_footprint(a, options); });
    // A diagonal pads every row from 1 entry to a half-warp: refusing it is right.
    std::vector<std::string> must_accept = test::always_accepted();
    must_accept.push_back("banded_2000_bw3");
    EXPECT_TRUE(test::refused_none_of(refused, must_accept));
    EXPECT_NE(std::find(refused.begin(), refused.end(), "diagonal_1000"), refused.end());
  }
}

// Every block starts at a half-warp multiple, every row segment is a
// multiple of a half-warp, and every entry of A appears once in the block
// covering its column.
void expect_valid_layout(const Csr<double>& a, const Blocked<double>& b) {
  ASSERT_EQ(b.row_block_ptr.size(), static_cast<std::size_t>((a.rows + b.block_rows - 1) / b.block_rows + 1));
  ASSERT_EQ(b.block_entry_ptr.size(), b.block_col.size() + 1);
  ASSERT_EQ(b.row_units.size(), b.block_col.size() * b.block_rows);
  index_t real_entries = 0;
  for (std::size_t rb = 0; rb + 1 < b.row_block_ptr.size(); ++rb) {
    for (index_t block = b.row_block_ptr[rb]; block < b.row_block_ptr[rb + 1]; ++block) {
      EXPECT_EQ(b.block_col[block] % blocked_alignment, 0);
      if (block > b.row_block_ptr[rb]) {
        EXPECT_GE(b.block_col[block], b.block_col[block - 1] + b.block_cols);
      }
      index_t entry = b.block_entry_ptr[block];
      for (index_t q = 0; q < b.block_rows; ++q) {
        const index_t length = b.row_units[block * b.block_rows + q] * blocked_alignment;
        for (index_t k = entry; k < entry + length; ++k) {
          if (b.col_offset[k] == b.block_cols) continue;  // padding
          EXPECT_LT(b.col_offset[k], b.block_cols);
          ++real_entries;
        }
        entry += length;
      }
      EXPECT_EQ(entry, b.block_entry_ptr[block + 1]);
    }
  }
  EXPECT_EQ(real_entries, a.nnz());
}

TEST(BlockedFormat, InspectorAlignsBlocksAndPadsSegmentsToHalfWarps) {
  for (const char* name : {"banded_2000_bw3", "dense_block_64x64", "empty_rows_mixed_1500", "wide_50x20000"}) {
    SCOPED_TRACE(name);
    const Csr<double> a = test::zoo_matrix(name);
    expect_valid_layout(a, blocked_from_csr(a, {4, 64, 100.0}));
    expect_valid_layout(a, blocked_from_csr(a, {3, 32, 100.0}));
  }
}

TEST(BlockedFormat, HandExampleOfOneRowBlock) {
  // Row 0: columns 5, 20, 70; row 1: column 66; b_r = 2, b_c = 32.
  // Blocks: [0, 32) holds row 0's 5 and 20; [64, 96) holds 70 and 66.
  Coo<double> coo;
  coo.rows = 2;
  coo.cols = 100;
  coo.push(0, 5, 1.0);
  coo.push(0, 20, 2.0);
  coo.push(0, 70, 3.0);
  coo.push(1, 66, 4.0);
  const Blocked<double> b = blocked_from_csr(to_csr(coo), {2, 32, 100.0});
  EXPECT_EQ(b.block_col, (std::vector<index_t>{0, 64}));
  EXPECT_EQ(b.row_units, (std::vector<std::uint8_t>{1, 0, 1, 1}));
  EXPECT_EQ(b.block_entry_ptr, (std::vector<index_t>{0, 16, 48}));
  EXPECT_EQ(b.col_offset[0], 5);
  EXPECT_EQ(b.col_offset[1], 20);
  EXPECT_EQ(b.col_offset[2], 32);  // padding: one past the staged x
  EXPECT_EQ(b.values[2], 0.0);
  EXPECT_EQ(b.col_offset[16], 6);
  EXPECT_EQ(b.col_offset[32], 2);
  EXPECT_EQ(b.values[32], 4.0);
  const FormatFootprint f = blocked_footprint(to_csr(coo), {2, 32});
  EXPECT_EQ(f.stored_entries, 48);
  EXPECT_DOUBLE_EQ(f.fill_ratio(), 12.0);
}

TEST(BlockedFormat, RefusesScatteredMatricesWithTheFillIn) {
  try {
    blocked_from_csr(test::zoo_matrix("tall_20000x40"));
    FAIL() << "a matrix of short rows (each padded to 16 entries) was not refused";
  } catch (const FormatLimitError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("blocked 4x64 would need ", 0), 0u) << message;
    EXPECT_NE(message.find("fill-in "), std::string::npos) << message;
    EXPECT_NE(message.find(" blocks): use csr-vector, sell or smaller block_cols instead"), std::string::npos)
        << message;
  }
}

TEST(BlockedFormat, RejectsBadBlockShapes) {
  const Csr<double> a = test::zoo_matrix("banded_2000_bw3");
  EXPECT_THROW(blocked_from_csr(a, {0, 64}), InvalidArgument);
  EXPECT_THROW(blocked_from_csr(a, {4, 40}), InvalidArgument);
  EXPECT_THROW(blocked_from_csr(a, {4, 2048}), InvalidArgument);
}

}  // namespace
}  // namespace spmv
