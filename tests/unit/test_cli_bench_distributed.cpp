// `spmv bench --parts P` on the cpu backend: the table and JSON of the
// distributed run (per-part times, exchange measured and modelled, spread,
// efficiency against one part), the graph partition's smaller exchange, and
// the refusals.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

#include "spmv/distributed.hpp"
#include "spmv/gen.hpp"
#include "spmv/io.hpp"
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
    EXPECT_GT(report["distributed"]["efficiency"].get<double>(), 0);
    EXPECT_EQ(report["distributed"]["devices"], 1);
    EXPECT_TRUE(report["distributed"]["limiter"].is_string());
    // The losses split the time beyond the ideal (one part's time; one host):
    // the busy host is the sum of the parts' products, run() at least that.
    const json& losses = report["distributed"]["losses_ms"];
    double busy = 0;
    for (const json& ms : parts["part_ms"]) busy += ms.get<double>();
    const double beyond = std::max(parts["run_ms"].get<double>(), busy) -
                          report["distributed"]["one_part"]["run_ms"].get<double>();
    EXPECT_NEAR(losses["imbalance"].get<double>() + losses["smaller_parts"].get<double>() +
                    losses["exchange_not_hidden"].get<double>() + losses["launches"].get<double>(),
                beyond, 1e-9);
    EXPECT_EQ(losses["imbalance"].get<double>(), 0.0);  // one host: nothing to balance
    EXPECT_GT(report["distributed"]["exchange_model_link_ms"].get<double>(), 0);
  }
}

TEST(CliBenchDistributed, GraphPartitionOnAShuffledStencil) {
  if (!graph_partition_available()) GTEST_SKIP() << "this build has no METIS (SPMV_METIS)";
  // A grid numbered in a random order: the equal non-zeros split cuts it at
  // random, METIS finds compact parts; the received bytes say so.
  const std::string matrix = temp_dir() + "/shuffled.mtx";
  write_matrix_market(matrix, symmetrically_shuffled(generate(parse_generator_spec("stencil27:n=12")), 4));
  std::map<std::string, std::size_t> received;
  for (const std::string partition : {"graph", "nnz"}) {
    const std::string path = temp_dir() + "/" + partition + ".json";
    const CliRun run = run_cli({"bench", matrix, "--backend", "cpu", "--parts", "4", "--partition", partition,
                                "--runs", "2", "--warmup", "1", "--json", path});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find("4 parts by " + partition + ", halo exchange"), std::string::npos) << run.out;
    const json report = json::parse(read_text(path));
    EXPECT_EQ(report["partition"], partition);
    const json& parts = report["distributed"]["parts"];
    ASSERT_EQ(parts["status"], "ok");
    std::int64_t nonzeros = 0;
    for (const json& n : parts["part_nnz"]) nonzeros += n.get<std::int64_t>();
    EXPECT_EQ(nonzeros, report["matrix"]["nnz"].get<std::int64_t>());
    for (const json& bytes : parts["received_bytes"]) received[partition] += bytes.get<std::size_t>();
  }
  EXPECT_LT(4 * received["graph"], received["nnz"]) << received["graph"] << " vs " << received["nnz"];
}

TEST(CliBenchDistributed, GraphPartitionRefusesARectangularMatrix) {
  const CliRun run = run_cli({"bench", "--gen", "random:rows=40,cols=60,density=0.1", "--backend", "cpu", "--parts",
                              "2", "--partition", "graph"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("needs a square matrix"), std::string::npos) << run.err;
}

TEST(CliBenchDistributed, Refusals) {
  CliRun run = run_cli({"bench", "--gen", "stencil5:n=4", "--backend", "cpu", "--parts", "17"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("cannot split 16 rows into 17 parts"), std::string::npos) << run.err;
  run = run_cli({"bench", "--gen", "stencil5:n=4", "--backend", "cpu", "--parts", "2", "--k", "4"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--parts and --gpus time the distributed SpMV"), std::string::npos) << run.err;
  run = run_cli({"bench", "--gen", "stencil5:n=4", "--backend", "cpu", "--exchange", "halo"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("go with --parts or --gpus"), std::string::npos) << run.err;
  run = run_cli({"bench", "--gen", "stencil5:n=4", "--backend", "cpu", "--gpus", "2"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--gpus needs --backend cuda or cusparse"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace spmv::test
