// The format kernels through plan(): what describe() reports (the ELLR-T
// model's choice, bytes by each format's model) and refusals by the padding
// limit. Their products are checked in test_gpu_kernels.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "spmv/error.hpp"
#include "spmv/formats/bro_coo.hpp"
#include "spmv/formats/bro_ell.hpp"
#include "spmv/formats/bro_hyb.hpp"
#include "spmv/gen.hpp"
#include "spmv/operator.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

Csr<double> uniform_rows(index_t rows, index_t cols, index_t length) {
  std::vector<index_t> row_ptr{0};
  std::vector<index_t> col_idx;
  for (index_t r = 0; r < rows; ++r) {
    for (index_t j = 0; j < length; ++j) col_idx.push_back(static_cast<index_t>((r + 977 * j) % cols));
    std::sort(col_idx.end() - length, col_idx.end());
    row_ptr.push_back(static_cast<index_t>(col_idx.size()));
  }
  return csr_from_arrays(rows, cols, row_ptr, col_idx, test::random_vector<double>(col_idx.size(), 41));
}

OperatorDescription describe_plan(const Csr<double>& a, const std::string& kernel, const KernelParams& params = {}) {
  PlanOptions options;
  options.backend = Backend::cuda;
  options.kernel = kernel;
  options.params = params;
  return plan(a, options)->describe();
}

TEST(GpuFormats, EllrtTakesTAndBlockSizeFromTheModel) {
  SPMV_GPU_TEST_PRELUDE();
  // Few long rows cannot fill a GPU one thread per row: the model takes 32 per row.
  const auto few_long = describe_plan(uniform_rows(1000, 5000, 1000), "ellr-t");
  EXPECT_EQ(few_long.format, "ellpack-r");
  EXPECT_EQ(few_long.params.at("threads_per_row"), 32);
  EXPECT_EQ(few_long.params.at("block_size"), 64);
  // Many equal short rows: one thread per row.
  const auto many_short = describe_plan(uniform_rows(600000, 600000, 4), "ellr-t");
  EXPECT_EQ(many_short.params.at("threads_per_row"), 1);
  EXPECT_EQ(many_short.params.at("block_size"), 256);
  // Given values win.
  const auto given = describe_plan(uniform_rows(1000, 5000, 8), "ellr-t", {{"threads_per_row", 4}});
  EXPECT_EQ(given.params.at("threads_per_row"), 4);
}

TEST(GpuFormats, MatrixBytesFollowEachFormatsModel) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = uniform_rows(3000, 3000, 7);
  const std::size_t entries = static_cast<std::size_t>(a.nnz()) * (4 + 8);
  // ELLR-T reads row lengths and entries, never padding.
  EXPECT_EQ(describe_plan(a, "ellr-t", {{"threads_per_row", 4}}).matrix_bytes, 3000u * 4 + entries);
  // ELL: all rows are full, so no padding slot is read.
  EXPECT_EQ(describe_plan(a, "ell").matrix_bytes, entries);
  EXPECT_EQ(describe_plan(a, "coo").matrix_bytes, entries + a.nnz() * 4u);
  EXPECT_EQ(describe_plan(a, "dense-cublas").matrix_bytes, 3000u * 3000u * 8u);
  const auto hyb = describe_plan(a, "hyb", {{"ell_width", 5}});
  EXPECT_EQ(hyb.params.at("ell_width"), 5);
  EXPECT_EQ(hyb.matrix_bytes, 3000u * 5u * 12u + 3000u * 2u * 16u);
  for (const std::string kernel : {"ell", "ellr-t", "hyb", "dia", "sell", "blocked", "coo", "segmented-scan"}) {
    // Scattered columns: every entry in a block of its own (fill-in 16).
    const auto d = describe_plan(a, kernel, kernel == "blocked" ? KernelParams{{"max_padding", 100}} : KernelParams{});
    EXPECT_GT(d.matrix_bytes, 0u) << kernel;
    EXPECT_GE(d.device_bytes, d.matrix_bytes) << kernel;
    EXPECT_GE(d.build_seconds, 0.0) << kernel;
  }
}

TEST(GpuFormats, BroCooStoresWhatTheHostEncoderWritesInWholeWarpIntervals) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = uniform_rows(3000, 3000, 7);
  const auto given = describe_plan(a, "bro-coo", {{"interval", 64}});
  EXPECT_EQ(given.format, "bro-coo");
  EXPECT_EQ(given.params.at("interval"), 64);
  EXPECT_EQ(given.matrix_bytes, bro_coo_metrics(bro_coo_from_csr(a, {64})).matrix_bytes);
  // The default: one interval per resident warp, whole warps.
  const index_t interval = describe_plan(a, "bro-coo").params.at("interval");
  EXPECT_GE(interval, 32);
  EXPECT_EQ(interval % 32, 0);
  EXPECT_THROW(describe_plan(a, "bro-coo", {{"interval", 48}}), InvalidArgument);
  EXPECT_THROW(describe_plan(a, "bro-coo", {{"interval", 0}}), InvalidArgument);
}

TEST(GpuFormats, BroHybStoresWhatTheHostEncoderWrites) {
  SPMV_GPU_TEST_PRELUDE();
  const auto zoo = test::matrix_zoo();
  ASSERT_EQ(zoo[10].name, "one_huge_row_3000");
  ASSERT_EQ(zoo[11].name, "power_law_4000");
  const Csr<double>& a = zoo[11].matrix;
  const auto given = describe_plan(
      a, "bro-hyb", {{"ell_width", 3}, {"slice_height", 128}, {"threads_per_row", 2}, {"interval", 64}});
  EXPECT_EQ(given.format, "bro-hyb");
  EXPECT_EQ(given.params.at("ell_width"), 3);
  EXPECT_EQ(given.params.at("slice_height"), 128);
  EXPECT_EQ(given.params.at("threads_per_row"), 2);
  EXPECT_EQ(given.params.at("interval"), 64);
  BroHybOptions options;
  options.ell_width = 3;
  options.ell.slice_height = 128;
  options.ell.threads_per_row = 2;
  options.coo.interval = 64;
  EXPECT_EQ(given.matrix_bytes, bro_hyb_metrics(bro_hyb_from_csr(a, options)).matrix_bytes);
  // The default split is HYB's: K = 5 for 6000 rows of 5 entries.
  const Csr<double> uniform = uniform_rows(6000, 6000, 5);
  EXPECT_EQ(describe_plan(uniform, "bro-hyb").params.at("ell_width"), 5);
  EXPECT_EQ(describe_plan(uniform, "hyb").params.at("ell_width"), 5);
  try {
    describe_plan(zoo[10].matrix, "bro-hyb", {{"ell_width", 2900}});
    FAIL() << "bro-hyb with an ELL part as wide as the huge row was not refused";
  } catch (const FormatLimitError& e) {
    EXPECT_NE(std::string(e.what()).find("use a smaller ell_width"), std::string::npos) << e.what();
  }
  EXPECT_THROW(describe_plan(a, "bro-hyb", {{"ell_width", -1}}), InvalidArgument);
  EXPECT_THROW(describe_plan(a, "bro-hyb", {{"interval", 40}}), InvalidArgument);
  EXPECT_THROW(describe_plan(a, "bro-hyb", {{"threads_per_row", 3}}), InvalidArgument);
}

TEST(GpuFormats, PaddingLimitRefusesAndCanBeRaised) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = test::matrix_zoo()[10].matrix;  // one_huge_row_3000
  ASSERT_EQ(test::matrix_zoo()[10].name, "one_huge_row_3000");
  try {
    describe_plan(a, "ell");
    FAIL() << "ell of a matrix with one huge row was not refused";
  } catch (const FormatLimitError& e) {
    EXPECT_NE(std::string(e.what()).find("use hyb or sell instead"), std::string::npos) << e.what();
  }
  EXPECT_EQ(describe_plan(a, "ell", {{"max_padding", 1000}}).params.at("max_padding"), 1000);
  EXPECT_THROW(describe_plan(a, "dense-cublas", {{"max_dense_mib", 1}}), FormatLimitError);
  EXPECT_THROW(describe_plan(a, "blocked", {{"block_cols", 40}}), InvalidArgument);
  EXPECT_THROW(describe_plan(a, "hyb", {{"ell_width", -1}}), InvalidArgument);
}

TEST(GpuFormats, BroEllReportsItsParametersAndCompressedBytes) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = uniform_rows(3000, 3000, 7);
  const auto given =
      describe_plan(a, "bro-ell", {{"slice_height", 128}, {"threads_per_row", 2}, {"value_codes", 0}});
  EXPECT_EQ(given.format, "bro-ell");
  EXPECT_EQ(given.params.at("slice_height"), 128);
  EXPECT_EQ(given.params.at("threads_per_row"), 2);
  EXPECT_EQ(given.params.at("value_codes"), 0);
  EXPECT_EQ(given.matrix_bytes, bro_ell_matrix_bytes(bro_ell_from_csr(a, {128, 2, BroValueCodes::never})));
  EXPECT_GE(given.device_bytes, given.matrix_bytes);
  // Defaults: h = 256, T by the ELLR-T model (as in EllrtTakesTAndBlockSizeFromTheModel),
  // no value codes for values that are all distinct.
  const auto many_short = describe_plan(uniform_rows(600000, 600000, 4), "bro-ell");
  EXPECT_EQ(many_short.params.at("slice_height"), 256);
  EXPECT_EQ(many_short.params.at("threads_per_row"), 1);
  EXPECT_EQ(many_short.params.at("value_codes"), 0);
  EXPECT_EQ(describe_plan(uniform_rows(1000, 5000, 1000), "bro-ell").params.at("threads_per_row"), 32);
  // A 7-point stencil, one stream per row: two values (one-bit codes) and small
  // deltas, far below CSR's bytes. (By default this small matrix gets T > 1
  // from the ELLR-T model, to fill the GPU, and its deltas grow.)
  const Csr<double> stencil = gen_stencil_3d(30, 30, 30, 7);
  const auto coded = describe_plan(stencil, "bro-ell", {{"threads_per_row", 1}});
  EXPECT_EQ(coded.params.at("value_codes"), 1);
  EXPECT_LT(coded.matrix_bytes, csr_bytes(stencil.rows, stencil.nnz(), sizeof(double)) / 4);
  // describe() carries the index compression of the BRO formats only.
  ASSERT_TRUE(coded.index_compression.has_value());
  EXPECT_EQ(coded.index_compression->matrix_bytes, coded.matrix_bytes);
  EXPECT_GT(coded.index_compression->against_uncompressed.space_savings(), 0.5);
  EXPECT_FALSE(describe_plan(stencil, "ell").index_compression.has_value());
}

TEST(GpuFormats, BroEllRefusesPowerLawAndBadParameters) {
  SPMV_GPU_TEST_PRELUDE();
  try {
    describe_plan(test::matrix_zoo()[11].matrix, "bro-ell", {{"threads_per_row", 1}, {"value_codes", 0}});
    FAIL() << "bro-ell of a power-law matrix was not refused";
  } catch (const FormatLimitError& e) {
    ASSERT_EQ(test::matrix_zoo()[11].name, "power_law_4000");
    EXPECT_NE(std::string(e.what()).find("use bro-hyb"), std::string::npos) << e.what();
  }
  const Csr<double> a = uniform_rows(1000, 1000, 5);
  EXPECT_THROW(describe_plan(a, "bro-ell", {{"slice_height", 48}}), InvalidArgument);
  EXPECT_THROW(describe_plan(a, "bro-ell", {{"threads_per_row", 3}}), InvalidArgument);
  EXPECT_THROW(describe_plan(a, "bro-ell", {{"value_codes", 2}}), InvalidArgument);
  // Codes demanded of 5000 distinct values are fine; of more than a table holds, refused.
  EXPECT_EQ(describe_plan(a, "bro-ell", {{"value_codes", 1}}).params.at("value_codes"), 1);
  EXPECT_THROW(describe_plan(uniform_rows(20000, 20000, 5), "bro-ell", {{"value_codes", 1}}), FormatLimitError);
}

}  // namespace
}  // namespace spmv
