// ELLPACK-R in the ELLR-T layout, and the ELLR-T configuration model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "formats/format_common.hpp"
#include "spmv/formats/ellpack_r.hpp"
#include "test_formats_support.hpp"

namespace spmv {
namespace {

template <class T>
class EllpackRFormat : public ::testing::Test {};
TYPED_TEST_SUITE(EllpackRFormat, test::FormatValueTypes);

TYPED_TEST(EllpackRFormat, ProductMatchesReferenceOnTheZooForEveryT) {
  using T = TypeParam;
  for (index_t t : {1, 2, 4, 8, 16, 32}) {
    SCOPED_TRACE("threads_per_row=" + std::to_string(t));
    const auto refused = test::check_format_on_zoo<T>(
        [t](const Csr<T>& a) { return ellpack_r_from_csr(a, {t}); },
        [t](const Csr<T>& a) { return ellpack_r_footprint(a, t); });
    // Rows shorter than T pad to T slots: short-row matrices are kept only for small T.
    EXPECT_TRUE(test::refused_none_of(refused, t <= 4 ? test::regular_matrices() : test::always_accepted()));
  }
}

TEST(EllpackRFormat, EntriesAreInterleavedInGroupsOfT) {
  // Row 0: 5 entries, row 1: 1 entry, row 2: empty; T = 2.
  Coo<double> coo;
  coo.rows = 3;
  coo.cols = 8;
  for (index_t c = 0; c < 5; ++c) coo.push(0, c, 10.0 + c);
  coo.push(1, 7, 20.0);
  const EllpackR<double> ell = ellpack_r_from_csr(to_csr(coo), {2, 100.0});
  EXPECT_EQ(ell.threads_per_row, 2);
  EXPECT_EQ(ell.slots, 3);  // ceil(5 / 2)
  EXPECT_EQ(ell.stride, 32);
  EXPECT_EQ(ell.row_length, (std::vector<index_t>{5, 1, 0}));
  ASSERT_EQ(ell.values.size(), 3u * 32u * 2u);
  // Entry e of row r at 2 * ((e / 2) * 32 + r) + e % 2.
  EXPECT_EQ(ell.values[0], 10.0);
  EXPECT_EQ(ell.values[1], 11.0);
  EXPECT_EQ(ell.values[2 * 32], 12.0);
  EXPECT_EQ(ell.values[2 * 32 + 1], 13.0);
  EXPECT_EQ(ell.values[4 * 32], 14.0);
  EXPECT_EQ(ell.col_idx[4 * 32 + 1], padding_column);
  EXPECT_EQ(ell.values[2], 20.0);  // row 1, entry 0
  EXPECT_EQ(ell.col_idx[2], 7);
  EXPECT_EQ(ell.col_idx[3], padding_column);
}

TEST(EllpackRFormat, RejectsThreadsPerRowThatAreNotPowersOfTwo) {
  const Csr<double> a = test::zoo_matrix("banded_2000_bw3");
  for (index_t t : {0, 3, 64, -1}) EXPECT_THROW(ellpack_r_from_csr(a, {t}), InvalidArgument) << t;
}

TEST(EllpackRFormat, RefusalNamesTheFormat) {
  try {
    ellpack_r_from_csr(test::zoo_matrix("power_law_4000"));
    FAIL() << "ELLPACK-R of a power-law matrix was not refused";
  } catch (const FormatLimitError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("ELLPACK-R would need ", 0), 0u) << e.what();
  }
}

// --- the configuration model ---

TEST(EllrtModel, RegularRowsOnAFullGpuTakeOneThreadPerRowAndLargeBlocks) {
  // A 27-point stencil of 150^3 rows: every warp's rows are equally long, so
  // more threads per row only add reduction steps.
  const std::vector<index_t> lengths(150 * 150 * 150, 27);
  const EllrtConfiguration c = ellrt_configuration(lengths, GpuShape{});
  EXPECT_EQ(c.threads_per_row, 1);
  EXPECT_EQ(c.block_size, 256);
}

TEST(EllrtModel, FewLongRowsTakeAWholeWarpPerRowAndSmallBlocks) {
  // 1000 rows cannot fill 132 x 2048 threads one per row.
  const std::vector<index_t> lengths(1000, 5000);
  const EllrtConfiguration c = ellrt_configuration(lengths, GpuShape{});
  EXPECT_EQ(c.threads_per_row, 32);
  // 32000 threads: 125 blocks of 256 or 250 of 128 leave SMs with fewer than 4.
  EXPECT_EQ(c.block_size, 64);
}

TEST(EllrtModel, CostCountsWarpStepsReductionAndFill) {
  // 64 rows, T = 2: 4 warps of 16 rows; warp 0 holds a row of 9, the others rows of 2.
  std::vector<index_t> lengths(64, 2);
  lengths[3] = 9;
  const GpuShape tiny{1, 64};  // 64 resident threads: T = 2 (128 threads) fills it
  const double expected = (5 + 1 + 1 + 1) + 4 * std::log2(2.0) * ellrt_reduction_step_weight;
  EXPECT_DOUBLE_EQ(ellrt_cost(lengths, 2, tiny), expected);
  // T = 1 fills the GPU exactly: 2 warps, steps 9 + 2.
  EXPECT_DOUBLE_EQ(ellrt_cost(lengths, 1, tiny), 11.0);
  // On a GPU of 128 resident threads T = 1 fills half of it: the cost doubles.
  EXPECT_DOUBLE_EQ(ellrt_cost(lengths, 1, GpuShape{1, 128}), 22.0);
}

TEST(EllrtModel, ChoosesTheCheapestThreadsPerRow) {
  // Each warp of 32 rows holds one row of 320 among rows of 10: one long row
  // keeps a whole warp busy unless T grows; T = 16 balances that against
  // the reduction steps (T = 1: 2.7M, 8: 188k, 16: 159k, 32: 253k).
  std::vector<index_t> lengths(100000, 10);
  for (std::size_t r = 0; r < lengths.size(); r += 32) lengths[r] = 320;
  const EllrtConfiguration c = ellrt_configuration(lengths, GpuShape{});
  EXPECT_EQ(c.threads_per_row, 16);
  for (int t : {1, 2, 4, 8, 32}) EXPECT_LT(c.cost, ellrt_cost(lengths, t, GpuShape{})) << t;
  EXPECT_DOUBLE_EQ(c.cost, ellrt_cost(lengths, 16, GpuShape{}));
}

TEST(EllrtModel, WarpStepsFollowTheirDefinition) {
  // For each T, the sum over warps of 32 / T consecutive rows of ceil(the
  // warp's longest row / T), written as defined; 1000 rows of uneven lengths
  // leave a last group of 8 rows.
  std::vector<index_t> lengths(1000);
  for (std::size_t r = 0; r < lengths.size(); ++r)
    lengths[r] = static_cast<index_t>(r * 7919 % 97 + (r % 61 == 0 ? 900 : 0));
  EllrtWarpSteps expected;
  for (int log_t = 0; log_t < 6; ++log_t) {
    const index_t t = index_t(1) << log_t;
    for (std::size_t first = 0; first < lengths.size(); first += 32 / t) {
      const auto end = lengths.begin() + static_cast<std::ptrdiff_t>(std::min(lengths.size(), first + 32 / t));
      expected.of_threads_per_row[log_t] +=
          (*std::max_element(lengths.begin() + static_cast<std::ptrdiff_t>(first), end) + t - 1) / t;
    }
  }
  const EllrtWarpSteps steps = ellrt_warp_steps(lengths);
  EXPECT_EQ(steps.rows, lengths.size());
  EXPECT_EQ(steps.of_threads_per_row, expected.of_threads_per_row);
}

TEST(EllrtModel, WarpStepsOfACsrAreThoseOfItsRowLengths) {
  for (const test::ZooMatrix& m : test::matrix_zoo()) {
    SCOPED_TRACE(m.name);
    const EllrtWarpSteps from_csr = ellrt_warp_steps(m.matrix);
    const EllrtWarpSteps from_lengths = ellrt_warp_steps(detail::row_lengths(m.matrix));
    EXPECT_EQ(from_csr.rows, from_lengths.rows);
    EXPECT_EQ(from_csr.of_threads_per_row, from_lengths.of_threads_per_row);
  }
}

TEST(EllrtModel, EmptyMatrixAndBadGpuShape) {
  const EllrtConfiguration c = ellrt_configuration(std::vector<index_t>{}, GpuShape{});
  EXPECT_EQ(c.threads_per_row, 1);
  EXPECT_EQ(c.block_size, 64);
  EXPECT_THROW(ellrt_configuration(std::vector<index_t>{1, 2}, GpuShape{0, 2048}), InvalidArgument);
  EXPECT_THROW(ellrt_cost(std::vector<index_t>{1, 2}, 3, GpuShape{}), InvalidArgument);
}

}  // namespace
}  // namespace spmv
