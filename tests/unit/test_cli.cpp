// The `spmv` tool run as a user runs it: exit codes, the one-line errors,
// info's JSON, gen and convert round trips, kernels.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "spmv/io.hpp"
#include "spmv/version.hpp"
#include "test_cli_support.hpp"

namespace spmv::test {
namespace {

using nlohmann::json;

json info_json(const std::string& path) {
  const CliRun run = run_cli({"info", path, "--json"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return json::parse(run.out);
}

// Exit code 2 and exactly one line on standard error that contains `expected`.
void expect_usage_error(const std::vector<std::string>& arguments, const std::string& expected) {
  const CliRun run = run_cli(arguments);
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  const std::vector<std::string> lines = run.error_lines();
  ASSERT_EQ(lines.size(), 1u) << run.err;
  EXPECT_EQ(lines[0].rfind("spmv: ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find(expected), std::string::npos) << lines[0];
}

TEST(CliInfo, JsonOfTheBundledSamples) {
  struct Expected {
    const char* file;
    index_t rows, cols, nnz;
  };
  for (const Expected& e :
       {Expected{"bcsstk14.mtx.gz", 1806, 1806, 63454},
        Expected{"watt_2.mtx.gz", 1856, 1856, 11550}, Expected{"dwt_992.mtx.gz", 992, 992, 16744},
        Expected{"heart_scale.libsvm", 270, 13, 3378}}) {
    SCOPED_TRACE(e.file);
    const json info = info_json(sample(e.file));
    EXPECT_EQ(info["rows"], e.rows);
    EXPECT_EQ(info["cols"], e.cols);
    EXPECT_EQ(info["nnz"], e.nnz);
    for (const char* field : {"min", "max", "mean", "std"})
      EXPECT_TRUE(info["row_length"].contains(field)) << field;
    for (const char* field :
         {"empty_rows", "row_length_histogram", "lower_bandwidth", "upper_bandwidth",
          "occupied_diagonals", "ell_padding_ratio", "hyb_ell_width", "hyb_coo_nnz",
          "block_density", "pattern_symmetric", "value_symmetric", "distinct_values"})
      EXPECT_TRUE(info.contains(field)) << field;
  }
  const json heart = info_json(sample("heart_scale.libsvm"));
  EXPECT_EQ(heart["labels"]["count"], 270);
  ASSERT_EQ(heart["labels"]["classes"].size(), 2u);
  EXPECT_EQ(heart["labels"]["classes"][0]["label"], -1.0);
  EXPECT_EQ(heart["labels"]["classes"][0]["rows"], 150);
  EXPECT_EQ(heart["labels"]["classes"][1]["rows"], 120);
  // Symmetric storage is expanded: the full matrix is pattern-symmetric.
  EXPECT_EQ(info_json(sample("bcsstk14.mtx.gz"))["pattern_symmetric"], true);
}

TEST(CliInfo, TableNamesTheFileAndTheSize) {
  const CliRun run = run_cli({"info", sample("watt_2.mtx.gz")});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("watt_2.mtx.gz"), std::string::npos);
  EXPECT_NE(run.out.find("1856 x 1856, 11550 non-zeros"), std::string::npos) << run.out;
  EXPECT_TRUE(run.err.empty()) << run.err;
}

// Every real matrix of the shared data: rows, cols and nnz as SOURCES.md lists them.
TEST(CliInfo, JsonMatchesTheSourcesTableForEveryRealMatrix) {
  const std::string sources = shared_data_dir() + "/SOURCES.md";
  std::ifstream table(sources);
  if (!table) GTEST_SKIP() << "no " << sources << " (shared data absent)";
  int checked = 0;
  for (std::string line; std::getline(table, line);) {
    // | `name.mtx.gz` | rows | cols | entries | nnz | ...
    if (line.rfind("| `", 0) != 0 || line.find(".mtx.gz`") == std::string::npos) continue;
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, '|');) cells.push_back(cell);
    const std::string name =
        cells[1].substr(cells[1].find('`') + 1, cells[1].rfind('`') - cells[1].find('`') - 1);
    SCOPED_TRACE(name);
    const json info = info_json(shared_data_dir() + "/matrices/" + name);
    EXPECT_EQ(info["rows"], std::stol(cells[2]));
    EXPECT_EQ(info["cols"], std::stol(cells[3]));
    EXPECT_EQ(info["nnz"], std::stol(cells[5]));
    ++checked;
  }
  EXPECT_GE(checked, 50);
}

TEST(CliInfo, FormatOptionOverridesTheExtension) {
  const std::string dir = temp_dir();
  const std::string copy = dir + "/heart.txt";
  std::filesystem::copy_file(sample("heart_scale.libsvm"), copy);
  expect_usage_error({"info", copy}, "heart.txt");
  const CliRun run = run_cli({"info", copy, "--format", "libsvm", "--json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(json::parse(run.out)["nnz"], 3378);
}

TEST(CliErrors, BadInputGivesExitTwoAndOneLineNamingTheFile) {
  const std::string dir = temp_dir();
  const std::string bad = dir + "/bad.mtx";
  std::ofstream(bad) << "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n4 1 2.0\n";
  expect_usage_error({"info", bad}, "bad.mtx:4:");
  const std::string truncated = dir + "/truncated.mtx";
  std::ofstream(truncated) << "%%MatrixMarket matrix coordinate real general\n3 3 5\n1 1 1.0\n";
  expect_usage_error({"info", truncated}, "truncated.mtx");
  expect_usage_error({"info", dir + "/missing.mtx"}, "missing.mtx");
  expect_usage_error({"convert", bad, "-o", dir + "/out.spmv"}, "bad.mtx:4:");
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.spmv"));
  expect_usage_error({"bench", bad}, "bad.mtx:4:");
}

// Files that once crashed, exhausted memory or time, or failed later (issue 17).
TEST(CliErrors, HostileFilesGiveExitTwoAndOneLineNamingTheFile) {
  const std::string dir = temp_dir();
  const std::string bomb = dir + "/bomb.mtx";
  std::ofstream(bomb) << "%%MatrixMarket matrix coordinate real general\n2000000000 2000000000 2000000000\n";
  expect_usage_error({"info", bomb}, "bomb.mtx:2: row count 2000000000 is more than a file of");
  const std::string huge_index = dir + "/huge_index.svm";
  std::ofstream(huge_index) << "1 2000000000:1\n";
  expect_usage_error({"info", huge_index}, "huge_index.svm:1: feature index 2000000000");
  const std::string nan = dir + "/nan.spmv";
  Csr<double> with_nan;
  with_nan.rows = with_nan.cols = 1;
  with_nan.row_ptr = {0, 1};
  with_nan.col_idx = {0};
  with_nan.values = {std::numeric_limits<double>::quiet_NaN()};
  write_binary(nan, with_nan);
  expect_usage_error({"bench", nan}, "nan.spmv: value 0 is nan, not finite");
  expect_usage_error({"info", nan}, "nan.spmv");
}

TEST(CliErrors, UsageErrorsGiveExitTwoAndOneLine) {
  expect_usage_error({"frobnicate"}, "unknown command 'frobnicate'");
  expect_usage_error({}, "subcommand");
  expect_usage_error({"info", "--bogus", sample("watt_2.mtx.gz")}, "--bogus");
  expect_usage_error({"info"}, "file");
  expect_usage_error({"info", sample("watt_2.mtx.gz"), "--format", "csv"}, "csv");
  expect_usage_error({"bench"}, "FILE or --gen");
  expect_usage_error({"bench", sample("watt_2.mtx.gz"), "--backend", "cpu", "--kernels", "nope"},
                     "unknown kernel 'nope'");
  expect_usage_error({"bench", sample("watt_2.mtx.gz"), "--precision", "f16"}, "f16");
  expect_usage_error({"bench", sample("watt_2.mtx.gz"), "--beta", "nan"}, "finite");
  expect_usage_error({"bench", sample("watt_2.mtx.gz"), "--k", "2", "--transposed"}, "--transposed");
#ifndef SPMV_HAVE_CUDA
  expect_usage_error({"bench", sample("watt_2.mtx.gz"), "--backend", "cuda"},
                     "backend 'cuda' cannot run here: CUDA backends not in this build");
#endif
  expect_usage_error({"gen", "no_such_kind", "-o", temp_dir() + "/x.mtx"}, "no_such_kind");
}

TEST(CliErrors, HelpExitsZero) {
  for (const std::vector<std::string>& arguments :
       {std::vector<std::string>{"--help"}, {"bench", "--help"}, {"gen", "--help"}}) {
    const CliRun run = run_cli(arguments);
    EXPECT_EQ(run.exit_code, 0);
    EXPECT_NE(run.out.find("Usage"), std::string::npos) << run.out;
    EXPECT_TRUE(run.err.empty()) << run.err;
  }
}

TEST(CliErrors, VersionNamesTheLibraryCommitAndCuda) {
  const CliRun run = run_cli({"--version"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out.rfind(std::string("spmv ") + library_version() + " (commit " + build_commit() + ")\n", 0), 0u)
      << run.out;
#ifdef SPMV_HAVE_CUDA
  EXPECT_NE(run.out.find("cuSPARSE "), std::string::npos) << run.out;
#else
  EXPECT_NE(run.out.find("built without CUDA"), std::string::npos) << run.out;
#endif
  EXPECT_NE(std::string(build_commit()), "");
  EXPECT_TRUE(run.err.empty()) << run.err;
}

TEST(CliGen, OptionAndSpecFormsWriteTheSameMatrix) {
  const std::string dir = temp_dir();
  ASSERT_EQ(run_cli({"gen", "stencil27", "--n", "6", "-o", dir + "/a.mtx"}).exit_code, 0);
  ASSERT_EQ(run_cli({"gen", "stencil27:n=6", "-o", dir + "/b.mtx"}).exit_code, 0);
  ASSERT_EQ(run_cli({"gen", "stencil27", "--n=6", "-o", dir + "/c.spmv"}).exit_code, 0);
  EXPECT_EQ(read_text(dir + "/a.mtx"), read_text(dir + "/b.mtx"));
  EXPECT_EQ(read_matrix<double>(dir + "/a.mtx"), read_binary<double>(dir + "/c.spmv"));
  // 27-point stencil on a 6^3 grid: (3*6 - 2)^3 non-zeros.
  const json info = info_json(dir + "/a.mtx");
  EXPECT_EQ(info["rows"], 216);
  EXPECT_EQ(info["cols"], 216);
  EXPECT_EQ(info["nnz"], 16 * 16 * 16);
  EXPECT_EQ(info["row_length"]["max"], 27);
}

TEST(CliGen, ListNamesEveryKindAndUnknownParametersAreRefused) {
  const CliRun list = run_cli({"gen", "--list"});
  ASSERT_EQ(list.exit_code, 0);
  for (const char* kind : {"stencil5", "stencil27", "rmat", "banded"})
    EXPECT_NE(list.out.find(kind), std::string::npos) << kind;
  expect_usage_error({"gen", "stencil27", "--bogus", "3", "-o", temp_dir() + "/x.mtx"}, "bogus");
  expect_usage_error({"gen", "stencil27", "--n"}, "--n");
}

TEST(CliConvert, EveryFormatRoundTripsToTheSameMatrix) {
  const std::string dir = temp_dir();
  const Csr<double> original = read_matrix<double>(sample("watt_2.mtx.gz"));
  // A chain through every format; each step is read back and compared.
  std::string previous = sample("watt_2.mtx.gz");
  for (const char* name : {"a.spmv", "b.mtx", "c.libsvm", "d.mtx.gz", "e.svm", "f.mtx"}) {
    SCOPED_TRACE(name);
    const std::string next = dir + "/" + name;
    const CliRun run = run_cli({"convert", previous, "-o", next});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(read_matrix<double>(next), original);
    previous = next;
  }
}

TEST(CliConvert, LibsvmToLibsvmKeepsTheLabels) {
  const std::string out = temp_dir() + "/heart.svm";
  ASSERT_EQ(run_cli({"convert", sample("heart_scale.libsvm"), "-o", out}).exit_code, 0);
  const LabeledMatrix<double> original = read_libsvm<double>(sample("heart_scale.libsvm"));
  const LabeledMatrix<double> copy = read_libsvm<double>(out);
  EXPECT_EQ(copy.features, original.features);
  EXPECT_EQ(copy.labels, original.labels);
}

TEST(CliConvert, SinglePrecisionOutputRoundsTheValues) {
  const std::string out = temp_dir() + "/w32.spmv";
  ASSERT_EQ(
      run_cli({"convert", sample("watt_2.mtx.gz"), "-o", out, "--precision", "f32"}).exit_code, 0);
  EXPECT_EQ(read_binary<float>(out), cast<float>(read_matrix<double>(sample("watt_2.mtx.gz"))));
}

TEST(CliKernels, ListsTheCpuKernel) {
  const CliRun table = run_cli({"kernels"});
  ASSERT_EQ(table.exit_code, 0);
  EXPECT_NE(table.out.find("cpu-csr"), std::string::npos);
  EXPECT_NE(table.out.find("\n  threads: 1..; default OpenMP's thread count; "), std::string::npos) << table.out;
  const CliRun run = run_cli({"kernels", "--json"});
  ASSERT_EQ(run.exit_code, 0);
  bool found = false;
  const json listing = json::parse(run.out);
  for (const json& kernel : listing["kernels"])
    found |= kernel["name"] == "cpu-csr" && kernel["backend"] == "cpu" && kernel["native_spmm"] == true &&
             kernel["params"] == json::parse(R"([{"name": "threads", "min": 1, "default": "OpenMP's thread count",
                                                  "meaning": "threads sharing the rows"}])");
  EXPECT_TRUE(found) << run.out;
}

}  // namespace
}  // namespace spmv::test
