// `spmv suite` and `spmv micro` on a GPU, through the tool: the cuSPARSE
// baseline beside every kernel, verified results, the host-operand product
// with its copies, and every part of the micro-benchmarks (what they hold,
// not how fast they are).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "../unit/test_cli_support.hpp"

namespace spmv::test {
namespace {

using nlohmann::json;

TEST(GpuSuite, EveryKernelBesideCusparseAndVerified) {
  SPMV_GPU_TEST_PRELUDE();
  const std::string dir = temp_dir();
  std::ofstream(dir + "/list.txt") << sample("watt_2.mtx.gz") << "\n";
  std::ofstream(dir + "/families.txt") << "rmat rmat:scale=12\n";
  const CliRun run = run_cli({"suite", dir + "/list.txt", "--families", dir + "/families.txt",
                              "--backend", "cuda", "--precision", "f32,f64", "--runs", "3",
                              "--warmup", "1", "--host-runs", "2", "--cache-bytes", "1000000",
                              "--out", dir + "/results"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::ifstream lines(dir + "/results/results.jsonl");
  int cusparse = 0, ours = 0;
  for (std::string text; std::getline(lines, text);) {
    const json line = json::parse(text);
    const std::string what = line["set"].get<std::string>() + " " +
                             line["precision"].get<std::string>() + " " +
                             line["kernel"].get<std::string>();
    ASSERT_NE(line["status"], "FAILED") << what << ": " << line["message"];
    EXPECT_FALSE(line["device"]["name"].get<std::string>().empty());
    EXPECT_GT(line["copy_bandwidth_gbs"].get<double>(), 0.0);
    if (line["status"] != "ok") continue;  // a format that refuses the matrix says why
    EXPECT_EQ(line["verified"], true) << what;
    EXPECT_GT(line["percent_of_copy_bandwidth"].get<double>(), 0.0) << what;
    // Host operands: the vectors are copied in and out, within the call's time.
    EXPECT_GT(line["host_transfer_ms"].get<double>(), 0.0) << what;
    EXPECT_LE(line["host_transfer_ms"].get<double>(), line["host_operand_ms"].get<double>())
        << what;
    if (line["backend"] == "cusparse") {
      ++cusparse;
    } else {
      ++ours;
      EXPECT_GT(line["speedup_vs_cusparse"].get<double>(), 0.0) << what;
    }
  }
  EXPECT_GT(cusparse, 0);
  EXPECT_GT(ours, cusparse);
}

// One test per part of `spmv micro` (each a process of its own under
// compute-sanitizer, within its time).
class GpuMicro : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuMicro, ThePartIsMeasured) {
  SPMV_GPU_TEST_PRELUDE();
  const std::string part = GetParam();
  const std::string out = temp_dir() + "/micro-" + part + ".json";
  const CliRun run = run_cli({"micro", "--parts", part, "--out", out, "--runs", "1", "--crossover-size", "512"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json micro = json::parse(read_text(out));
  if (part == "reads") {
    // 2 patterns x 3 workloads x 6 block sizes x 3 load widths x 2 cache paths.
    EXPECT_EQ(micro["reads"].size(), 216u);
    for (const json& read : micro["reads"]) {
      EXPECT_GT(read["gbs"].get<double>(), 0.0) << read.dump();
      EXPECT_LE(read["bytes"].get<double>(), micro["buffer_bytes"].get<double>());
    }
  } else if (part == "rows") {
    EXPECT_EQ(micro["row_reads"].size(), 22u);  // rows of 1..1024 floats, warp or thread
  } else if (part == "copies") {
    EXPECT_EQ(micro["copies"].size(), 16u);  // 4 sizes x 2 directions x 2 host memories
  } else {
    bool dense_at_full_density = false;
    ASSERT_FALSE(micro["crossover"]["rows"].empty());
    for (const json& row : micro["crossover"]["rows"]) {
      EXPECT_NE(row["status"], "FAILED") << row.dump();
      // An SpMM kernel's apply() runs the default SpMV kernel: no row may carry its name.
      EXPECT_NE(row["kernel"].get<std::string>().rfind("spmm-", 0), 0u) << row.dump();
      if (row["kernel"] == "dense-cublas" && row["density"] == 1.0 && row["status"] == "ok")
        dense_at_full_density = row["verified"].get<bool>();
    }
    EXPECT_TRUE(dense_at_full_density) << "cuBLAS gemv on the dense matrix, verified";
  }
}

INSTANTIATE_TEST_SUITE_P(Parts, GpuMicro, ::testing::Values("reads", "rows", "copies", "crossover"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace spmv::test
