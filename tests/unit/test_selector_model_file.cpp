// Selector model files in place of the built-in model (PlanOptions::selector_model,
// $SPMV_SELECTOR_MODEL): the file's model ranks the candidates, the plan
// names it, a rewritten file is read again, and a file that is missing,
// malformed or of the other product is refused naming the file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "select/model.hpp"
#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/plan.hpp"
#include "test_cli_support.hpp"
#include "test_support.hpp"

namespace spmv::test {
namespace {

const Csr<double>& stencil() {
  static const Csr<double> a = generate(parse_generator_spec("stencil27:n=24"));
  return a;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  ASSERT_TRUE(out.good()) << path;
}

// The built-in SpMV model with only the kernels of `backend` left.
std::string builtin_model_of(Backend backend) {
  nlohmann::json model = nlohmann::json::parse(detail::builtin_selector_model_text);
  nlohmann::json kept = nlohmann::json::array();
  for (const nlohmann::json& kernel : model.at("kernels"))
    if (kernel.at("backend") == to_string(backend)) kept.push_back(kernel);
  model["kernels"] = kept;
  return model.dump();
}

// The built-in model's plan of the stencil; skips where it chooses none of ours
// (a build without the cuda kernels).
Plan builtin_plan_or_skip() {
  const Plan plan = make_plan(stencil(), described_h100());
  if (plan.tuning != "model" || plan.options.backend != Backend::cuda) return Plan{};
  return plan;
}

TEST(SelectorModelFile, TheFilesModelRanksTheCandidatesAndThePlanNamesIt) {
  const Plan builtin = builtin_plan_or_skip();
  if (builtin.tuning.empty()) GTEST_SKIP() << "the built-in model chooses none of this build's kernels";
  EXPECT_EQ(builtin.selector_model, "built-in");

  const std::string same = temp_dir() + "/same.json";
  write_file(same, detail::builtin_selector_model_text);
  PlanOptions options = described_h100();
  options.selector_model = same;
  const Plan from_same = make_plan(stencil(), options);
  EXPECT_EQ(from_same.selector_model, same);
  EXPECT_EQ(from_same.options.kernel, builtin.options.kernel);
  ASSERT_EQ(from_same.candidates.size(), builtin.candidates.size());
  for (std::size_t i = 0; i < builtin.candidates.size(); ++i)
    EXPECT_EQ(from_same.candidates[i].kernel, builtin.candidates[i].kernel);

  const std::string vendor_only = temp_dir() + "/vendor-only.json";
  write_file(vendor_only, builtin_model_of(Backend::cusparse));
  options.selector_model = vendor_only;
  const Plan from_vendor = make_plan(stencil(), options);
  EXPECT_EQ(from_vendor.selector_model, vendor_only);
  EXPECT_EQ(from_vendor.options.backend, Backend::cusparse);
  ASSERT_FALSE(from_vendor.candidates.empty());
  for (const PlanCandidate& c : from_vendor.candidates) EXPECT_EQ(c.backend, Backend::cusparse) << c.kernel;

  const Plan back = plan_from_json(plan_to_json(from_vendor));
  EXPECT_EQ(back.selector_model, vendor_only);
  EXPECT_EQ(back.options.selector_model, vendor_only);
}

TEST(SelectorModelFile, TheEnvironmentNamesAFileAndAnOptionOverridesIt) {
  const Plan builtin = builtin_plan_or_skip();
  if (builtin.tuning.empty()) GTEST_SKIP() << "the built-in model chooses none of this build's kernels";
  const std::string vendor_only = temp_dir() + "/vendor-only.json";
  write_file(vendor_only, builtin_model_of(Backend::cusparse));
  const std::string same = temp_dir() + "/same.json";
  write_file(same, detail::builtin_selector_model_text);

  setenv("SPMV_SELECTOR_MODEL", vendor_only.c_str(), 1);
  const Plan from_environment = make_plan(stencil(), described_h100());
  PlanOptions options = described_h100();
  options.selector_model = same;
  const Plan from_option = make_plan(stencil(), options);
  unsetenv("SPMV_SELECTOR_MODEL");

  EXPECT_EQ(from_environment.selector_model, vendor_only);
  EXPECT_EQ(from_environment.options.backend, Backend::cusparse);
  EXPECT_EQ(from_option.selector_model, same);
  EXPECT_EQ(from_option.options.kernel, builtin.options.kernel);
  EXPECT_EQ(make_plan(stencil(), described_h100()).selector_model, "built-in");
}

TEST(SelectorModelFile, ARewrittenFileIsReadAgain) {
  const Plan builtin = builtin_plan_or_skip();
  if (builtin.tuning.empty()) GTEST_SKIP() << "the built-in model chooses none of this build's kernels";
  const std::string path = temp_dir() + "/model.json";
  PlanOptions options = described_h100();
  options.selector_model = path;
  write_file(path, builtin_model_of(Backend::cusparse));
  EXPECT_EQ(make_plan(stencil(), options).options.backend, Backend::cusparse);
  write_file(path, detail::builtin_selector_model_text);  // another size, so another file state
  EXPECT_EQ(make_plan(stencil(), options).options.kernel, builtin.options.kernel);
}

TEST(SelectorModelFile, BadFilesAreRefusedNamingTheFile) {
  PlanOptions options = described_h100();
  options.selector_model = temp_dir() + "/no-such-model.json";
  try {
    make_plan(stencil(), options);
    ADD_FAILURE() << "a missing model file was accepted";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-model.json"), std::string::npos) << e.what();
  }

  options.selector_model = temp_dir() + "/truncated.json";
  const std::string text = detail::builtin_selector_model_text;
  write_file(options.selector_model, text.substr(0, text.size() / 2));
  try {
    make_plan(stencil(), options);
    ADD_FAILURE() << "a truncated model file was accepted";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), options.selector_model);
  }

  // The SpMM model where the SpMV's is wanted: its features are the SpMM's.
  options.selector_model = temp_dir() + "/spmm.json";
  write_file(options.selector_model, detail::builtin_spmm_model_text);
  const std::string message = invalid_argument_of([&] { make_plan(stencil(), options); });
  EXPECT_NE(message.find("spmm.json"), std::string::npos) << message;
  EXPECT_NE(message.find("not an SpMV model"), std::string::npos) << message;

  // ...and is taken for an SpMM plan, which a build without the cuda kernels makes without a model.
  if (builtin_plan_or_skip().tuning.empty()) GTEST_SKIP() << "the built-in model chooses none of this build's kernels";
  PlanOptions spmm = described_h100();
  spmm.spmm_columns = 8;
  spmm.spmm_selector_model = options.selector_model;
  const Plan plan = make_plan(stencil(), spmm);
  EXPECT_EQ(plan.tuning, "model");
  EXPECT_EQ(plan.selector_model, spmm.spmm_selector_model);
}

// The fuzzer's seed model stays one the parser accepts, so that the fuzzer
// starts from inside the format (and reaches the trees and guards).
TEST(SelectorModelFile, TheFuzzersSeedIsAModel) {
  std::ifstream in(source_dir() + "/fuzz/corpus/selector_model/two-kernels.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const detail::SelectorModel model = detail::parse_selector_model(text);
  ASSERT_EQ(model.kernels.size(), 2u);
  EXPECT_EQ(model.near_features.size(), 2u);
  const detail::KernelModel& adaptive = model.kernels[0];
  // 0.25 + 0.5 x the leaf of a >= 2 with b < 0.5 (0.25).
  EXPECT_DOUBLE_EQ(adaptive.predict_log2_slowdown({3, 0, 7}), 0.375);
  EXPECT_TRUE(model.trained_near(adaptive, {2, 0, 7}));
  EXPECT_FALSE(model.trained_near(adaptive, {2, 0, 5}));  // in range, but c is 2 and 2.5 from the near points
}

// spmv plan --model: the plan names the file; a bad one is an error naming it.
TEST(SelectorModelFile, ThePlanCommandTakesAModelFile) {
  if (builtin_plan_or_skip().tuning.empty()) GTEST_SKIP() << "the built-in model chooses none of this build's kernels";
  const std::vector<std::string> described{"--gen", "stencil27:n=24", "--device-l2", "50MiB", "--device-sms",
                                           "132", "--device-bandwidth", "3000"};
  const auto plan_with = [&](std::vector<std::string> more) {
    std::vector<std::string> arguments{"plan"};
    arguments.insert(arguments.end(), described.begin(), described.end());
    arguments.insert(arguments.end(), more.begin(), more.end());
    return run_cli(arguments);
  };
  const std::string path = temp_dir() + "/vendor-only.json";
  write_file(path, builtin_model_of(Backend::cusparse));
  const CliRun run = plan_with({"--model", path});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("model       " + path), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("choice      cusparse "), std::string::npos) << run.out;
  const CliRun missing = plan_with({"--model", temp_dir() + "/missing.json"});
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("missing.json"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace spmv::test
