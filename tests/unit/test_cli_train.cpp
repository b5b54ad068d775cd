// `spmv train` and `spmv predict`, and the labelled data they read: LIBSVM
// and the .spmv cache with its labels file (gen, convert).
#include <gtest/gtest.h>

#include <fstream>

#include "test_cli_support.hpp"

namespace spmv::test {
namespace {

void expect_one_line_error(const CliRun& run, const std::string& expected) {
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  ASSERT_EQ(run.error_lines().size(), 1u) << run.err;
  EXPECT_NE(run.err.find(expected), std::string::npos) << run.err;
}

TEST(CliTrain, TrainsPredictsAndCachesLabels) {
  const std::string dir = temp_dir();
  const std::string libsvm = dir + "/planted.libsvm", binary = dir + "/planted.spmv";
  ASSERT_EQ(run_cli({"gen", "classification:rows=400,cols=20,per_row=6,noise=0", "-o", libsvm}).exit_code, 0);
  const CliRun converted = run_cli({"convert", libsvm, "-o", binary});
  ASSERT_EQ(converted.exit_code, 0) << converted.err;
  const std::string model = dir + "/planted.model", json = dir + "/planted.json";
  const CliRun trained = run_cli({"train", libsvm, "--test", binary, "--lambda", "1e-4", "--epsilon", "1e-4",
                                  "--bias", "--backend", "cpu", "--model", model, "--json", json});
  ASSERT_EQ(trained.exit_code, 0) << trained.err;
  for (const char* part : {"iterations", "objective", "gap", "test", "load", "transpose", "copy", "compute", "qp"})
    EXPECT_NE(trained.out.find(part), std::string::npos) << part << "\n" << trained.out;
  EXPECT_NE(read_text(json).find("\"objectives\""), std::string::npos);

  // The .spmv cache (features + labels file) trains to the same objective line.
  const CliRun cached = run_cli({"train", binary, "--lambda", "1e-4", "--epsilon", "1e-4", "--bias", "--backend", "cpu"});
  ASSERT_EQ(cached.exit_code, 0) << cached.err;
  const auto objective_line = [](const std::string& out) { return out.substr(out.find("objective"), 30); };
  EXPECT_EQ(objective_line(cached.out), objective_line(trained.out));

  const std::string predictions = dir + "/predictions.txt";
  const CliRun predicted = run_cli({"predict", model, libsvm, "-o", predictions});
  ASSERT_EQ(predicted.exit_code, 0) << predicted.err;
  EXPECT_NE(predicted.out.find("accuracy"), std::string::npos);
  std::ifstream in(predictions);
  int lines = 0;
  for (std::string line; std::getline(in, line); ++lines) EXPECT_TRUE(line == "1" || line == "-1") << line;
  EXPECT_EQ(lines, 400);
}

TEST(CliTrain, BadInputIsOneLineAndExitTwo) {
  const std::string dir = temp_dir();
  expect_one_line_error(run_cli({"train", dir + "/missing.libsvm"}), "missing.libsvm");
  expect_one_line_error(run_cli({"train", sample("heart_scale.libsvm"), "--lambda", "-1"}), "lambda");
  expect_one_line_error(run_cli({"train", sample("heart_scale.libsvm"), "--loss", "ramp"}), "loss");
  expect_one_line_error(run_cli({"train", sample("heart_scale.libsvm"), "--backend", "cpu", "--kernel", "coo"}),
                        "unknown kernel 'coo' for backend 'cpu'");
  expect_one_line_error(run_cli({"train", sample("dwt_992.mtx.gz")}), "no labels");
  const std::string three = dir + "/three.libsvm";
  std::ofstream(three) << "1 1:1\n2 2:1\n3 1:1 2:1\n";
  expect_one_line_error(run_cli({"train", three, "--backend", "cpu"}), "multi-class is not supported: labels 1,2,3");
  const std::string binary = dir + "/unlabelled.spmv";
  ASSERT_EQ(run_cli({"convert", sample("dwt_992.mtx.gz"), "-o", binary}).exit_code, 0);
  expect_one_line_error(run_cli({"train", binary}), "unlabelled.spmv.labels");
  const std::string bad_model = dir + "/bad.model";
  std::ofstream(bad_model) << "spmv-bmrm-model 1\nloss hinge\nlambda nan\n";
  expect_one_line_error(run_cli({"predict", bad_model, sample("heart_scale.libsvm")}), "bad.model:3");
}

}  // namespace
}  // namespace spmv::test
