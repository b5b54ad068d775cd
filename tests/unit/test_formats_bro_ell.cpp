// BRO-ELL: exact round trips (zoo and real matrices, every T, with and
// without value codes), the reference product, the layout of a hand-checked
// example, the refusal rule, the footprint and the compression metrics.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "spmv/formats/bro_ell.hpp"
#include "spmv/gen.hpp"
#include "spmv/io.hpp"
#include "test_formats_support.hpp"

namespace spmv {
namespace {

template <class T>
class BroEllFormat : public ::testing::Test {};
TYPED_TEST_SUITE(BroEllFormat, test::FormatValueTypes);

const index_t threads_per_row_tested[] = {1, 4, 32};

std::string describe(const BroEllOptions& o) {
  const char* codes[] = {"when_smaller", "never", "always"};
  return "h=" + std::to_string(o.slice_height) + " T=" + std::to_string(o.threads_per_row) +
         " value_codes=" + codes[static_cast<int>(o.value_codes)];
}

// Bytes of every array the builder filled.
template <class T>
std::size_t stored_bytes(const BroEll<T>& b) {
  return (b.width_offset.size() + b.symbol_offset.size() + b.code_symbol_offset.size()) * sizeof(index_t) +
         b.widths.size() + (b.symbols.size() + b.code_symbols.size()) * sizeof(std::uint32_t) +
         (b.values.size() + b.value_table.size()) * sizeof(T);
}

// Builds `a` (which must fit the options' limit), checks the exact round
// trip, the product and that the footprint predicted the bytes built.
template <class T>
void expect_exact_round_trip(const Csr<T>& a, const BroEllOptions& options) {
  SCOPED_TRACE(describe(options));
  const BroEll<T> bro = bro_ell_from_csr(a, options);
  EXPECT_TRUE(to_csr(bro) == a);
  test::expect_product_matches_reference(a, bro);
  EXPECT_EQ(bro_ell_footprint(a, options).bytes, stored_bytes(bro));
  EXPECT_EQ(bro.uses_value_codes(), options.value_codes == BroValueCodes::always && a.nnz() > 0);
}

TYPED_TEST(BroEllFormat, RoundTripIsExactOnTheZooForEveryTWithAndWithoutValueCodes) {
  using T = TypeParam;
  for (const auto& [name, matrix] : test::matrix_zoo()) {
    SCOPED_TRACE(name);
    const Csr<T> a = cast<T>(matrix);
    for (index_t t : threads_per_row_tested)
      for (BroValueCodes codes : {BroValueCodes::never, BroValueCodes::always}) {
        // No padding limit: the one-huge-row matrix is kept too.
        expect_exact_round_trip(a, {256, t, codes, 1e9});
        expect_exact_round_trip(a, {32, t, codes, 1e9});
      }
  }
}

TYPED_TEST(BroEllFormat, ProductAndRefusalsOnTheZooWithTheDefaultLimit) {
  using T = TypeParam;
  for (index_t t : threads_per_row_tested)
    for (BroValueCodes codes : {BroValueCodes::when_smaller, BroValueCodes::never}) {
      const BroEllOptions options{256, t, codes, default_max_padding};
      SCOPED_TRACE(describe(options));
      const auto refused = test::check_format_on_zoo<T>(
          [&](const Csr<T>& a) { return bro_ell_from_csr(a, options); },
          [&](const Csr<T>& a) { return bro_ell_footprint(a, options); });
      // A slice of 256 rows pads every row to the slice's longest: only
      // slices of uniform rows are sure to stay within the limit.
      EXPECT_TRUE(test::refused_none_of(refused, t == 1 ? test::regular_matrices() : test::always_accepted()));
    }
}

TEST(BroEllFormat, RoundTripIsExactOnTheRealMatrices) {
  const auto files = test::real_matrix_files();
  if (files.empty()) GTEST_SKIP() << "no real matrices under " << test::shared_data_dir();
  int built = 0;
  int attempts = 0;
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    const Csr<double> a = read_matrix<double>(file);
    for (index_t t : threads_per_row_tested)
      for (BroValueCodes codes : {BroValueCodes::when_smaller, BroValueCodes::never, BroValueCodes::always}) {
        const BroEllOptions options{256, t, codes, default_max_padding};
        SCOPED_TRACE(describe(options));
        ++attempts;
        try {
          const BroEll<double> bro = bro_ell_from_csr(a, options);
          EXPECT_TRUE(to_csr(bro) == a);
          test::expect_product_matches_reference(a, bro);
          ++built;
        } catch (const FormatLimitError& refusal) {
          EXPECT_NE(std::string(refusal.what()).find(": use "), std::string::npos) << refusal.what();
        }
      }
  }
  // Most real matrices are neither power-law nor rich in distinct values.
  EXPECT_GT(built, attempts / 2);
}

// Rows 0: columns 1, 2, 5; 1: column 7; 2: empty.
Csr<double> small_example() {
  return test::from_triplets(3, 8, {{0, 1, 10.0}, {0, 2, 11.0}, {0, 5, 12.0}, {1, 7, 20.0}});
}

TEST(BroEllFormat, LayoutOfAHandCheckedExample) {
  const BroEll<double> bro = bro_ell_from_csr(small_example(), {32, 1, BroValueCodes::never, 100.0});
  // One slice of 32 streams (rows 3..31 empty), 3 columns.
  ASSERT_EQ(bro.slices(), 1);
  EXPECT_EQ(bro.width_offset, (std::vector<index_t>{0, 3}));
  // Fields: row 0: 2 (column 1 + 1), 1, 3; row 1: 8; all others 0.
  // Widths: max(bits(2), bits(8)) = 4, bits(1) = 1, bits(3) = 2: 7 bits, one symbol per stream.
  EXPECT_EQ(bro.widths, (std::vector<std::uint8_t>{4, 1, 2}));
  EXPECT_EQ(bro.symbol_offset, (std::vector<index_t>{0, 32}));
  ASSERT_EQ(bro.symbols.size(), 32u);
  EXPECT_EQ(bro.symbols[0], 0b0010'1'11u << 25);  // 2, 1, 3
  EXPECT_EQ(bro.symbols[1], 0b1000'0'00u << 25);  // 8, then padding
  for (std::size_t t = 2; t < 32; ++t) EXPECT_EQ(bro.symbols[t], 0u) << t;
  // Values column-major in the slice: column j of stream t at j * 32 + t.
  ASSERT_EQ(bro.values.size(), 3u * 32u);
  EXPECT_EQ(bro.values[0], 10.0);
  EXPECT_EQ(bro.values[32], 11.0);
  EXPECT_EQ(bro.values[64], 12.0);
  EXPECT_EQ(bro.values[1], 20.0);
  EXPECT_EQ(bro.values[33], 0.0);
  EXPECT_FALSE(bro.uses_value_codes());
  EXPECT_EQ(bro.longest_row, 3);
}

TEST(BroEllFormat, StreamsOfARowWithTwoThreadsPerRow) {
  // Row 0: columns 0..4, row 1: columns 3, 6 (T = 2: streams 0, 1 of row 0, then 2, 3 of row 1).
  const Csr<double> a = test::from_triplets(
      2, 8, {{0, 0, 1.0}, {0, 1, 2.0}, {0, 2, 3.0}, {0, 3, 4.0}, {0, 4, 5.0}, {1, 3, 6.0}, {1, 6, 7.0}});
  const BroEll<double> bro = bro_ell_from_csr(a, {32, 2, BroValueCodes::never, 100.0});
  // Stream 0: columns 0, 2, 4 -> 1, 2, 2; stream 1: 1, 3 -> 2, 2; stream 2: 3 -> 4; stream 3: 6 -> 7.
  EXPECT_EQ(bro.widths, (std::vector<std::uint8_t>{3, 2, 2}));  // bits(7), bits(2), bits(2)
  ASSERT_EQ(bro.symbols.size(), 32u);
  EXPECT_EQ(bro.symbols[0], 0b001'10'10u << 25);
  EXPECT_EQ(bro.symbols[1], 0b010'10'00u << 25);
  EXPECT_EQ(bro.symbols[2], 0b100'00'00u << 25);
  EXPECT_EQ(bro.symbols[3], 0b111'00'00u << 25);
  EXPECT_EQ(bro.values[0 * 32 + 0], 1.0);
  EXPECT_EQ(bro.values[1 * 32 + 0], 3.0);
  EXPECT_EQ(bro.values[2 * 32 + 0], 5.0);
  EXPECT_EQ(bro.values[1 * 32 + 1], 4.0);
  EXPECT_EQ(bro.values[0 * 32 + 3], 7.0);
}

TEST(BroEllFormat, FieldsStraddleSymbolsAndSlicesHaveTheirOwnWidths) {
  // 64 rows, h = 32: slice 0 holds rows of 5 far-apart columns (fields of
  // 17..20 bits, 2+ symbols per stream), slice 1 rows of one column each.
  Coo<double> coo;
  coo.rows = 64;
  coo.cols = 1 << 20;
  for (index_t r = 0; r < 32; ++r)
    for (index_t k = 0; k < 5; ++k) coo.push(r, k * 200000 + r, 1.0 + r + k);
  for (index_t r = 32; r < 64; ++r) coo.push(r, r - 32, -1.0);
  const Csr<double> a = to_csr(coo);
  const BroEll<double> bro = bro_ell_from_csr(a, {32, 1, BroValueCodes::never, 100.0});
  ASSERT_EQ(bro.slices(), 2);
  EXPECT_EQ(bro.slice_columns(0), 5);
  EXPECT_EQ(bro.slice_columns(1), 1);
  // First field: column + 1 <= 32; then deltas of 200000 (18 bits).
  EXPECT_EQ(bro.widths, (std::vector<std::uint8_t>{6, 18, 18, 18, 18, 6}));
  // 6 + 4 * 18 = 78 bits: 3 symbols per stream; slice 1: 6 bits, 1 symbol.
  EXPECT_EQ(bro.symbol_offset, (std::vector<index_t>{0, 3 * 32, 4 * 32}));
  EXPECT_TRUE(to_csr(bro) == a);
}

TEST(BroEllFormat, ValueCodesOfFewDistinctValues) {
  // A 3-D 7-point Laplacian holds two values (6 and -1): one-bit codes.
  const Csr<double> stencil = gen_stencil_3d(12, 12, 12, 7);
  const BroEll<double> coded = bro_ell_from_csr(stencil);
  ASSERT_TRUE(coded.uses_value_codes());
  EXPECT_EQ(coded.value_table.size(), 2u);
  EXPECT_EQ(coded.value_code_bits, 1);
  EXPECT_TRUE(coded.values.empty());
  EXPECT_TRUE(to_csr(coded) == stencil);
  // One value: codes of zero bits, no code symbols at all.
  Csr<double> ones = stencil;
  std::fill(ones.values.begin(), ones.values.end(), 1.0);
  const BroEll<double> constant = bro_ell_from_csr(ones);
  ASSERT_TRUE(constant.uses_value_codes());
  EXPECT_EQ(constant.value_code_bits, 0);
  EXPECT_TRUE(constant.code_symbols.empty());
  EXPECT_TRUE(to_csr(constant) == ones);
  EXPECT_LT(bro_ell_matrix_bytes(constant), bro_ell_matrix_bytes(bro_ell_from_csr(ones, {256, 1, BroValueCodes::never})));
  // never: plain values even where codes would be smaller.
  EXPECT_FALSE(bro_ell_from_csr(stencil, {256, 1, BroValueCodes::never}).uses_value_codes());
}

TEST(BroEllFormat, ValueCodesKeepEveryBitPattern) {
  // 0.0 and -0.0 compare equal but are different values to store.
  const Csr<double> a = test::from_triplets(2, 3, {{0, 0, 0.0}, {0, 2, -0.0}, {1, 1, 0.0}});
  const BroEll<double> bro = bro_ell_from_csr(a, {32, 1, BroValueCodes::always});
  EXPECT_EQ(bro.value_table.size(), 2u);
  const Csr<double> back = to_csr(bro);
  EXPECT_FALSE(std::signbit(back.values[0]));
  EXPECT_TRUE(std::signbit(back.values[1]));
}

TEST(BroEllFormat, DefaultRuleKeepsValuesThatCodesWouldNotShrink) {
  // Every value distinct: more than the default table holds.
  const Csr<double> random = gen_uniform_random(20000, 20000, 8, 5);
  EXPECT_FALSE(bro_ell_from_csr(random).uses_value_codes());
  // One row of 200 entries among 255 of one: codes would store fewer bytes
  // than the padded values, but a product reads every code and only the
  // entries' values, so the default keeps the values.
  Coo<double> coo;
  coo.rows = 256;
  coo.cols = 256;
  for (index_t c = 0; c < 200; ++c) coo.push(0, c, 1.0 + c);
  for (index_t r = 1; r < 256; ++r) coo.push(r, r, -1.0 - r);
  const Csr<double> padded = to_csr(coo);
  const BroEll<double> values = bro_ell_from_csr(padded, {256, 1, BroValueCodes::when_smaller, 1000.0});
  const BroEll<double> codes = bro_ell_from_csr(padded, {256, 1, BroValueCodes::always, 1000.0});
  EXPECT_FALSE(values.uses_value_codes());
  EXPECT_LT(bro_ell_matrix_bytes(values), bro_ell_matrix_bytes(codes));
  EXPECT_GT(bro_ell_footprint(padded, {256, 1, BroValueCodes::never, 1000.0}).bytes,
            bro_ell_footprint(padded, {256, 1, BroValueCodes::always, 1000.0}).bytes);
  // Demanded codes of a matrix with more distinct values than a table holds.
  try {
    bro_ell_from_csr(random, {256, 1, BroValueCodes::always});
    FAIL() << "value codes of 160000 random values were not refused";
  } catch (const FormatLimitError& e) {
    EXPECT_NE(std::string(e.what()).find("use value_codes=0 instead"), std::string::npos) << e.what();
  }
}

TEST(BroEllFormat, RejectsBadOptions) {
  const Csr<double> a = test::zoo_matrix("banded_2000_bw3");
  for (index_t h : {0, 16, 48, 2048}) EXPECT_THROW(bro_ell_from_csr(a, {h, 1}), InvalidArgument) << h;
  for (index_t t : {0, 3, 64}) EXPECT_THROW(bro_ell_from_csr(a, {256, t}), InvalidArgument) << t;
  EXPECT_THROW(bro_ell_footprint(a, {256, 5}), InvalidArgument);
  EXPECT_THROW(bro_ell_from_csr(a, {256, 1, BroValueCodes::never, 0.5}), InvalidArgument);
}

TEST(BroEllFormat, RefusalNamesTheFormatAndBroHyb) {
  try {
    bro_ell_from_csr(test::zoo_matrix("power_law_4000"), {256, 1, BroValueCodes::never});
    FAIL() << "BRO-ELL of a power-law matrix was not refused";
  } catch (const FormatLimitError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("BRO-ELL would need ", 0), 0u) << message;
    EXPECT_NE(message.find("use bro-hyb"), std::string::npos) << message;
  }
}

TEST(BroEllMetrics, StencilCompressesWellAndRandomColumnsPoorly) {
  // 27-point stencil: deltas of 1 within a grid line, the same jumps in
  // every row of a slice. The paper's Table 3 reports 70-93 % on such matrices.
  const BroEll<double> stencil = bro_ell_from_csr(gen_stencil_3d(40, 40, 40, 27));
  const CompressionMetrics s = bro_ell_metrics(stencil);
  EXPECT_GT(s.against_uncompressed.space_savings(), 0.7);
  EXPECT_GT(s.against_csr.space_savings(), 0.7);
  EXPECT_GT(s.against_uncompressed.compression_ratio(), 1 / (1 - 0.7));
  // Uniformly random columns: deltas near cols / 16, about 13 bits of 32.
  const BroEll<double> random = bro_ell_from_csr(gen_uniform_random(64000, 64000, 16, 3));
  const CompressionMetrics r = bro_ell_metrics(random);
  EXPECT_LT(r.against_uncompressed.space_savings(), 0.6);
  EXPECT_GT(r.against_uncompressed.space_savings(), 0.0);
  EXPECT_LT(s.bytes_per_nonzero(), r.bytes_per_nonzero());
  EXPECT_GT(s.effective_arithmetic_intensity(), r.effective_arithmetic_intensity());
}

TEST(BroEllMetrics, FiguresFollowTheirDefinitions) {
  const BroEll<double> bro = bro_ell_from_csr(small_example(), {32, 1, BroValueCodes::never, 100.0});
  const CompressionMetrics m = bro_ell_metrics(bro);
  // Index data: 32 symbols, 3 widths, two offset arrays of 2 entries.
  const std::size_t compressed = 32 * 4 + 3 + 2 * 2 * 4;
  EXPECT_EQ(m.against_uncompressed.original_index_bytes, 3u * 3u * 4u);  // 3 rows x longest row 3
  EXPECT_EQ(m.against_uncompressed.compressed_index_bytes, compressed);
  EXPECT_EQ(m.against_csr.original_index_bytes, (4u + 4u) * 4u);  // 4 columns, 4 row pointers
  EXPECT_DOUBLE_EQ(m.against_csr.space_savings(), 1.0 - compressed / 32.0);
  EXPECT_DOUBLE_EQ(m.against_csr.compression_ratio(), 32.0 / compressed);
  // Product bytes: the index data and the 4 values that hold entries.
  EXPECT_EQ(m.matrix_bytes, compressed + 4 * 8);
  EXPECT_DOUBLE_EQ(m.bytes_per_nonzero(), (compressed + 32.0) / 4);
  EXPECT_DOUBLE_EQ(m.effective_arithmetic_intensity(), 8.0 / (compressed + 32 + (3 + 8) * 8));
  // Nothing to compress.
  const CompressionMetrics empty = bro_ell_metrics(bro_ell_from_csr(Csr<double>{}));
  EXPECT_EQ(empty.against_uncompressed.space_savings(), 0.0);
  EXPECT_EQ(empty.bytes_per_nonzero(), 0.0);
}

}  // namespace
}  // namespace spmv
