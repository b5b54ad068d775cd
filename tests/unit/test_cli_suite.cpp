// `spmv suite` with the cpu backend on small matrices: what each result line
// holds, how the sets are sized, resuming (complete units skipped, units cut
// short measured again whole), the time limit, and bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "test_cli_support.hpp"

namespace spmv::test {
namespace {

using nlohmann::json;

// Small inputs for every test: two sample matrices and two tiny families.
struct SuiteInputs {
  std::string dir = temp_dir();
  std::string list = dir + "/list.txt";
  std::string families = dir + "/families.txt";
  std::string out = dir + "/results";

  SuiteInputs() {
    std::ofstream(list) << "# two samples\n"
                        << sample("dwt_992.mtx.gz") << "\n\n"
                        << sample("watt_2.mtx.gz") << "\n";
    std::ofstream(families) << "# tiny families\nst7 stencil7:n=6\nrm  rmat:scale=8\n";
  }

  // Runs the suite over both with fast settings; `extra` is appended.
  CliRun run(const std::vector<std::string>& extra = {}) const {
    std::vector<std::string> args = {
        "suite",    list, "--families",  families, "--backend",  "cpu",           "--runs", "2",
        "--warmup", "0",  "--host-runs", "1",      "--no-flush", "--cache-bytes", "100000", "--out",
        out};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args);
  }

  std::vector<json> lines() const {
    std::vector<json> parsed;
    std::istringstream text(read_text(out + "/results.jsonl"));
    for (std::string line; std::getline(text, line);) parsed.push_back(json::parse(line));
    return parsed;
  }
};

// (set, matrix, precision) -> kernels measured.
std::map<std::string, std::vector<std::string>> kernels_by_unit(const std::vector<json>& lines) {
  std::map<std::string, std::vector<std::string>> units;
  for (const json& line : lines)
    units[line["set"].get<std::string>() + "/" + line["matrix"]["name"].get<std::string>() + "/" +
          line["precision"].get<std::string>()]
        .push_back(line["kernel"]);
  return units;
}

TEST(CliSuite, EveryUnitOfEverySetIsMeasuredAndVerified) {
  const SuiteInputs in;
  const CliRun run = in.run();
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<json> lines = in.lines();
  // 3 sets x 2 matrices x 2 precisions, each with "auto" and cpu-csr.
  const auto units = kernels_by_unit(lines);
  ASSERT_EQ(units.size(), 12u);
  for (const auto& [unit, kernels] : units)
    EXPECT_EQ(kernels, (std::vector<std::string>{"auto", "cpu-csr"})) << unit;

  for (const json& line : lines) {
    EXPECT_EQ(line["status"], "ok") << line.dump();
    EXPECT_EQ(line["verified"], true);
    EXPECT_EQ(line["backend"], "cpu");
    EXPECT_TRUE(line["device"].is_null());
    EXPECT_GT(line["median_ms"].get<double>(), 0.0);
    EXPECT_GT(line["host_operand_ms"].get<double>(), 0.0);
    EXPECT_EQ(line["host_transfer_ms"].get<double>(), 0.0);  // host operands stay on the host
    const json& m = line["matrix"];
    const double value_bytes = line["precision"] == "f32" ? 4 : 8;
    // The product's compulsory bytes: row pointers, indices and values, x and y.
    const double expected_bytes = (m["rows"].get<double>() + 1) * 4 +
                                  m["nnz"].get<double>() * (4 + value_bytes) +
                                  (m["rows"].get<double>() + m["cols"].get<double>()) * value_bytes;
    EXPECT_EQ(m["product_bytes"].get<double>(), expected_bytes);
    EXPECT_EQ(m["in_cache"], expected_bytes <= 100000) << m.dump();
    if (line["kernel"] == "auto") EXPECT_EQ(line["chosen_kernel"], "cpu-csr");
  }
}

TEST(CliSuite, ReplicatedMatricesReachFourTimesTheCacheWithTheFewestCopies) {
  const SuiteInputs in;
  ASSERT_EQ(in.run({"--sets", "real,replicated"}).exit_code, 0);
  std::map<std::string, json> real;
  for (const json& line : in.lines())
    if (line["set"] == "real")
      real[line["matrix"]["name"].get<std::string>() + line["precision"].get<std::string>()] =
          line["matrix"];
  int replicated = 0;
  for (const json& line : in.lines()) {
    if (line["set"] != "replicated") continue;
    ++replicated;
    const json& m = line["matrix"];
    const json& base = real.at(m["name"].get<std::string>() + line["precision"].get<std::string>());
    const int copies = m["copies"];
    EXPECT_EQ(m["rows"], copies * base["rows"].get<int>());
    EXPECT_EQ(m["nnz"], copies * base["nnz"].get<int>());
    EXPECT_GE(m["product_bytes"].get<double>(), 4 * 100000.0);
    // One copy fewer would not reach the target.
    const double per_copy = base["product_bytes"].get<double>() - 4;
    EXPECT_LT((copies - 1) * per_copy + 4, 4 * 100000.0) << m.dump();
    EXPECT_EQ(m["in_cache"], false);
  }
  EXPECT_EQ(replicated, 8);  // 2 matrices x 2 precisions x 2 kernels
}

TEST(CliSuite, EachKIsAUnitOfItsOwn) {
  const SuiteInputs in;
  ASSERT_EQ(in.run({"--sets", "family", "--precision", "f64", "--k", "1,4"}).exit_code, 0);
  int spmm_lines = 0;
  for (const json& line : in.lines()) {
    EXPECT_EQ(line["status"], "ok") << line.dump();
    if (line["k"] == 4) {
      ++spmm_lines;
      EXPECT_EQ(line["operation"], "spmm");
      // 2 flops per non-zero and column of B.
      EXPECT_NEAR(line["gflops"].get<double>(),
                  2.0 * line["matrix"]["nnz"].get<double>() * 4 /
                      (line["median_ms"].get<double>() * 1e-3) * 1e-9,
                  1e-9 * line["gflops"].get<double>());
    } else {
      EXPECT_EQ(line["operation"], "spmv");
    }
  }
  EXPECT_EQ(spmm_lines, 4);  // 2 families x (auto, cpu-csr)
}

TEST(CliSuite, EachLayoutOfAnSpmmIsAUnitOfItsOwn) {
  const SuiteInputs in;
  const std::vector<std::string> args = {"--sets", "family", "--precision", "f64", "--k", "1,4", "--layouts", "row,col"};
  ASSERT_EQ(in.run(args).exit_code, 0);
  std::map<std::string, int> lines_of;  // "k layout" -> result lines
  for (const json& line : in.lines()) {
    EXPECT_EQ(line["status"], "ok") << line.dump();
    ++lines_of[std::to_string(line["k"].get<int>()) + " " + line["layout"].get<std::string>()];
  }
  // 2 families x (auto, cpu-csr) each; the SpMV is measured once, row-major.
  EXPECT_EQ(lines_of, (std::map<std::string, int>{{"1 row-major", 4}, {"4 row-major", 4}, {"4 col-major", 4}}));
  const CliRun again = in.run(args);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("0 units to measure (6 already in"), std::string::npos) << again.err;
}

TEST(CliSuite, RerunSkipsWhatWasMeasured) {
  const SuiteInputs in;
  ASSERT_EQ(in.run().exit_code, 0);
  const std::string before = read_text(in.out + "/results.jsonl");
  const CliRun again = in.run();
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("0 units to measure (12 already"), std::string::npos) << again.err;
  EXPECT_EQ(read_text(in.out + "/results.jsonl"), before);
}

TEST(CliSuite, AUnitCutShortIsMeasuredAgainWhole) {
  const SuiteInputs in;
  ASSERT_EQ(in.run().exit_code, 0);
  std::vector<json> lines = in.lines();
  // Drop one line of the first unit (as if interrupted between its kernels)
  // and cut the last line in half (as if interrupted while appending).
  std::string text;
  for (std::size_t i = 1; i + 1 < lines.size(); ++i) text += lines[i].dump() + "\n";
  text += lines.back().dump().substr(0, 40);
  std::ofstream(in.out + "/results.jsonl", std::ios::trunc) << text;

  const CliRun again = in.run();
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("2 units to measure (10 already"), std::string::npos) << again.err;
  const auto units = kernels_by_unit(in.lines());
  ASSERT_EQ(units.size(), 12u);
  for (const auto& [unit, kernels] : units)
    EXPECT_EQ(kernels.size(), 2u) << unit << ": measured once per kernel, old lines removed";
  EXPECT_EQ(in.lines().size(), lines.size());
}

TEST(CliSuite, TimeLimitStopsBeforeAMatrixAndARerunFinishes) {
  const SuiteInputs in;
  ASSERT_EQ(in.run({"--sets", "family", "--precision", "f64"}).exit_code, 0);
  // A limit already past when the suite starts: nothing more is started.
  const CliRun limited = in.run({"--sets", "family", "--time-limit", "0.000001"});
  ASSERT_EQ(limited.exit_code, 0) << limited.err;
  const json summary = json::parse(read_text(in.out + "/suite.json"));
  EXPECT_EQ(summary["status"], "stopped by the time limit");
  EXPECT_EQ(summary["units_already_measured"], 2);
  EXPECT_EQ(summary["units"].size(), 2u);  // the f32 units, not measured
  EXPECT_EQ(summary["units"][0]["measured"], false);
  EXPECT_EQ(kernels_by_unit(in.lines()).size(), 2u);
  ASSERT_EQ(in.run({"--sets", "family"}).exit_code, 0);
  EXPECT_EQ(kernels_by_unit(in.lines()).size(), 4u);
  EXPECT_EQ(json::parse(read_text(in.out + "/suite.json"))["status"], "complete");
}

TEST(CliSuite, ResultsOfAnotherDeviceAreNotMixedIn) {
  const SuiteInputs in;
  ASSERT_EQ(in.run({"--sets", "family", "--precision", "f64"}).exit_code, 0);
  std::vector<json> lines = in.lines();
  std::string text;
  for (json& line : lines) {
    line["device"] = {{"name", "Another GPU"}};
    text += line.dump() + "\n";
  }
  std::ofstream(in.out + "/results.jsonl", std::ios::trunc) << text;
  const CliRun run = in.run({"--sets", "family"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("measured on 'Another GPU'"), std::string::npos) << run.err;
}

TEST(CliSuite, BadInputIsNamed) {
  const SuiteInputs in;
  std::ofstream(in.dir + "/bad_families.txt") << "ok stencil7:n=4\n\nbroken\n";
  CliRun run = run_cli(
      {"suite", "--families", in.dir + "/bad_families.txt", "--backend", "cpu", "--out", in.out});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("bad_families.txt:3: expected 'NAME SPEC'"), std::string::npos) << run.err;

  std::ofstream(in.dir + "/typo.txt") << "x stencil7:size=4\n";
  run = run_cli({"suite", "--families", in.dir + "/typo.txt", "--backend", "cpu", "--out", in.out});
  EXPECT_NE(run.err.find("typo.txt:1: generator 'stencil7' has no parameter 'size'"),
            std::string::npos)
      << run.err;

  std::ofstream(in.dir + "/list_missing.txt") << sample("dwt_992.mtx.gz") << "\nnot_there.mtx\n";
  run = run_cli({"suite", in.dir + "/list_missing.txt", "--backend", "cpu", "--sets", "real",
                 "--out", in.out});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("list_missing.txt:2: no matrix file"), std::string::npos) << run.err;

  run = run_cli({"suite", in.list, "--backend", "cpu", "--out", in.out});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("give --cache-bytes"), std::string::npos) << run.err;

  for (const std::vector<std::string>& bad : {std::vector<std::string>{"--sets", "real,imaginary"},
                                              {"--precision", "f16"},
                                              {"--k", "0"},
                                              {"--k", "4", "--layouts", "row,diagonal"},
                                              {"--kernels", "no-such-kernel"}}) {
    std::vector<std::string> args = {"suite",         in.list,  "--backend", "cpu",
                                     "--cache-bytes", "100000", "--out",     in.out};
    args.insert(args.end(), bad.begin(), bad.end());
    run = run_cli(args);
    EXPECT_EQ(run.exit_code, 2) << bad[0];
    EXPECT_EQ(run.error_lines().size(), 1u) << run.err;
  }
  run = run_cli({"suite", "--backend", "cpu", "--out", in.out});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(in.out + "/results.jsonl"));
}

TEST(CliMicro, NeedsAGpuAndSaysSo) {
  const std::string out = temp_dir() + "/micro.json";
  CliRun run = run_cli({"micro", "--out", out, "--parts", "reads,nonsense"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("unknown part 'nonsense'"), std::string::npos) << run.err;
  if (cuda_available()) GTEST_SKIP() << "a GPU is present: the GPU tests run micro";
  run = run_cli({"micro", "--out", out});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("need a GPU"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace spmv::test
