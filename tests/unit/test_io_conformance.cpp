// The Matrix Market conformance files of ../shared/data/mm-conformance (the
// test suite of fast_matrix_market), each handled as its README says.
#include <filesystem>
#include <algorithm>

#include "test_io_support.hpp"

namespace spmv::test {
namespace {

namespace fs = std::filesystem;

Csr<double> read(const std::string& relative) { return read_matrix_market<double>(conformance_file(relative)); }

// Every file below `folder` (relative), sorted.
std::vector<std::string> files_in(const std::string& folder) {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(conformance_file(folder)))
    files.push_back(folder + "/" + entry.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

// Refused with a ParseError naming the file, a line, and `fragment`.
::testing::AssertionResult refused(const std::string& relative, const std::string& fragment) {
  const std::string path = conformance_file(relative);
  try {
    read_matrix_market<double>(path);
  } catch (const ParseError& e) {
    const std::string message = e.what();
    if (e.file() != path || e.line() < 1 || message.rfind(path + ":" + std::to_string(e.line()) + ": ", 0) != 0)
      return ::testing::AssertionFailure() << "no FILE:LINE in: " << message;
    if (message.find(fragment) == std::string::npos)
      return ::testing::AssertionFailure() << "message lacks '" << fragment << "': " << message;
    return ::testing::AssertionSuccess();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "not a ParseError: " << e.what();
  }
  return ::testing::AssertionFailure() << relative << " was accepted";
}

TEST(MatrixMarketConformance, TopLevelMatricesAreRead) {
  SPMV_SKIP_WITHOUT_SHARED_DATA();
  EXPECT_EQ(read("eye3.mtx"), from_triplets(3, 3, {{0, 0, 1}, {1, 1, 1}, {2, 2, 1}}));
  EXPECT_EQ(read("eye3_array.mtx"), read("eye3.mtx"));
  EXPECT_EQ(read("eye3_pattern.mtx"), read("eye3.mtx"));
  EXPECT_EQ(read("eye3_str.mtx"), read("eye3.mtx"));
  EXPECT_EQ(read("2col_array.mtx"),
            from_triplets(3, 2, {{0, 0, 10}, {1, 0, 11}, {2, 0, 12}, {0, 1, 20}, {1, 1, 21}, {2, 1, 22}}));
  EXPECT_EQ(read("row_3by4.mtx"), from_triplets(3, 4, {{0, 0, 1}, {0, 1, 2}, {0, 2, 3}, {0, 3, 4}}));
  const Csr<double> graph = read("kepner_gilbert_graph.mtx");
  EXPECT_EQ(graph.rows, 7);
  EXPECT_EQ(graph.cols, 7);
  EXPECT_EQ(graph.nnz(), 12);
}

TEST(MatrixMarketConformance, NistExampleWrittenThreeWaysGivesOneMatrix) {
  SPMV_SKIP_WITHOUT_SHARED_DATA();
  const Csr<double> expected = from_triplets(
      5, 5, {{0, 0, 1.0}, {1, 1, 10.5}, {3, 1, 250.5}, {2, 2, 0.015}, {0, 3, 6.0}, {3, 3, -280.0}, {3, 4, 33.32},
             {4, 4, 12.0}});
  EXPECT_EQ(read("nist_ex1.mtx"), expected);
  EXPECT_EQ(read("nist_ex1_freeformat.mtx"), expected);
  EXPECT_EQ(read("nist_ex1_more_freeformat.mtx"), expected);
  EXPECT_EQ(read("permissive/windows_lineendings_nist_ex1_more_freeformat.mtx"), expected);
}

TEST(MatrixMarketConformance, PermissiveFilesAreRead) {
  SPMV_SKIP_WITHOUT_SHARED_DATA();
  const Csr<double> eye3 = read("eye3.mtx");
  EXPECT_EQ(read("permissive/permissive_banner_leading_spaces_eye3.mtx"), eye3);
  EXPECT_EQ(read("permissive/permissive_banner_one_percent_eye3.mtx"), eye3);
  EXPECT_EQ(read("permissive/permissive_lines_indented.mtx"), from_triplets(1, 1, {{0, 0, 1}}));
  EXPECT_EQ(files_in("permissive").size(), 4u) << "a new permissive file needs a check here";
}

TEST(MatrixMarketConformance, GraphBlasRealFilesAreReadComplexRefused) {
  SPMV_SKIP_WITHOUT_SHARED_DATA();
  // Every real one is the 3 x 1 column [1 1 2] (the last row given twice).
  const Csr<double> column = from_triplets(3, 1, {{0, 0, 1}, {1, 0, 1}, {2, 0, 2}});
  int read_count = 0;
  for (const std::string& file : files_in("graphblas")) {
    SCOPED_TRACE(file);
    if (file.find("complex") != std::string::npos) {
      EXPECT_TRUE(refused(file, "complex"));
    } else {
      EXPECT_EQ(read(file), column);
      ++read_count;
    }
  }
  EXPECT_EQ(read_count, 11);
}

TEST(MatrixMarketConformance, SymmetricFilesEqualTheirGeneralForm) {
  SPMV_SKIP_WITHOUT_SHARED_DATA();
  for (const char* kind : {"coordinate_symmetric_row", "coordinate_skew_symmetric_row",
                           "coordinate_pattern_symmetric_row"}) {
    SCOPED_TRACE(kind);
    const std::string base = std::string("symmetry/") + kind;
    EXPECT_EQ(read(base + ".mtx"), read(base + "_general.mtx"));
  }
  for (const char* kind : {"array_symmetric", "array_skew-symmetric"}) {
    SCOPED_TRACE(kind);
    const std::string base = std::string("symmetry_array/") + kind;
    EXPECT_EQ(read(base + ".mtx"), read(base + "_general.mtx"));
  }
  EXPECT_EQ(read("symmetry/coordinate_skew_symmetric_row.mtx"),
            from_triplets(3, 3, {{2, 0, 10}, {0, 2, -10}, {2, 1, 20}, {1, 2, -20}}));
}

TEST(MatrixMarketConformance, RealHermitianIsReadAsSymmetric) {
  SPMV_SKIP_WITHOUT_SHARED_DATA();
  EXPECT_EQ(read("symmetry/coordinate_hermitian_real_row.mtx"),
            read("symmetry/coordinate_hermitian_real_row_general.mtx"));
}

TEST(MatrixMarketConformance, ComplexIsRefusedByName) {
  SPMV_SKIP_WITHOUT_SHARED_DATA();
  for (const char* file : {"symmetry/coordinate_hermitian_row.mtx", "symmetry_array/array_hermitian.mtx",
                           "symmetry_array/array_hermitian_general.mtx", "eye3_complex.mtx",
                           "vector_coordinate_complex.mtx", "vector_coordinate_complex_dupes.mtx"})
    EXPECT_TRUE(refused(file, "complex")) << file;
}

TEST(MatrixMarketConformance, EveryInvalidFileIsRefusedWithFileAndLine) {
  SPMV_SKIP_WITHOUT_SHARED_DATA();
  const std::vector<std::string> files = files_in("invalid");
  EXPECT_EQ(files.size(), 31u);
  for (const std::string& file : files) EXPECT_TRUE(refused(file, "")) << file;
  // A few messages checked in full detail.
  EXPECT_TRUE(refused("invalid/invalid_indices_out_of_range_1.mtx", "row index 5000 is outside [1, 7]"));
  EXPECT_TRUE(refused("invalid/invalid_matrix_coord_too_long.mtx", "more entries than the 3"));
  EXPECT_TRUE(refused("invalid/invalid_truncated_lines.mtx", "ends after 2 of the 12 entries"));
  EXPECT_TRUE(refused("invalid/invalid_bad_value.mtx", "'not_a_double'"));
  EXPECT_TRUE(refused("invalid/invalid_dimensions_out_of_range_1.mtx", "negative row count"));
  EXPECT_TRUE(refused("invalid/invalid_truncated_header_1.mtx", "missing size line"));
}

TEST(MatrixMarketConformance, Overflow) {
  SPMV_SKIP_WITHOUT_SHARED_DATA();
  EXPECT_TRUE(refused("overflow/overflow_dim_gt_int64.mtx", "64-bit"));
  EXPECT_TRUE(refused("overflow/overflow_index_gt_int64.mtx", "64-bit"));
  EXPECT_TRUE(refused("overflow/overflow_value_gt_float64.mtx", "out of the range of double"));
  EXPECT_TRUE(refused("overflow/overflow_value_gt_float128.mtx", "out of the range of double"));
  EXPECT_TRUE(refused("overflow/overflow_value_gt_complex128.mtx", "complex"));
  // An integer beyond int64 cannot be stored exactly: refused.
  EXPECT_TRUE(refused("overflow/overflow_value_gt_int64.mtx", "integer value"));
  // Beyond int32 but exact in double: read.
  EXPECT_EQ(read("overflow/overflow_value_gt_int32.mtx"), from_triplets(3, 3, {{1, 1, 8589934592.0}}));
  EXPECT_EQ(read("overflow/overflow_index_gt_int8.mtx"), from_triplets(1000, 1000, {{299, 0, 1}}));
}

TEST(MatrixMarketConformance, VectorsAreReadAsColumns) {
  SPMV_SKIP_WITHOUT_SHARED_DATA();
  const Csr<double> expected = from_triplets(4, 1, {{0, 0, 101}, {1, 0, 202}, {3, 0, 404}});
  EXPECT_EQ(read("vector_coordinate.mtx"), expected);
  EXPECT_EQ(read("vector_array.mtx"), expected);  // its 0 is not stored
  // Duplicates summed: 202 + 202 in row 4.
  EXPECT_EQ(read("vector_coordinate_dupes.mtx"), from_triplets(4, 1, {{0, 0, 101}, {1, 0, 202}, {3, 0, 404}}));
}

}  // namespace
}  // namespace spmv::test
