// --reorder on `spmv info`, `spmv convert` and `spmv bench`.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "spmv/io.hpp"
#include "spmv/reorder.hpp"
#include "spmv/stats.hpp"
#include "test_cli_support.hpp"

namespace spmv::test {
namespace {

using nlohmann::json;

TEST(CliReorder, InfoShowsTheFiguresBeforeAndAfter) {
  const CliRun run = run_cli({"info", sample("dwt_992.mtx.gz"), "--json", "--reorder", "rcm"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json info = json::parse(run.out);
  const json& r = info["reordering"];
  EXPECT_EQ(r["method"], "rcm");
  EXPECT_GE(r["seconds"].get<double>(), 0.0);
  EXPECT_EQ(r["before"]["lower_bandwidth"], info["lower_bandwidth"]);
  EXPECT_EQ(r["before"]["profile"].get<std::int64_t>(),
            envelope_profile(read_matrix<double>(sample("dwt_992.mtx.gz"))));
  // dwt_992 comes in a poor order: RCM narrows its band.
  EXPECT_LT(r["after"]["lower_bandwidth"].get<int>(), r["before"]["lower_bandwidth"].get<int>());
  EXPECT_LT(r["after"]["profile"].get<std::int64_t>(), r["before"]["profile"].get<std::int64_t>());

  // BRO-ELL and BRO-HYB compression, before and after.
  for (const json* bro : {&info["bro"], &r["after"]["bro"]}) {
    ASSERT_EQ(bro->size(), 2u);
    EXPECT_EQ((*bro)[0]["format"], "bro-ell");
    EXPECT_EQ((*bro)[1]["format"], "bro-hyb");
    for (const json& entry : *bro) {
      const double eta = entry["space_savings"].get<double>();
      EXPECT_GT(eta, 0.0);
      EXPECT_LT(eta, 1.0);
      EXPECT_NEAR(entry["compression_ratio"].get<double>(), 1 / (1 - eta), 1e-9);
      EXPECT_GT(entry["bytes_per_nonzero"].get<double>(), 0.0);
    }
  }
  EXPECT_EQ(info["bro"], r["before"]["bro"]);

  const CliRun table = run_cli({"info", sample("dwt_992.mtx.gz"), "--reorder", "bar"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("reordering         bar"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("BRO-ELL cost"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("bro-ell after bar  eta"), std::string::npos) << table.out;
}

TEST(CliReorder, ConvertWritesTheReorderedMatrixAndMovesTheLabels) {
  const std::string dir = temp_dir();
  const Csr<double> a = read_matrix<double>(sample("dwt_992.mtx.gz"));
  const CliRun run = run_cli({"convert", sample("dwt_992.mtx.gz"), "-o", dir + "/rcm.mtx", "--reorder", "rcm"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(read_matrix<double>(dir + "/rcm.mtx"), reorder(a, compute_ordering(a, Reordering::rcm)));

  // BAR moves rows only; each label goes with its row.
  const LabeledMatrix<double> data = read_libsvm<double>(sample("heart_scale.libsvm"));
  ASSERT_EQ(run_cli({"convert", sample("heart_scale.libsvm"), "-o", dir + "/bar.svm", "--reorder", "bar"}).exit_code, 0);
  const LabeledMatrix<double> moved = read_libsvm<double>(dir + "/bar.svm");
  const MatrixOrdering bar = compute_ordering(data.features, Reordering::bro_aware);
  ASSERT_FALSE(std::is_sorted(bar.row_order.begin(), bar.row_order.end())) << "BAR moved nothing";
  ASSERT_EQ(moved.labels.size(), data.labels.size());
  for (std::size_t i = 0; i < bar.row_order.size(); ++i)
    EXPECT_EQ(moved.labels[i], data.labels[bar.row_order[i]]) << "row " << i;
  EXPECT_EQ(analyse(moved.features).nnz, analyse(data.features).nnz);

  const CliRun refused = run_cli({"convert", sample("heart_scale.libsvm"), "-o", dir + "/no.svm", "--reorder", "amd"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("needs a square matrix"), std::string::npos) << refused.err;
}

TEST(CliReorder, BenchRecordsTheReorderingAndVerifiesInTheOriginalOrder) {
  const std::string out = temp_dir() + "/bench.json";
  const CliRun run = run_cli({"bench", sample("watt_2.mtx.gz"), "--backend", "cpu", "--reorder", "amd",
                              "--runs", "3", "--warmup", "1", "--no-flush", "--json", out});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json report = json::parse(read_text(out));
  EXPECT_EQ(report["reordering"], "amd");
  const json& row = report["results"][0];
  EXPECT_EQ(row["status"], "ok");
  EXPECT_TRUE(row["verified"].get<bool>());
  EXPECT_GT(row["reorder_seconds"].get<double>(), 0.0);
  EXPECT_NEAR(row["setup_seconds"].get<double>(),
              row["reorder_seconds"].get<double>() + row["analysis_seconds"].get<double>() +
                  row["build_seconds"].get<double>() + row["upload_seconds"].get<double>(),
              1e-12);
  EXPECT_NE(run.out.find("reorder   amd"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace spmv::test
