// `spmv bench` with the host backends: every row verified, the figures in the
// JSON consistent with each other (not with any expected speed).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "test_cli_support.hpp"

namespace spmv::test {
namespace {

using nlohmann::json;

json bench_json(std::vector<std::string> arguments) {
  const std::string out = temp_dir() + "/bench.json";
  arguments.insert(arguments.begin(), "bench");
  for (const char* extra : {"--runs", "3", "--warmup", "1", "--no-flush", "--json"})
    arguments.push_back(extra);
  arguments.push_back(out);
  const CliRun run = run_cli(arguments);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_TRUE(run.err.empty()) << run.err;
  return json::parse(read_text(out));
}

void expect_consistent_row(const json& row, std::int64_t nnz, int k) {
  EXPECT_EQ(row["status"], "ok") << row.dump();
  EXPECT_EQ(row["verified"], true);
  EXPECT_EQ(row["format"], "csr");
  ASSERT_EQ(row["times_ms"].size(), 3u);
  const double median = row["median_ms"];
  EXPECT_GT(median, 0.0);
  // GFLOP/s and GB/s follow from the median and the models.
  EXPECT_NEAR(row["gflops"].get<double>(), 2.0 * nnz * k / (median * 1e-3) * 1e-9,
              1e-6 * row["gflops"].get<double>());
  EXPECT_NEAR(row["gbs"].get<double>(), row["bytes_moved"].get<double>() / (median * 1e-3) * 1e-9,
              1e-6 * row["gbs"].get<double>());
  EXPECT_LT(row["max_relative_error"].get<double>(), 1e-10);
  // The build as a multiple of one product (Baskaran's inspection cost).
  EXPECT_NEAR(row["build_in_products"].get<double>(),
              row["build_seconds"].get<double>() / (median * 1e-3),
              1e-9 + 1e-6 * row["build_in_products"].get<double>());
  for (const char* field :
       {"analysis_seconds", "build_seconds", "upload_seconds", "setup_seconds", "matrix_bytes",
        "percent_of_copy_bandwidth", "speedup_vs_cusparse", "payback_products"})
    EXPECT_TRUE(row.contains(field)) << field;
}

// A valid file of finite values whose products overflow double: the kernel's
// infinity is the right answer, verified as such (it failed with exit 1, issue 17).
TEST(CliBench, ProductsThatOverflowAreVerifiedNotFailed) {
  const std::string path = temp_dir() + "/huge_row.mtx";
  std::ofstream file(path);
  file << "%%MatrixMarket matrix coordinate real general\n1 64 64\n";
  for (int j = 1; j <= 64; ++j) file << "1 " << j << " 1.7e308\n";
  file.close();
  const json result = bench_json({path});
  ASSERT_FALSE(result["results"].empty());
  for (const json& row : result["results"]) EXPECT_EQ(row["status"], "ok") << row.dump();
}

TEST(CliBench, CpuBackendOnASampleWritesEveryFigure) {
  const json report = bench_json({sample("dwt_992.mtx.gz"), "--backend", "cpu"});
  EXPECT_EQ(report["matrix"]["rows"], 992);
  EXPECT_EQ(report["matrix"]["nnz"], 16744);
  EXPECT_EQ(report["backend"], "cpu");
  EXPECT_EQ(report["operation"], "spmv");
  EXPECT_EQ(report["precision"], "f64");
  EXPECT_TRUE(report["device"].is_null());  // host run: no device, no copy bandwidth
  EXPECT_TRUE(report["copy_bandwidth_gbs"].is_null());
  ASSERT_EQ(report["results"].size(), 1u);
  const json& row = report["results"][0];
  EXPECT_EQ(row["kernel"], "cpu-csr");
  // Byte model: CSR arrays (993 row pointers, 16744 x (4 + 8)) + x + y, in doubles.
  EXPECT_EQ(row["matrix_bytes"], 993 * 4 + 16744 * 12);
  EXPECT_EQ(row["bytes_moved"], 993 * 4 + 16744 * 12 + 2 * 992 * 8);
  expect_consistent_row(row, 16744, 1);
}

TEST(CliBench, SpmmTransposedAndSinglePrecisionVariants) {
  const json spmm = bench_json({sample("watt_2.mtx.gz"), "--backend", "cpu", "--k", "4", "--layout",
                                "col", "--beta", "0.5"});
  EXPECT_EQ(spmm["operation"], "spmm");
  EXPECT_EQ(spmm["layout"], "col-major");
  expect_consistent_row(spmm["results"][0], 11550, 4);
  // beta != 0 reads C as well as writing it.
  EXPECT_EQ(spmm["results"][0]["bytes_moved"],
            spmm["results"][0]["matrix_bytes"].get<int>() + (4 + 2 * 4) * 1856 * 8);

  const json transposed =
      bench_json({sample("watt_2.mtx.gz"), "--backend", "reference", "--transposed"});
  EXPECT_EQ(transposed["operation"], "spmv-transposed");
  EXPECT_EQ(transposed["results"][0]["kernel"], "reference");
  expect_consistent_row(transposed["results"][0], 11550, 1);

  const json single = bench_json({"--gen", "stencil27:n=8", "--backend", "cpu", "--precision",
                                  "f32", "--transposed", "--explicit-transpose"});
  EXPECT_EQ(single["matrix"]["source"], "stencil27:n=8");
  EXPECT_EQ(single["precision"], "f32");
  const json& row = single["results"][0];
  EXPECT_EQ(row["status"], "ok");
  EXPECT_LT(row["max_relative_error"].get<double>(), 1e-5);
  EXPECT_GT(row["max_relative_error"].get<double>(), 0.0);  // single precision does round
}

// "auto" times the plan's own choice beside named kernels.
TEST(CliBench, AutoTimesThePlansChoice) {
  const json report = bench_json({sample("dwt_992.mtx.gz"), "--backend", "cpu", "--kernels", "auto,cpu-csr"});
  ASSERT_EQ(report["results"].size(), 2u);
  EXPECT_EQ(report["results"][0]["kernel"], "auto");
  EXPECT_EQ(report["results"][0]["chosen_kernel"], "cpu-csr");
  expect_consistent_row(report["results"][0], 16744, 1);
  const CliRun unknown = run_cli({"bench", sample("dwt_992.mtx.gz"), "--backend", "cpu", "--kernels", "best"});
  EXPECT_NE(unknown.exit_code, 0);
  EXPECT_NE(unknown.err.find("unknown kernel 'best'"), std::string::npos) << unknown.err;
}

TEST(CliBench, TablePrintsEachKernelAndItsSetup) {
  const CliRun run =
      run_cli({"bench", sample("dwt_992.mtx.gz"), "--backend", "cpu", "--runs", "2", "--no-flush"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("cpu-csr"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(" ok"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("setup"), std::string::npos) << run.out;
}

// --params reaches the chosen kernels; bad parameters, and out-of-core
// options where they cannot apply, are refused with one line saying why.
TEST(CliBench, KernelParametersAndOutOfCoreOptions) {
  const json report =
      bench_json({sample("dwt_992.mtx.gz"), "--backend", "cpu", "--params", "threads=2"});
  EXPECT_EQ(report["results"][0]["params"]["threads"], 2);
  const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
      {{"--params", "threads"}, "--params takes name=integer pairs"},
      {{"--device-memory-cap", "1GiB"}, "--device-memory-cap requires --out-of-core"},
      {{"--out-of-core"}, "give --k 2 or more"},
      {{"--out-of-core", "--k", "4"}, "--out-of-core needs --backend cuda"},
  };
  for (const auto& [extra, message] : refused) {
    std::vector<std::string> arguments = {"bench", sample("dwt_992.mtx.gz"), "--backend", "cpu"};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    const CliRun run = run_cli(arguments);
    EXPECT_EQ(run.exit_code, 2) << message;
    EXPECT_NE(run.err.find(message), std::string::npos) << run.err;
  }
}

// --with-cpu adds the cpu backend's SpMM rows to a run of another backend,
// verified and figured by the same models; a device's copy bandwidth is
// never applied to them.
TEST(CliBench, WithCpuAddsTheCpuBackendsRows) {
  const json report =
      bench_json({sample("watt_2.mtx.gz"), "--backend", "reference", "--k", "4", "--with-cpu"});
  EXPECT_EQ(report["backend"], "reference");
  ASSERT_EQ(report["results"].size(), 2u);
  const json& reference = report["results"][0];
  const json& cpu = report["results"][1];
  EXPECT_EQ(reference["backend"], "reference");
  EXPECT_EQ(cpu["backend"], "cpu");
  EXPECT_EQ(cpu["kernel"], "cpu-csr");
  for (const json* row : {&reference, &cpu}) {
    expect_consistent_row(*row, 11550, 4);
    EXPECT_EQ((*row)["bytes_moved"], reference["matrix_bytes"].get<int>() + (4 + 4) * 1856 * 8);
    EXPECT_TRUE((*row)["percent_of_copy_bandwidth"].is_null());
  }

  const CliRun refused =
      run_cli({"bench", sample("dwt_992.mtx.gz"), "--backend", "cpu", "--with-cpu"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("already on the cpu backend"), std::string::npos) << refused.err;
}

}  // namespace
}  // namespace spmv::test
