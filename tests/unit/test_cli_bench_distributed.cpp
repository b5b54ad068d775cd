// `spmv bench --parts P` on the cpu backend: the table and JSON of the
// distributed run (per-part times, exchange measured and modelled, spread,
// efficiency against one part), and its refusals.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_cli_support.hpp"

namespace spmv::test {
namespace {

using json = nlohmann::json;

TEST(CliBenchDistributed, PartsOnTheCpuBackend) {
  const std::string path = temp_dir() + "/distributed.json";
  for (const std::string exchange : {"halo", "allgather"}) {
    const CliRun run = run_cli({"bench", "--gen", "stencil27:n=12", "--backend", "cpu", "--parts", "3", "--partition",
                                "rows", "--exchange", exchange, "--link-gbs", "50", "--runs", "3", "--warmup", "1",
                                "--json", path});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find("3 parts by rows, " + exchange + " exchange"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("spread of the parts' products"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("with 50 GB/s links"), std::string::npos) << run.out;
    const json report = json::parse(read_text(path));
    EXPECT_EQ(report["parts"], 3);
    EXPECT_EQ(report["exchange"], exchange);
    const json& parts = report["distributed"]["parts"];
    EXPECT_EQ(parts["status"], "ok");
    ASSERT_EQ(parts["part_ms"].size(), 3u);
    for (const json& ms : parts["part_ms"]) EXPECT_GT(ms.get<double>(), 0);
    // 12^3 grid split into slabs of 4 planes: the middle part receives two
    // planes of 144 entries for the halo, all other 1152 entries for the all-gather.
    const std::size_t middle = parts["received_bytes"][1];
    EXPECT_EQ(middle, (exchange == "halo" ? 2 * 144 : 1152) * sizeof(double));
    EXPECT_GT(report["distributed"]["efficiency_same_device"].get<double>(), 0);
    EXPECT_GT(report["distributed"]["exchange_model_link_ms"].get<double>(), 0);
  }
}

TEST(CliBenchDistributed, Refusals) {
  CliRun run = run_cli({"bench", "--gen", "stencil5:n=4", "--backend", "cpu", "--parts", "17"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("cannot split 16 rows into 17 parts"), std::string::npos) << run.err;
  run = run_cli({"bench", "--gen", "stencil5:n=4", "--backend", "cpu", "--parts", "2", "--k", "4"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--parts times the distributed SpMV"), std::string::npos) << run.err;
  run = run_cli({"bench", "--gen", "stencil5:n=4", "--backend", "cpu", "--exchange", "halo"});
  EXPECT_EQ(run.exit_code, 2);
}

}  // namespace
}  // namespace spmv::test
