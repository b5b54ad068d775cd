// Every real matrix of ../shared/data/matrices is read with the rows, columns
// and non-zeros that SOURCES.md lists for it (symmetric files expanded), and
// survives a round trip through the binary format.
#include <fstream>
#include <map>
#include <regex>

#include "test_io_support.hpp"

namespace spmv::test {
namespace {

struct Expected {
  std::int64_t rows, cols, nnz;
};

// The "Matrices" table of SOURCES.md: | `file` | rows | cols | entries | nnz | ...
std::map<std::string, Expected> sources_table() {
  std::map<std::string, Expected> table;
  std::ifstream in(shared_data_dir() + "/SOURCES.md");
  const std::regex row(R"(^\| `([^`]+\.mtx\.gz)` \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|)");
  std::smatch match;
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, match, row))
      table[match[1]] = {std::stoll(match[2]), std::stoll(match[3]), std::stoll(match[5])};
  return table;
}

TEST(RealMatrices, EveryFileHasTheSizesOfSourcesMd) {
  const std::vector<std::string> files = real_matrix_files();
  if (files.empty()) GTEST_SKIP() << "no real matrices under " << shared_data_dir() << "/matrices";
  const std::map<std::string, Expected> table = sources_table();
  EXPECT_EQ(table.size(), files.size()) << "SOURCES.md and the folder disagree";
  for (const std::string& path : files) {
    const std::string name = path.substr(path.find_last_of('/') + 1);
    SCOPED_TRACE(name);
    const auto expected = table.find(name);
    ASSERT_NE(expected, table.end()) << "not listed in SOURCES.md";
    const Csr<double> a = read_matrix<double>(path);
    EXPECT_EQ(a.rows, expected->second.rows);
    EXPECT_EQ(a.cols, expected->second.cols);
    EXPECT_EQ(a.nnz(), expected->second.nnz);
    EXPECT_NO_THROW(validate(a));
    const std::string binary = scratch_path("real.spmv");
    write_binary(binary, a);
    EXPECT_EQ(read_binary<double>(binary), a);
  }
}

}  // namespace
}  // namespace spmv::test
