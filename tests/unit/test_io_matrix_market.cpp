// Matrix Market reading of hand-written files (every form the reader
// accepts), writing, and round trips.
#include <cmath>
#include <filesystem>
#include <limits>

#include "test_io_support.hpp"

namespace spmv::test {
namespace {

namespace fs = std::filesystem;

Csr<double> read_text(const std::string& name, const std::string& text, const ReadOptions& options = {}) {
  return read_matrix_market<double>(write_scratch_file(name, text), options);
}

TEST(MatrixMarketRead, CoordinateRealGeneral) {
  const Csr<double> a = read_text("general.mtx",
                                  "%%MatrixMarket matrix coordinate real general\n"
                                  "% a comment\n"
                                  "3 4 4\n"
                                  "3 1 -2.5\n"
                                  "1 4 1e3\n"
                                  "1 1 0.125\n"
                                  "2 2 7\n");
  EXPECT_EQ(a, from_triplets(3, 4, {{0, 0, 0.125}, {0, 3, 1000.0}, {1, 1, 7.0}, {2, 0, -2.5}}));
}

TEST(MatrixMarketRead, IntegerAndPatternFields) {
  EXPECT_EQ(read_text("integer.mtx",
                      "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 -3\n2 1 +4\n"),
            from_triplets(2, 2, {{0, 1, -3.0}, {1, 0, 4.0}}));
  EXPECT_EQ(read_text("pattern.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 3 2\n1 3\n2 1\n"),
            from_triplets(2, 3, {{0, 2, 1.0}, {1, 0, 1.0}}));
}

TEST(MatrixMarketRead, DuplicatesAreSummedAndExplicitZerosKept) {
  const Csr<double> a = read_text("duplicates.mtx",
                                  "%%MatrixMarket matrix coordinate real general\n2 2 4\n"
                                  "1 1 1.5\n2 2 0\n1 1 2.25\n1 2 1\n");
  EXPECT_EQ(a.row_ptr, (std::vector<index_t>{0, 2, 3}));
  EXPECT_EQ(a.col_idx, (std::vector<index_t>{0, 1, 1}));
  EXPECT_EQ(a.values, (std::vector<double>{3.75, 1.0, 0.0}));
}

TEST(MatrixMarketRead, SymmetricExpandsOffDiagonalEntries) {
  const Csr<double> lower = read_text("symmetric.mtx",
                                      "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n"
                                      "1 1 4\n3 1 2\n3 2 5\n");
  EXPECT_EQ(lower, from_triplets(3, 3, {{0, 0, 4}, {0, 2, 2}, {2, 0, 2}, {1, 2, 5}, {2, 1, 5}}));
  // One triangle is stored; the upper one is as good as the lower.
  const Csr<double> upper = read_text("symmetric_upper.mtx",
                                      "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n"
                                      "1 1 4\n1 3 2\n2 3 5\n");
  EXPECT_EQ(upper, lower);
}

TEST(MatrixMarketRead, SkewSymmetricMirrorsWithNegatedValues) {
  const Csr<double> a = read_text("skew.mtx",
                                  "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n"
                                  "2 1 3\n3 2 -1.5\n");
  EXPECT_EQ(a, from_triplets(3, 3, {{1, 0, 3}, {0, 1, -3}, {2, 1, -1.5}, {1, 2, 1.5}}));
}

TEST(MatrixMarketRead, PatternSymmetric) {
  const Csr<double> a = read_text("pattern_symmetric.mtx",
                                  "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n1 1\n2 1\n");
  EXPECT_EQ(a, from_triplets(2, 2, {{0, 0, 1}, {1, 0, 1}, {0, 1, 1}}));
}

// A real (or integer, or pattern) hermitian matrix equals its transpose:
// it is symmetric, and read as such (fast_matrix_market does the same).
TEST(MatrixMarketRead, RealHermitianIsSymmetric) {
  for (const char* field : {"real", "integer", "pattern"}) {
    SCOPED_TRACE(field);
    const bool pattern = std::string(field) == "pattern";
    const Csr<double> a = read_text(std::string("hermitian_") + field + ".mtx",
                                    "%%MatrixMarket matrix coordinate " + std::string(field) +
                                        " hermitian\n2 2 2\n" + (pattern ? "1 1\n2 1\n" : "1 1 4\n2 1 -3\n"));
    EXPECT_EQ(a, pattern ? from_triplets(2, 2, {{0, 0, 1}, {1, 0, 1}, {0, 1, 1}})
                         : from_triplets(2, 2, {{0, 0, 4}, {1, 0, -3}, {0, 1, -3}}));
  }
  const Csr<double> array = read_text("hermitian_array.mtx",
                                      "%%MatrixMarket matrix array real hermitian\n2 2\n1\n2\n3\n");
  EXPECT_EQ(array, from_triplets(2, 2, {{0, 0, 1}, {1, 0, 2}, {0, 1, 2}, {1, 1, 3}}));
}

TEST(MatrixMarketRead, ArrayIsColumnMajorAndDropsZeros) {
  const Csr<double> a = read_text("array.mtx",
                                  "%%MatrixMarket matrix array real general\n2 3\n"
                                  "1\n0\n0\n4\n5\n-6\n");
  EXPECT_EQ(a, from_triplets(2, 3, {{0, 0, 1}, {1, 1, 4}, {0, 2, 5}, {1, 2, -6}}));
}

TEST(MatrixMarketRead, SymmetricAndSkewArraysStoreTheLowerTriangle) {
  EXPECT_EQ(read_text("array_symmetric.mtx",
                      "%%MatrixMarket matrix array integer symmetric\n2 2\n1\n2\n3\n"),
            from_triplets(2, 2, {{0, 0, 1}, {1, 0, 2}, {0, 1, 2}, {1, 1, 3}}));
  EXPECT_EQ(read_text("array_skew.mtx", "%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n"),
            from_triplets(3, 3, {{1, 0, 1}, {0, 1, -1}, {2, 0, 2}, {0, 2, -2}, {2, 1, 3}, {1, 2, -3}}));
}

TEST(MatrixMarketRead, VectorsAreColumns) {
  EXPECT_EQ(read_text("vector_coordinate.mtx",
                      "%%MatrixMarket vector coordinate real general\n4 2\n4 1.5\n2 -1\n"),
            from_triplets(4, 1, {{1, 0, -1}, {3, 0, 1.5}}));
  EXPECT_EQ(read_text("vector_array.mtx", "%%MatrixMarket vector array real general\n3\n7\n0\n9\n"),
            from_triplets(3, 1, {{0, 0, 7}, {2, 0, 9}}));
}

TEST(MatrixMarketRead, EmptyShapes) {
  const Csr<double> none = read_text("no_entries.mtx", "%%MatrixMarket matrix coordinate real general\n3 2 0\n");
  EXPECT_EQ(none, from_triplets(3, 2, {}));
  const Csr<double> zero_rows = read_text("zero_rows.mtx", "%%MatrixMarket matrix coordinate real general\n0 5 0\n");
  EXPECT_EQ(zero_rows.rows, 0);
  EXPECT_EQ(zero_rows.cols, 5);
  EXPECT_EQ(zero_rows.row_ptr, std::vector<index_t>{0});
}

TEST(MatrixMarketRead, FreeFormatCrlfCommentsAndBlankLines) {
  const Csr<double> a = read_text("free.mtx",
                                  "  %%MatrixMarket  MATRIX   Coordinate  REAL  General \r\n"
                                  "\r\n"
                                  "   % indented comment\r\n"
                                  "\t2 2\t2  \r\n"
                                  "\r\n"
                                  "  1   1    .5\r\n"
                                  "% a comment between entries\r\n"
                                  "2 2 3.\r\n"
                                  "\r\n");
  EXPECT_EQ(a, from_triplets(2, 2, {{0, 0, 0.5}, {1, 1, 3.0}}));
  // The last line may lack its newline.
  EXPECT_EQ(read_text("no_final_newline.mtx", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 2"),
            from_triplets(1, 1, {{0, 0, 2.0}}));
}

TEST(MatrixMarketRead, NonFiniteValuesOnlyWhenAllowed) {
  const std::string path = write_scratch_file(
      "nonfinite.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 NaN\n2 2 -inf\n");
  EXPECT_THROW(read_matrix_market<double>(path), ParseError);
  ReadOptions options;
  options.allow_nonfinite = true;
  const Csr<double> a = read_matrix_market<double>(path, options);
  ASSERT_EQ(a.nnz(), 2);
  EXPECT_TRUE(std::isnan(a.values[0]));
  EXPECT_EQ(a.values[1], -std::numeric_limits<double>::infinity());
}

TEST(MatrixMarketRead, FloatMatricesGetFloatValues) {
  const std::string path = write_scratch_file(
      "float.mtx", "%%MatrixMarket matrix coordinate real general\n1 2 2\n1 1 0.1\n1 2 16777217\n");
  const Csr<float> a = read_matrix_market<float>(path);
  EXPECT_EQ(a.values, (std::vector<float>{0.1f, 16777216.0f}));
}

TEST(MatrixMarketRead, GzipCompressedFile) {
  const Csr<double> a = from_triplets(3, 3, {{0, 1, 0.5}, {2, 2, -1.25}});
  const std::string path = scratch_path("compressed.mtx.gz");
  write_matrix_market(path, a);
  const std::string bytes = read_bytes(path);
  ASSERT_GE(bytes.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x1f);  // really gzip
  EXPECT_EQ(static_cast<unsigned char>(bytes[1]), 0x8b);
  EXPECT_EQ(read_matrix_market<double>(path), a);
}

TEST(MatrixMarketWrite, CoordinateRealGeneralInRowOrder) {
  const std::string path = scratch_path("written.mtx");
  write_matrix_market(path, from_triplets(2, 3, {{1, 0, 0.1}, {0, 2, -2.0}, {1, 2, 1e-300}}));
  EXPECT_EQ(read_bytes(path),
            "%%MatrixMarket matrix coordinate real general\n"
            "2 3 3\n"
            "1 3 -2\n"
            "2 1 0.1\n"
            "2 3 1e-300\n");
}

template <class T>
Csr<T> tricky_values_matrix() {
  // Values whose decimal forms need every digit, extremes, a subnormal, -0.
  const std::vector<T> values = {T(1) / T(3),
                                 T(0.1),
                                 std::nextafter(T(1), T(2)),
                                 std::numeric_limits<T>::max(),
                                 std::numeric_limits<T>::lowest(),
                                 std::numeric_limits<T>::min(),
                                 std::numeric_limits<T>::denorm_min(),
                                 T(-0.0),
                                 T(123456789.0)};
  Coo<T> coo;
  coo.rows = 4;
  coo.cols = 5;
  for (std::size_t k = 0; k < values.size(); ++k)
    coo.push(static_cast<index_t>(k % 4), static_cast<index_t>(k % 5), values[k]);
  return to_csr(coo);
}

template <class T>
void expect_bitwise_equal(const Csr<T>& a, const Csr<T>& b) {
  ASSERT_EQ(a, b);
  for (std::size_t k = 0; k < a.values.size(); ++k)
    EXPECT_EQ(std::signbit(a.values[k]), std::signbit(b.values[k])) << "entry " << k;
}

TEST(MatrixMarketRoundTrip, DoubleValuesAreExact) {
  const Csr<double> a = tricky_values_matrix<double>();
  const std::string first = scratch_path("round_trip_1.mtx");
  const std::string second = scratch_path("round_trip_2.mtx");
  write_matrix_market(first, a);
  const Csr<double> b = read_matrix_market<double>(first);
  expect_bitwise_equal(a, b);
  write_matrix_market(second, b);
  EXPECT_EQ(read_bytes(first), read_bytes(second));
}

TEST(MatrixMarketRoundTrip, FloatValuesAreExact) {
  const Csr<float> a = tricky_values_matrix<float>();
  const std::string path = scratch_path("round_trip_float.mtx");
  write_matrix_market(path, a);
  expect_bitwise_equal(a, read_matrix_market<float>(path));
}

TEST(MatrixMarketRoundTrip, EveryZooMatrix) {
  for (const ZooMatrix& zoo : matrix_zoo()) {
    const std::string path = scratch_path("zoo_" + zoo.name + ".mtx");
    write_matrix_market(path, zoo.matrix);
    EXPECT_EQ(read_matrix_market<double>(path), zoo.matrix) << zoo.name;
  }
}

TEST(MatrixMarketWrite, MissingDirectoryIsAnIoErrorAndLeavesNoFile) {
  const std::string dir = scratch_path("no_such_directory");
  const std::string path = dir + "/out.mtx";
  EXPECT_TRUE(refused_with_io_error([&] { write_matrix_market(path, from_triplets(1, 1, {{0, 0, 1}})); }, path));
  EXPECT_FALSE(fs::exists(dir));
}

TEST(MatrixMarketWrite, FailedRenameLeavesNoTemporary) {
  // The target is a directory: the data is written, the rename fails.
  const std::string dir = scratch_path("rename_fails");
  fs::create_directories(dir + "/target.mtx");
  EXPECT_THROW(write_matrix_market(dir + "/target.mtx", from_triplets(1, 1, {{0, 0, 1}})), IoError);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"target.mtx"});
}

TEST(MatrixMarketWrite, InvalidMatrixLeavesTheOldFileAlone) {
  const std::string path = write_scratch_file("keep.mtx", "old content");
  Csr<double> bad = from_triplets(2, 2, {{0, 0, 1}});
  bad.col_idx[0] = 5;  // out of range
  EXPECT_THROW(write_matrix_market(path, bad), InvalidArgument);
  EXPECT_EQ(read_bytes(path), "old content");
}

}  // namespace
}  // namespace spmv::test
