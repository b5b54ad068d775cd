// Malformed and hostile Matrix Market input: every case gives the documented
// exception with "FILE:LINE: problem", never a crash, a silently wrong matrix
// or an allocation the file's length does not justify.
#include <zlib.h>

#include "test_io_support.hpp"

namespace spmv::test {
namespace {

struct BadFile {
  const char* name;
  std::string text;
  std::int64_t line;     // where the error must point
  const char* fragment;  // what the message must say
};

std::string general(const std::string& body) {
  return "%%MatrixMarket matrix coordinate real general\n" + body;
}

void expect_all_refused(const std::vector<BadFile>& cases) {
  for (const BadFile& bad : cases) {
    SCOPED_TRACE(bad.name);
    const std::string path = write_scratch_file(std::string(bad.name) + ".mtx", bad.text);
    EXPECT_TRUE(refused_with_parse_error([&] { read_matrix_market<double>(path); }, path, bad.line,
                                         bad.fragment));
    // The float reader shares the parser; it must refuse the same way.
    EXPECT_TRUE(refused_with_parse_error([&] { read_matrix_market<float>(path); }, path, bad.line,
                                         bad.fragment));
  }
}

TEST(MatrixMarketBadInput, Header) {
  expect_all_refused({
      {"empty", "", 1, "empty"},
      {"not_a_banner", "3 3 1\n1 1 1\n", 1, "banner"},
      {"misspelt_banner", "%%MatrixMarkt matrix coordinate real general\n1 1 0\n", 1, "banner"},
      {"blank_first_line", "\n%%MatrixMarket matrix coordinate real general\n1 1 0\n", 1, "banner"},
      {"incomplete_banner", "%%MatrixMarket matrix coordinate real\n1 1 0\n", 1, "incomplete"},
      {"banner_extra_word", "%%MatrixMarket matrix coordinate real general extra\n1 1 0\n", 1, "'extra'"},
      {"unknown_object", "%%MatrixMarket tensor coordinate real general\n1 1 0\n", 1, "tensor"},
      {"unknown_format", "%%MatrixMarket matrix sparse real general\n1 1 0\n", 1, "sparse"},
      {"unknown_field", "%%MatrixMarket matrix coordinate quaternion general\n1 1 0\n", 1, "quaternion"},
      {"unknown_symmetry", "%%MatrixMarket matrix coordinate real diagonal\n1 1 0\n", 1, "diagonal"},
      {"complex", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", 1, "complex"},
      {"array_pattern", "%%MatrixMarket matrix array pattern general\n1 1\n", 1, "pattern"},
      {"symmetric_vector", "%%MatrixMarket vector coordinate real symmetric\n2 1\n1 1\n", 1, "vector"},
      {"missing_size_line", general("% only a comment\n"), 2, "missing size line"},
      {"banner_only_no_newline", "%%MatrixMarket matrix coordinate real general", 1, "missing size line"},
  });
}

TEST(MatrixMarketBadInput, SizeLine) {
  expect_all_refused({
      {"size_not_numeric", general("% c\n3 x 3\n"), 3, "column count"},
      {"size_missing_field", general("3 3\n1 1 1\n"), 2, "entry count is missing"},
      {"size_trailing_text", general("3 3 1 7\n1 1 1\n"), 2, "'7'"},
      {"size_negative", general("3 -1 0\n"), 2, "negative column count"},
      {"size_beyond_int64", general("99999999999999999999 3 0\n"), 2, "64-bit"},
      {"size_decimal", general("3.0 3 0\n"), 2, "row count"},
      {"symmetric_not_square", "%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n", 2, "square"},
      {"array_size_three_numbers", "%%MatrixMarket matrix array real general\n2 2 4\n1\n2\n3\n4\n", 2, "'4'"},
  });
}

TEST(MatrixMarketBadInput, Entries) {
  expect_all_refused({
      {"truncated", general("3 3 3\n1 1 1\n2 2 2\n"), 4, "ends after 2 of the 3 entries"},
      {"truncated_mid_line", general("3 3 2\n1 1 1\n2 2"), 4, "value is missing"},
      {"too_many_entries", general("2 2 1\n1 1 1\n\n2 2 2\n"), 5, "more entries than the 1"},
      {"row_index_zero", general("2 2 1\n0 1 1\n"), 3, "row index 0 is outside [1, 2]"},
      {"column_index_too_large", general("2 2 2\n1 1 1\n2 3 1\n"), 4, "column index 3 is outside [1, 2]"},
      {"negative_index", general("2 2 1\n-1 1 1\n"), 3, "row index -1"},
      {"index_beyond_int64", general("2 2 1\n1 99999999999999999999 1\n"), 3, "64-bit"},
      {"index_not_numeric", general("2 2 1\none 1 1\n"), 3, "expected the row index, found 'one'"},
      {"value_not_numeric", general("2 2 1\n1 1 abc\n"), 3, "expected the value, found 'abc'"},
      {"value_with_suffix", general("2 2 1\n1 1 1.5x\n"), 3, "'1.5x'"},
      {"trailing_text", general("2 2 1\n1 1 1.5 junk\n"), 3, "unexpected 'junk'"},
      {"pattern_with_value", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n", 3,
       "unexpected '1'"},
      {"nan", general("2 2 2\n1 1 1\n2 2 nan\n"), 4, "not finite"},
      {"inf", general("2 2 1\n1 1 -Infinity\n"), 3, "not finite"},
      {"value_beyond_double", general("2 2 1\n1 1 1E310\n"), 3, "out of the range of"},
      {"integer_field_decimal", "%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 1.5\n", 3,
       "integer value"},
      {"integer_beyond_2_53", "%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 9007199254740993\n",
       3, "2^53"},
      {"skew_diagonal", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 2\n2 1 1\n2 2 0\n", 4,
       "diagonal"},
      {"symmetric_both_triangles", "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 1\n1 2 1\n",
       4, "one triangle"},
      {"array_too_few", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", 5, "3 of the 4 values"},
      {"array_too_many", "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n4\n", 6, "more values"},
      {"nul_byte", general(std::string("1 1 1\n1 1 2\0\n", 13)), 3, "'2?'"},
      {"vector_two_indices", "%%MatrixMarket vector coordinate real general\n3 1\n1 2 5\n", 3, "unexpected '5'"},
  });
}

TEST(MatrixMarketBadInput, FloatRangeIsCheckedForFloatMatrices) {
  const std::string path = write_scratch_file("beyond_float.mtx", general("1 1 1\n1 1 1e39\n"));
  EXPECT_EQ(read_matrix_market<double>(path).values, std::vector<double>{1e39});
  EXPECT_TRUE(refused_with_parse_error([&] { read_matrix_market<float>(path); }, path, 3,
                                       "out of the range of float"));
}

// Sizes that are well-formed but need more than 32-bit indices.
TEST(MatrixMarketBadInput, SizesBeyondInt32AreSizeErrors) {
  for (const char* size_line : {"3000000000 1 0\n", "1 2147483648 0\n", "5 5 4000000000\n"}) {
    const std::string path = write_scratch_file("too_large.mtx", general(size_line));
    try {
      read_matrix_market<double>(path);
      ADD_FAILURE() << "accepted " << size_line;
    } catch (const SizeError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(path + ":2: ", 0), 0u) << e.what();
      EXPECT_NE(std::string(e.what()).find("32-bit"), std::string::npos) << e.what();
    }
  }
}

// Passes when reading `path` throws SizeError "PATH:LINE: ..." containing `fragment`.
::testing::AssertionResult refused_with_size_error(const std::string& path, std::int64_t line,
                                                   const std::string& fragment,
                                                   const ReadOptions& options = {}) {
  try {
    read_matrix_market<double>(path, options);
  } catch (const SizeError& e) {
    const std::string message = e.what();
    if (message.rfind(path + ":" + std::to_string(line) + ": ", 0) != 0 ||
        message.find(fragment) == std::string::npos)
      return ::testing::AssertionFailure() << "unexpected message: " << message;
    return ::testing::AssertionSuccess();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "expected SizeError, got: " << e.what();
  }
  return ::testing::AssertionFailure() << "accepted " << path;
}

// Found by fuzzing (issue 17): a 70-byte file declaring 2e9 x 2e9 made the
// reader allocate 8 GB of row pointers before reading a single entry.
TEST(MatrixMarketBadInput, DimensionsBeyondWhatTheFileJustifiesAreSizeErrors) {
  const std::string bomb = write_scratch_file("bomb.mtx", general("2000000000 2000000000 0\n"));
  EXPECT_TRUE(refused_with_size_error(bomb, 2, "row count 2000000000 is more than a file of"));
  const std::string wide = write_scratch_file("wide.mtx", general("1 2000000000 0\n"));
  EXPECT_TRUE(refused_with_size_error(wide, 2, "column count 2000000000"));
  // A dense array with no rows would loop over its columns without reading anything.
  const std::string array = write_scratch_file("wide_array.mtx", "%%MatrixMarket matrix array real general\n0 2147483647\n");
  EXPECT_TRUE(refused_with_size_error(array, 2, "column count 2147483647"));
  ReadOptions small;
  small.max_dimension = 5;
  const std::string six = write_scratch_file("six_rows.mtx", general("6 1 0\n"));
  EXPECT_TRUE(refused_with_size_error(six, 2, "(limit 5:", small));
}

TEST(MatrixMarketBadInput, DimensionsUpToTheFloorOrTheGivenLimitAreRead) {
  const std::string floor_sized = write_scratch_file(
      "floor.mtx", general(std::to_string(ReadOptions::dimension_floor) + " 3 1\n2 3 1\n"));
  EXPECT_EQ(read_matrix_market<double>(floor_sized).rows, ReadOptions::dimension_floor);
  ReadOptions trusted;
  trusted.max_dimension = max_index;
  const std::string wide = write_scratch_file("trusted_wide.mtx", general("1 2000000000 1\n1 1999999999 7\n"));
  const Csr<double> a = read_matrix_market<double>(wide, trusted);
  EXPECT_EQ(a.cols, 2000000000);
  EXPECT_EQ(a.col_idx, std::vector<index_t>{1999999998});
}

// Found by fuzzing (issue 17): the entry count of the size line is capped by
// what the rest of the file can hold before anything is reserved (reserving
// 2e9 entries would take 32 GB).
TEST(MatrixMarketBadInput, EntryCountBeyondWhatTheFileCanHold) {
  expect_all_refused({
      {"entries_bomb", general("3 3 2000000000\n1 1 1\n"), 3, "ends after 1 of the 2000000000 entries"},
      {"pattern_bomb", "%%MatrixMarket matrix coordinate pattern symmetric\n9 9 2147483647\n1 1\n", 3,
       "ends after 1 of the 2147483647 entries"},
  });
}

TEST(MatrixMarketBadInput, InflatedSizeLimitIsASizeError) {
  const std::string path = scratch_path("inflates.mtx.gz");
  Coo<double> coo;
  coo.rows = coo.cols = 100;
  for (index_t i = 0; i < 100; ++i) coo.push(i, i, 1.0);
  write_matrix_market(path, to_csr(coo));
  ReadOptions options;
  options.max_inflated_bytes = 100;
  try {
    read_matrix_market<double>(path, options);
    ADD_FAILURE() << "read past the inflated-size limit";
  } catch (const SizeError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": inflates to more than 100 bytes"), std::string::npos)
        << e.what();
  }
  options.max_inflated_bytes = 1 << 20;
  EXPECT_EQ(read_matrix_market<double>(path, options).nnz(), 100);
}

TEST(MatrixMarketBadInput, MissingFileIsAnIoErrorNamingIt) {
  const std::string path = scratch_path("does_not_exist.mtx");
  EXPECT_TRUE(refused_with_io_error([&] { read_matrix_market<double>(path); }, path));
  const std::string directory = io_scratch_dir();
  EXPECT_TRUE(refused_with_io_error([&] { read_matrix_market<double>(directory); }, directory));
}

TEST(MatrixMarketBadInput, TruncatedGzipIsAParseError) {
  const std::string path = scratch_path("truncated.mtx.gz");
  Coo<double> coo;
  coo.rows = coo.cols = 1000;
  for (index_t i = 0; i < 1000; ++i) coo.push(i, (i * 7) % 1000, 1.0 / (i + 1));
  write_matrix_market(path, to_csr(coo));
  const std::string bytes = read_bytes(path);
  const std::string cut = write_scratch_file("cut.mtx.gz", bytes.substr(0, bytes.size() / 2));
  EXPECT_TRUE(refused_with_parse_error([&] { read_matrix_market<double>(cut); }, cut, 0, "compressed data"));
}

}  // namespace
}  // namespace spmv::test
