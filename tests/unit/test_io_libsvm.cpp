// LIBSVM reading and writing: hand-written files, bad input, round trips and
// the real datasets of ../shared/data/libsvm.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include "test_io_support.hpp"

namespace spmv::test {
namespace {

LabeledMatrix<double> read_text(const std::string& name, const std::string& text, index_t min_cols = 0) {
  return read_libsvm<double>(write_scratch_file(name, text), {}, min_cols);
}

TEST(LibsvmRead, LabelsFeaturesQidAndComments) {
  const LabeledMatrix<double> data = read_text("basic.svm",
                                               "# a comment line\n"
                                               "+1 1:0.5 3:-2\n"
                                               "-1 qid:7 2:1e-3 # trailing comment\n"
                                               "3\n"
                                               "2.5\t1:1\t4:4  \r\n");
  EXPECT_EQ(data.labels, (std::vector<double>{1.0, -1.0, 3.0, 2.5}));
  EXPECT_EQ(data.features, from_triplets(4, 4, {{0, 0, 0.5}, {0, 2, -2}, {1, 1, 1e-3}, {3, 0, 1}, {3, 3, 4}}));
}

TEST(LibsvmRead, ColumnsAreTheLargestIndexUnlessMoreAreAsked) {
  EXPECT_EQ(read_text("cols.svm", "1 2:1\n0 5:1\n").features.cols, 5);
  EXPECT_EQ(read_text("min_cols.svm", "1 2:1\n0 5:1\n", 123).features.cols, 123);
  const LabeledMatrix<double> empty = read_text("empty.svm", "");
  EXPECT_EQ(empty.features.rows, 0);
  EXPECT_TRUE(empty.labels.empty());
}

TEST(LibsvmRead, GzipCompressed) {
  LabeledMatrix<double> data{from_triplets(2, 3, {{0, 2, 1.5}, {1, 0, -1}}), {1.0, -1.0}};
  const std::string path = scratch_path("data.svm.gz");
  write_libsvm(path, data);
  const LabeledMatrix<double> back = read_libsvm<double>(path);
  EXPECT_EQ(back.features, data.features);
  EXPECT_EQ(back.labels, data.labels);
}

TEST(LibsvmWrite, TextAndRoundTrip) {
  Coo<double> coo;
  coo.rows = 3;
  coo.cols = 5;
  coo.push(0, 4, 0.1);
  coo.push(0, 0, 1.0 / 3.0);
  coo.push(2, 1, -7.0);
  const LabeledMatrix<double> data{to_csr(coo), {1.0, -1.0, 0.5}};
  const std::string path = scratch_path("written.libsvm");
  write_libsvm(path, data);
  EXPECT_EQ(read_bytes(path), "1 1:0.3333333333333333 5:0.1\n-1\n0.5 2:-7\n");
  // The column count is not stored: a trailing empty column needs min_cols.
  const LabeledMatrix<double> back = read_libsvm<double>(path, {}, data.features.cols);
  EXPECT_EQ(back.features, data.features);
  EXPECT_EQ(back.labels, data.labels);
}

TEST(LibsvmWrite, LabelCountMustMatchRows) {
  const LabeledMatrix<double> data{from_triplets(2, 2, {{0, 0, 1}}), {1.0}};
  EXPECT_THROW(write_libsvm(scratch_path("mismatch.svm"), data), InvalidArgument);
  EXPECT_FALSE(std::filesystem::exists(scratch_path("mismatch.svm")));
}

TEST(LibsvmBadInput, EachProblemNamesFileAndLine) {
  struct Bad {
    const char* name;
    const char* text;
    std::int64_t line;
    const char* fragment;
  };
  const Bad cases[] = {
      {"index_zero", "1 1:1\n1 0:2\n", 2, "feature index 0 is not positive"},
      {"index_negative", "1 -3:2\n", 1, "feature index -3"},
      {"not_increasing", "1 1:1\n-1 2:1 5:1 4:1\n", 2, "feature index 4 does not follow 5"},
      {"repeated_index", "1 2:1 2:1\n", 1, "feature index 2 does not follow 2"},
      {"missing_colon", "1 3 1.5\n", 1, "expected index:value, found '3'"},
      {"missing_label", "1:1 2:2\n", 1, "expected the label, found '1:1'"},
      {"bad_label", "yes 1:1\n", 1, "expected the label, found 'yes'"},
      {"bad_value", "1 1:abc\n", 1, "expected the feature value"},
      {"value_suffix", "1 1:2.5x\n", 1, "'2.5x'"},
      {"empty_value", "1 1: 2:3\n", 1, "feature value is missing"},
      {"nan_value", "1 1:nan\n", 1, "not finite"},
      {"inf_label", "inf 1:1\n", 1, "not finite"},
      {"blank_line", "1 1:1\n\n-1 2:1\n", 2, "empty line"},
      {"blank_last_line", "1 1:1\n   \n", 2, "empty line"},
      {"index_beyond_int64", "1 99999999999999999999:1\n", 1, "64-bit"},
  };
  for (const Bad& bad : cases) {
    SCOPED_TRACE(bad.name);
    const std::string path = write_scratch_file(std::string(bad.name) + ".svm", bad.text);
    EXPECT_TRUE(refused_with_parse_error([&] { read_libsvm<double>(path); }, path, bad.line, bad.fragment));
  }
}

TEST(LibsvmBadInput, IndexBeyondInt32IsASizeError) {
  const std::string path = write_scratch_file("huge_index.svm", "1 1:1\n1 3000000000:1\n");
  try {
    read_libsvm<double>(path);
    FAIL() << "accepted a 3e9 feature index";
  } catch (const SizeError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ":2: ", 0), 0u) << e.what();
  }
}

// Found by fuzzing (issue 17): one huge feature index in a 15-byte file made
// `spmv info` work for over 20 s on a matrix of 2e9 columns.
TEST(LibsvmBadInput, IndexBeyondWhatTheFileJustifiesIsASizeError) {
  const std::string path = write_scratch_file("one_huge_index.svm", "1 2000000000:1\n");
  try {
    read_libsvm<double>(path);
    ADD_FAILURE() << "accepted a 2e9-column matrix from 15 bytes";
  } catch (const SizeError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ":1: feature index 2000000000 is more than a file of 15 bytes", 0),
              0u)
        << e.what();
  }
  ReadOptions trusted;
  trusted.max_dimension = max_index;
  EXPECT_EQ(read_libsvm<double>(path, trusted).features.cols, 2000000000);
  const std::string floor_sized = write_scratch_file(
      "floor_index.svm", "1 " + std::to_string(ReadOptions::dimension_floor) + ":1\n");
  EXPECT_EQ(read_libsvm<double>(floor_sized).features.cols, ReadOptions::dimension_floor);
}

TEST(LibsvmRead, NonFiniteAllowedWhenAsked) {
  const std::string path = write_scratch_file("nonfinite.svm", "nan 1:inf\n");
  ReadOptions options;
  options.allow_nonfinite = true;
  const LabeledMatrix<double> data = read_libsvm<double>(path, options);
  EXPECT_TRUE(std::isnan(data.labels[0]));
  EXPECT_TRUE(std::isinf(data.features.values[0]));
}

struct DatasetFacts {
  std::int64_t rows, cols, nnz, positive, negative;
};

// The LIBSVM table of SOURCES.md: | `file` | rows | cols | nnz | +1: P, -1: N | size |
std::map<std::string, DatasetFacts> libsvm_table() {
  std::map<std::string, DatasetFacts> table;
  std::ifstream in(shared_data_dir() + "/SOURCES.md");
  const std::regex row(R"(^\| `([^`]+)` \| (\d+) \| (\d+) \| (\d+) \| \+1: (\d+), -1: (\d+) \|)");
  std::smatch m;
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, m, row))
      table[m[1]] = {std::stoll(m[2]), std::stoll(m[3]), std::stoll(m[4]), std::stoll(m[5]), std::stoll(m[6])};
  return table;
}

TEST(LibsvmRealData, EveryDatasetMatchesSourcesMd) {
  SPMV_SKIP_WITHOUT_SHARED_DATA();
  const std::map<std::string, DatasetFacts> table = libsvm_table();
  ASSERT_EQ(table.size(), 8u);
  for (const auto& [name, facts] : table) {
    SCOPED_TRACE(name);
    const LabeledMatrix<double> data = read_libsvm<double>(shared_data_dir() + "/libsvm/" + name);
    EXPECT_EQ(data.features.rows, facts.rows);
    EXPECT_EQ(data.features.cols, facts.cols);
    EXPECT_EQ(data.features.nnz(), facts.nnz);
    EXPECT_EQ(std::count(data.labels.begin(), data.labels.end(), 1.0), facts.positive);
    EXPECT_EQ(std::count(data.labels.begin(), data.labels.end(), -1.0), facts.negative);
  }
}

TEST(LibsvmRealData, RoundTripIsIdentical) {
  SPMV_SKIP_WITHOUT_SHARED_DATA();
  const LabeledMatrix<double> data = read_libsvm<double>(shared_data_dir() + "/libsvm/a1a");
  const std::string path = scratch_path("a1a_copy.svm");
  write_libsvm(path, data);
  const LabeledMatrix<double> back = read_libsvm<double>(path, {}, data.features.cols);
  EXPECT_EQ(back.features, data.features);
  EXPECT_EQ(back.labels, data.labels);
}

}  // namespace
}  // namespace spmv::test
