// The plan as a value: JSON round trip, forced kernels, the selector's
// refusal checks against the format builders, and bad plans.
#include <algorithm>
#include <functional>
#include <random>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "formats/format_common.hpp"
#include "select/features.hpp"
#include "select/format_refusal.hpp"
#include "select/model.hpp"
#include "spmv/error.hpp"
#include "spmv/formats/dense.hpp"
#include "spmv/formats/ell.hpp"
#include "spmv/formats/ellpack_r.hpp"
#include "spmv/formats/hyb.hpp"
#include "spmv/gen.hpp"
#include "spmv/io.hpp"
#include "spmv/plan.hpp"
#include "spmv/stats.hpp"
#include "test_cli_support.hpp"
#include "test_support.hpp"

namespace spmv::test {
namespace {

const GpuShape h100_shape{132, 2048};

// The analysis make_plan gives format_refusal.
MatrixStats planned_stats(const Csr<double>& a) { return analyse(a, detail::selector_stats_options(a.nnz())); }

// The zoo, a few generated matrices, and the real matrices when present
// (Pd: ELLR-T's model picks several threads per row, whose rounding pads it
// beyond the limit although one thread per row would not).
std::vector<ZooMatrix> plan_matrices() {
  std::vector<ZooMatrix> all = matrix_zoo();
  for (const std::string& file : real_matrix_files()) all.push_back({file, read_matrix<double>(file)});
  all.push_back({"stencil27", generate(parse_generator_spec("stencil27:n=24"))});
  all.push_back({"rmat", generate(parse_generator_spec("rmat:scale=12,edge_factor=8"))});
  all.push_back({"fewhuge", generate(parse_generator_spec(
                                "fewhuge:rows=20000,cols=20000,per_row=4,huge_rows=2,huge_length=15000"))});
  return all;
}

TEST(Plan, RoundTripsThroughJson) {
  for (const ZooMatrix& m : plan_matrices()) {
    SCOPED_TRACE(m.name);
    for (const PlanOptions& options : {described_h100(), PlanOptions{}}) {
      const Plan plan = make_plan(m.matrix, options);
      const std::string json = plan_to_json(plan);
      const Plan back = plan_from_json(json);
      EXPECT_EQ(plan_to_json(back), json);
      EXPECT_EQ(back.options.kernel, plan.options.kernel);
      EXPECT_EQ(back.options.backend, plan.options.backend);
      EXPECT_EQ(back.candidates.size(), plan.candidates.size());
    }
  }
}

TEST(Plan, CudaPlansChooseFromTheModelOrSayWhyNot) {
  const Plan plan = make_plan(generate(parse_generator_spec("stencil27:n=24")), described_h100());
  if (plan.tuning == "default") {
    EXPECT_EQ(plan.reason, "the selector's model covers no kernel of this build");
    return;
  }
  ASSERT_EQ(plan.tuning, "model");
  ASSERT_FALSE(plan.candidates.empty());
  EXPECT_FALSE(plan.options.kernel.empty());
  EXPECT_GT(plan.predicted_seconds, 0);
  for (std::size_t i = 1; i < plan.candidates.size(); ++i)
    EXPECT_LE(plan.candidates[i - 1].predicted_cost_seconds, plan.candidates[i].predicted_cost_seconds);
  EXPECT_EQ(plan.features.size(), detail::builtin_selector_model().feature_names.size());
}

TEST(Plan, TheChosenKernelNeverRefusesTheMatrix) {
  for (const ZooMatrix& m : plan_matrices()) {
    SCOPED_TRACE(m.name);
    const MatrixStats stats = planned_stats(m.matrix);
    for (double expected : {0.0, 100.0, 1e9}) {
      PlanOptions options = described_h100();
      options.expected_products = expected;
      const Plan plan = make_plan(m.matrix, options);
      if (plan.tuning != "model") continue;
      // Accepted, or left to the format's device build to check.
      const std::optional<std::string> refusal =
          detail::format_refusal(plan.options.kernel, &m.matrix, stats, h100_shape);
      EXPECT_TRUE(!refusal || refusal->empty()) << *refusal;
      // Every candidate ranked above the winner was checked and refused.
      for (const PlanCandidate& c : plan.candidates) {
        if (c.kernel == plan.options.kernel) break;
        ASSERT_TRUE(c.refusal.has_value());
        EXPECT_NE(*c.refusal, "") << c.kernel;
      }
    }
  }
}

// Each candidate carries the parameters the model builds it with (csr-hub's
// hub_min_share), and the chosen one's are the plan's: make_operator builds
// the kernel with them.
TEST(Plan, CandidatesCarryTheModelsParameters) {
  const std::vector<KernelInfo> catalogue = kernel_catalogue();
  if (std::none_of(catalogue.begin(), catalogue.end(), [](const KernelInfo& k) { return k.name == "csr-hub"; }))
    GTEST_SKIP() << "a build without the cuda kernels";
  const detail::SelectorModel& model = detail::builtin_selector_model();
  const auto hub = std::find_if(model.kernels.begin(), model.kernels.end(),
                                [](const detail::KernelModel& k) { return k.kernel == "csr-hub"; });
  ASSERT_NE(hub, model.kernels.end());
  EXPECT_GT(hub->params.at("hub_min_share"), 0);
  std::size_t hub_candidates = 0;
  for (const ZooMatrix& m : plan_matrices()) {
    SCOPED_TRACE(m.name);
    for (double expected : {100.0, 1e9}) {
      PlanOptions options = described_h100();
      options.expected_products = expected;
      const Plan plan = make_plan(m.matrix, options);
      if (plan.tuning != "model") continue;
      for (const PlanCandidate& c : plan.candidates) {
        const auto of = std::find_if(model.kernels.begin(), model.kernels.end(),
                                     [&](const detail::KernelModel& k) { return k.kernel == c.kernel; });
        ASSERT_NE(of, model.kernels.end());
        EXPECT_EQ(c.params, of->params) << c.kernel;
        if (c.kernel == "csr-hub") ++hub_candidates;
        if (c.kernel == plan.options.kernel) {
          EXPECT_EQ(plan.options.params, c.params);
        }
      }
      EXPECT_EQ(plan_from_json(plan_to_json(plan)).options.params, plan.options.params);
    }
  }
  EXPECT_GT(hub_candidates, 0u);
}

// The selector's refusal rule is the builders' rule: a kernel it refuses
// throws FormatLimitError (for the formats it checks before the build), and
// one it accepts builds with the options the cuda backend gives it where the
// analysis read every row's length. From a sample of rows (the real matrices
// of more than 2^16 rows) ELL and HYB are accepted on an estimate far within
// the limit, which the build has the last word on.
TEST(Plan, RefusalChecksAgreeWithTheFormatBuilders) {
  const auto modelled_threads_per_row = [](const Csr<double>& a) {
    return ellrt_configuration(detail::row_lengths(a), h100_shape).threads_per_row;
  };
  const std::map<std::string, std::function<void(const Csr<double>&)>> builders = {
      {"ell", [](const Csr<double>& a) { ell_from_csr(a); }},
      {"ellr-t",
       [&](const Csr<double>& a) {
         EllpackROptions options;
         options.threads_per_row = modelled_threads_per_row(a);
         ellpack_r_from_csr(a, options);
       }},
      {"hyb", [](const Csr<double>& a) { hyb_from_csr(a); }},
      {"dense-cublas", [](const Csr<double>& a) { dense_from_csr(a); }},
  };
  int refusals = 0;
  const std::vector<ZooMatrix> matrices = plan_matrices();
  for (const ZooMatrix& m : matrices) {
    const MatrixStats stats = planned_stats(m.matrix);
    for (const auto& [kernel, build] : builders) {
      SCOPED_TRACE(m.name + " " + kernel);
      const std::optional<std::string> refusal = detail::format_refusal(kernel, &m.matrix, stats, h100_shape);
      ASSERT_TRUE(refusal.has_value());
      if (refusal->empty()) {
        if (stats.row_length_rows == m.matrix.rows) {
          EXPECT_NO_THROW(build(m.matrix));
        }
      } else {
        ++refusals;
        EXPECT_THROW(build(m.matrix), Error);
      }
    }
  }
  EXPECT_GT(refusals, 0);  // the zoo has matrices that ELL must refuse
  // The formats whose check needs every entry are left to their device
  // builds (tests/gpu: the device builds refuse as the host builders do).
  const Csr<double>& first = matrices.front().matrix;
  for (const std::string kernel : {"dia", "sell", "blocked", "bro-ell", "bro-hyb"})
    EXPECT_FALSE(detail::format_refusal(kernel, &first, planned_stats(first), h100_shape).has_value()) << kernel;
}

// Matrices of more rows than the analysis reads: uniform rows, far within
// the limits, are accepted on the sample's estimate (and build); rows with
// a few huge ones among short ones, beyond ELL's limit, are refused exactly.
TEST(Plan, RefusalsFromASampleOfRows) {
  const Csr<double> uniform = generate(parse_generator_spec("uniform:rows=300000,cols=300000,per_row=5"));
  const Csr<double> skewed = generate(parse_generator_spec(
      "fewhuge:rows=300000,cols=300000,per_row=3,huge_rows=3,huge_length=50000"));
  const MatrixStats uniform_stats = planned_stats(uniform), skewed_stats = planned_stats(skewed);
  ASSERT_LT(uniform_stats.row_length_rows, uniform.rows);
  ASSERT_LT(skewed_stats.row_length_rows, skewed.rows);
  for (const char* kernel : {"ell", "hyb"}) {
    SCOPED_TRACE(kernel);
    EXPECT_EQ(detail::format_refusal(kernel, &uniform, uniform_stats, h100_shape), std::string());
  }
  EXPECT_NO_THROW(ell_from_csr(uniform));
  EXPECT_NO_THROW(hyb_from_csr(uniform));
  const std::optional<std::string> ell = detail::format_refusal("ell", &skewed, skewed_stats, h100_shape);
  ASSERT_TRUE(ell.has_value());
  EXPECT_NE(*ell, "");
  EXPECT_THROW(ell_from_csr(skewed), FormatLimitError);
  // ELLR-T: beyond the limit at T = 32, the uniform rows are accepted at the
  // model's T from sampled rows' lengths (and build at the T of every row's);
  // the skewed rows are beyond it at any T, and refused.
  EXPECT_EQ(detail::format_refusal("ellr-t", &uniform, uniform_stats, h100_shape), std::string());
  EllpackROptions modelled;
  modelled.threads_per_row = ellrt_configuration(detail::row_lengths(uniform), h100_shape).threads_per_row;
  EXPECT_NO_THROW(ellpack_r_from_csr(uniform, modelled));
  const std::optional<std::string> ellrt = detail::format_refusal("ellr-t", &skewed, skewed_stats, h100_shape);
  ASSERT_TRUE(ellrt.has_value());
  EXPECT_NE(*ellrt, "");
  EXPECT_THROW(ellpack_r_from_csr(skewed, EllpackROptions{}), FormatLimitError);
  // A matrix on the device (no host Csr): what the sample decides is the
  // same (the longest row read bounds ELL's footprint from below), the rest
  // is left to the device builds.
  for (const char* kernel : {"ell", "hyb"})
    EXPECT_EQ(detail::format_refusal<double>(kernel, nullptr, uniform_stats, h100_shape), std::string()) << kernel;
  EXPECT_EQ(detail::format_refusal<double>("ell", nullptr, skewed_stats, h100_shape), ell);
  EXPECT_EQ(detail::format_refusal<double>("ellr-t", nullptr, uniform_stats, h100_shape), std::nullopt);
}

// ELLR-T's padding is widest at T = 32: within the limit there, it is
// accepted from the analysis alone (a matrix on the device included); nearer
// the limit the model's T is computed from every row, which needs the host
// matrix.
TEST(Plan, EllrtWithinItsLimitAtEveryTNeedsNoPassOverTheRows) {
  const Csr<double> long_rows = generate(parse_generator_spec("uniform:rows=20000,cols=20000,per_row=24"));
  const Csr<double> short_rows = generate(parse_generator_spec("uniform:rows=20000,cols=20000,per_row=5"));
  const MatrixStats long_stats = planned_stats(long_rows), short_stats = planned_stats(short_rows);
  ASSERT_EQ(long_stats.row_length_rows, long_rows.rows);
  ASSERT_EQ(short_stats.row_length_rows, short_rows.rows);
  EXPECT_EQ(detail::format_refusal<double>("ellr-t", nullptr, long_stats, h100_shape), std::string());
  EXPECT_EQ(detail::format_refusal<double>("ellr-t", nullptr, short_stats, h100_shape), std::nullopt);
  EXPECT_EQ(detail::format_refusal("ellr-t", &short_rows, short_stats, h100_shape), std::string());
}

// A device unlike any the model was trained on puts every kernel of ours
// outside its training range: the plan falls back to cuSPARSE and says why.
TEST(Plan, AnUnfamiliarMatrixOrDeviceGetsCusparse) {
  PlanOptions options = described_h100();
  options.target_device->l2_bytes = 1024;
  options.target_device->multiprocessors = 1;
  const Plan plan = make_plan(generate(parse_generator_spec("stencil27:n=24")), options);
  if (plan.tuning != "model") GTEST_SKIP() << plan.reason;
  EXPECT_EQ(plan.options.backend, Backend::cusparse);
  EXPECT_NE(plan.reason.find("not trained on matrices like this one"), std::string::npos) << plan.reason;
  for (const PlanCandidate& c : plan.candidates) EXPECT_EQ(c.backend, Backend::cusparse);
}

TEST(Plan, AForcedKernelIsHonoured) {
  const Csr<double> a = generate(parse_generator_spec("stencil7:n=10"));
  for (const KernelInfo& info : kernel_catalogue()) {
    if (info.backend != Backend::cpu) continue;
    SCOPED_TRACE(info.name);
    PlanOptions options;
    options.backend = Backend::cpu;
    options.kernel = info.name;
    const Plan plan = make_plan(a, options);
    EXPECT_EQ(plan.tuning, "forced");
    EXPECT_EQ(plan.options.kernel, info.name);
    EXPECT_EQ(plan.format, info.format);
    EXPECT_EQ(make_operator(plan_from_json(plan_to_json(plan)), a)->describe().kernel, info.name);
  }
}

TEST(Plan, OperatorsCheckTheMatrixAgainstThePlan) {
  const Csr<double> a = generate(parse_generator_spec("stencil5:n=8"));
  const Plan plan = make_plan(a, PlanOptions{});
  EXPECT_THROW(make_operator(plan, generate(parse_generator_spec("stencil5:n=9"))), InvalidArgument);
  EXPECT_THROW(make_operator(plan, cast<float>(a)), InvalidArgument);
  EXPECT_NO_THROW(make_operator(plan, a));
}

// A tall matrix of few columns (LIBSVM's kdd99 has 127) lies beyond the
// selector's training range only where the range is open (smaller x, fewer
// columns per row): our kernels stay candidates instead of cuSPARSE alone.
TEST(Plan, ATallMatrixOfFewColumnsKeepsOurKernels) {
  const Csr<double> a = generate(parse_generator_spec("classification:rows=100000,cols=127,per_row=16"));
  const Plan plan = make_plan(a, described_h100());
  if (plan.tuning != "model") GTEST_SKIP() << plan.reason;  // a build without the cuda kernels
  const auto ours = std::count_if(plan.candidates.begin(), plan.candidates.end(),
                                  [](const PlanCandidate& c) { return c.backend == Backend::cuda; });
  EXPECT_GE(ours, 10) << plan.reason;
  EXPECT_EQ(plan.reason.find("csr-adaptive,"), std::string::npos) << plan.reason;  // not among the unfamiliar
}

// A plan for SpMM: the SpMM kernels are its candidates, ranked by the SpMM
// model on the matrix's features and the product's (k, the layout); a build
// whose SpMM model covers none of its kernels keeps the backend's default
// SpMM and says so.
TEST(Plan, AnSpmmPlanRanksTheSpmmKernelsByTheSpmmModel) {
  const Csr<double> a = generate(parse_generator_spec("stencil27:n=16"));
  PlanOptions options = described_h100();
  options.spmm_columns = 4;
  options.spmm_layout = Layout::col_major;
  const Plan plan = make_plan(a, options);
  EXPECT_NE(plan.reason.find("SpMM of 4 columns, col-major"), std::string::npos) << plan.reason;
  const std::vector<KernelInfo> catalogue = kernel_catalogue();
  const auto info_of = [&](const PlanCandidate& c) {
    return *std::find_if(catalogue.begin(), catalogue.end(), [&](const KernelInfo& k) { return k.name == c.kernel; });
  };
  for (const PlanCandidate& c : plan.candidates) EXPECT_TRUE(info_of(c).spmm_only) << c.kernel;
  ASSERT_GE(plan.features.size(), 3u);
  const std::size_t n = plan.features.size();
  EXPECT_EQ(plan.features[n - 3], std::make_pair(std::string("log2_columns"), 2.0));
  EXPECT_EQ(plan.features[n - 2], std::make_pair(std::string("column_major"), 1.0));
  EXPECT_EQ(plan.features[n - 1].first, "log2_dense_bytes_per_l2");
  const Plan back = plan_from_json(plan_to_json(plan));
  EXPECT_EQ(back.options.spmm_columns, 4);
  EXPECT_EQ(back.options.spmm_layout, Layout::col_major);
  EXPECT_EQ(back.options.kernel, plan.options.kernel);
  if (plan.tuning == "default") {  // a build without the cuda kernels
    EXPECT_NE(plan.reason.find("covers no SpMM kernel of this build"), std::string::npos) << plan.reason;
    EXPECT_TRUE(plan.options.kernel.empty());
  } else {
    ASSERT_EQ(plan.tuning, "model") << plan.reason;
    EXPECT_TRUE(info_of(plan.candidates.front()).spmm_only);
    EXPECT_GT(plan.predicted_seconds, 0);
    ASSERT_FALSE(plan.options.kernel.empty());
    EXPECT_TRUE(std::any_of(plan.candidates.begin(), plan.candidates.end(),
                            [&](const PlanCandidate& c) { return c.kernel == plan.options.kernel; }));
    for (std::size_t i = 1; i < plan.candidates.size(); ++i)
      EXPECT_LE(plan.candidates[i - 1].predicted_cost_seconds, plan.candidates[i].predicted_cost_seconds);
  }
  // In deterministic mode only the deterministic SpMM kernels are candidates.
  options.deterministic = true;
  for (const PlanCandidate& c : make_plan(a, options).candidates) EXPECT_TRUE(info_of(c).deterministic) << c.kernel;
  options.spmm_columns = 1;
  EXPECT_THROW(make_plan(a, options), InvalidArgument);
}

// With explicit_transpose, A^T gets a plan of its own: the plan make_plan
// gives transpose(A) for the SpMV alone. A tall narrow A (LIBSVM's shape) has
// a few long rows there. Not with a kernel named, in deterministic mode or
// on another backend: A^T then keeps A's kernel.
TEST(Plan, ExplicitTransposePlansATransposeOfItsOwn) {
  const Csr<double> a = generate(parse_generator_spec("classification:rows=60000,cols=127,per_row=16"));
  PlanOptions options = described_h100();
  options.explicit_transpose = true;
  const Plan plan = make_plan(a, options);
  ASSERT_NE(plan.transposed, nullptr);
  const Plan& transposed = *plan.transposed;
  EXPECT_TRUE(plan.options.explicit_transpose);
  EXPECT_EQ(transposed.rows, a.cols);
  EXPECT_EQ(transposed.cols, a.rows);
  EXPECT_EQ(transposed.nnz, plan.nnz);
  EXPECT_FALSE(transposed.options.explicit_transpose);
  EXPECT_TRUE(transposed.options.spmv_only);
  EXPECT_EQ(transposed.transposed, nullptr);
  EXPECT_GT(transposed.analysis_seconds, 0);

  PlanOptions of_transposed = described_h100();
  of_transposed.spmv_only = true;
  const Plan direct = make_plan(transpose(a), of_transposed);
  EXPECT_EQ(transposed.options.kernel, direct.options.kernel);
  EXPECT_EQ(transposed.features, direct.features);
  ASSERT_EQ(transposed.candidates.size(), direct.candidates.size());
  for (std::size_t i = 0; i < direct.candidates.size(); ++i)
    EXPECT_EQ(transposed.candidates[i].kernel, direct.candidates[i].kernel);
  EXPECT_NE(transposed.features, plan.features);  // A^T's rows are not A's
  PlanOptions of_a = described_h100();
  EXPECT_EQ(plan.options.kernel, make_plan(a, of_a).options.kernel);  // A's choice is unchanged

  const std::string json = plan_to_json(plan);
  const Plan back = plan_from_json(json);
  EXPECT_EQ(plan_to_json(back), json);
  ASSERT_NE(back.transposed, nullptr);
  EXPECT_EQ(back.transposed->options.kernel, transposed.options.kernel);

  // A plan for the SpMM still plans A^T for the transposed SpMV.
  PlanOptions for_spmm = options;
  for_spmm.spmm_columns = 4;
  const Plan spmm = make_plan(a, for_spmm);
  EXPECT_EQ(spmm.options.spmm_columns, 4);
  ASSERT_NE(spmm.transposed, nullptr);
  EXPECT_EQ(spmm.transposed->options.spmm_columns, 0);
  EXPECT_EQ(spmm.transposed->options.kernel, transposed.options.kernel);

  for (const auto& change : std::vector<std::function<void(PlanOptions&)>>{
           [](PlanOptions& o) { o.kernel = "csr-vector"; }, [](PlanOptions& o) { o.deterministic = true; },
           [](PlanOptions& o) { o.backend = Backend::cpu; }}) {
    PlanOptions other = options;
    change(other);
    EXPECT_EQ(make_plan(a, other).transposed, nullptr);
  }
}

TEST(Plan, ATransposedPlanReadBackMustBeOfTheTranspose) {
  const Csr<double> a = generate(parse_generator_spec("uniform:rows=3000,cols=500,per_row=6"));
  PlanOptions options = described_h100();
  options.explicit_transpose = true;
  const nlohmann::json j = nlohmann::json::parse(plan_to_json(make_plan(a, options)));
  nlohmann::json wrong_size = j;
  wrong_size["transposed"]["rows"] = 3000;
  EXPECT_THROW(plan_from_json(wrong_size.dump()), ParseError);
  nlohmann::json nested = j;
  nested["transposed"]["transposed"] = j["transposed"];
  EXPECT_THROW(plan_from_json(nested.dump()), ParseError);
  nlohmann::json on_cpu = j;
  on_cpu["options"]["backend"] = "cpu";
  EXPECT_THROW(plan_from_json(on_cpu.dump()), ParseError);
  nlohmann::json older = j;  // a plan saved before the key existed
  older.erase("transposed");
  EXPECT_EQ(plan_from_json(older.dump()).transposed, nullptr);
}

TEST(Plan, BadOptionsAndBadJsonAreRefused) {
  const Csr<double> a = generate(parse_generator_spec("stencil5:n=8"));
  PlanOptions options;
  options.expected_products = -1;
  EXPECT_THROW(make_plan(a, options), InvalidArgument);
  options = PlanOptions{};
  options.kernel = "no-such-kernel";
  EXPECT_THROW(make_operator(make_plan(a, options), a), InvalidArgument);
  EXPECT_THROW(plan_from_json("{"), ParseError);
  EXPECT_THROW(plan_from_json("{\"format_version\": \"spmv-plan/1\"}"), ParseError);
  std::string json = plan_to_json(make_plan(a, PlanOptions{}));
  json.replace(json.find("\"f64\""), 5, "\"f16\"");
  EXPECT_THROW(plan_from_json(json), ParseError);
  // Integers must be integers the field holds: a float or a value out of range would convert wrongly.
  const nlohmann::json good = nlohmann::json::parse(plan_to_json(make_plan(a, PlanOptions{})));
  for (const auto& spoil : std::vector<std::function<void(nlohmann::json&)>>{
           [](nlohmann::json& j) { j["rows"] = 2.5; }, [](nlohmann::json& j) { j["options"]["device"] = 1e30; },
           [](nlohmann::json& j) { j["nnz"] = "64"; }, [](nlohmann::json& j) { j["cols"] = 1ll << 40; },
           [](nlohmann::json& j) { j["options"]["params"] = {{"block_size", 1.5}}; },
           [](nlohmann::json& j) { j["options"]["measured_candidates"] = -(1ll << 40); }}) {
    nlohmann::json spoiled = good;
    spoil(spoiled);
    EXPECT_THROW(plan_from_json(spoiled.dump()), ParseError) << spoiled.dump();
  }
  nlohmann::json with_params = good;
  with_params["options"]["params"] = {{"block_size", 256}};
  EXPECT_EQ(plan_from_json(with_params.dump()).options.params.at("block_size"), 256);
}

TEST(SelectorModel, MalformedModelsAreRefused) {
  const std::string head =
      R"({"format":"spmv-selector-model/2","architecture":"sm_90","provenance":"test","features":["a","b"],)"
      R"("risk":1,"vendor_margin":0,"range_slack":1,"open_below":["b"],"open_above":[],)";
  const auto with_tree = [&](const std::string& tree, const std::string& range = R"([0,0],"feature_max":[1,1])") {
    return head + R"("kernels":[{"kernel":"k","backend":"cuda","format":"csr","base":0,"learning_rate":1,)" +
           R"("setup_seconds_per_nnz":0,"setup_seconds_fixed":0,"uncertainty_log2":0.5,"feature_min":)" + range +
           R"(,"trees":[)" + tree + "]}]}";
  };
  const std::string good = R"({"feature":[1,-1,-1],"threshold":[0.5,0,0],"left":[1,-1,-1],"right":[2,-1,-1],)"
                           R"("value":[0,-1,2]})";
  const detail::SelectorModel model = detail::parse_selector_model(with_tree(good));
  EXPECT_DOUBLE_EQ(model.kernels.at(0).predict_log2_slowdown({0, 0.2}), -1);
  EXPECT_DOUBLE_EQ(model.kernels.at(0).predict_log2_slowdown({0, 0.7}), 2);
  EXPECT_TRUE(model.trained_near(model.kernels.at(0), {-1, 2}));
  EXPECT_FALSE(model.trained_near(model.kernels.at(0), {-1.5, 0.5}));
  EXPECT_FALSE(model.trained_near(model.kernels.at(0), {0.5, 2.5}));  // b is open below only
  EXPECT_TRUE(model.trained_near(model.kernels.at(0), {0.5, -7}));
  std::string unknown_feature = with_tree(good);
  unknown_feature.replace(unknown_feature.find(R"("open_below":["b"])"), 18, R"("open_below":["c"])");
  EXPECT_THROW(detail::parse_selector_model(unknown_feature), ParseError);
  EXPECT_THROW(detail::parse_selector_model(with_tree(good, R"([0],"feature_max":[1])")), ParseError);
  const std::string cycle = R"({"feature":[1,1,-1],"threshold":[0.5,0.5,0],"left":[1,0,-1],"right":[2,2,-1],)"
                            R"("value":[0,0,2]})";
  EXPECT_THROW(detail::parse_selector_model(with_tree(cycle)), ParseError);
  // Children in any order after their parent: the packed tree walks the same paths.
  const std::string unordered = R"({"feature":[1,0,-1,-1,-1],"threshold":[0.5,0.5,0,0,0],"left":[3,4,-1,-1,-1],)"
                                R"("right":[1,2,-1,-1,-1],"value":[0,0,7,-1,4]})";
  const detail::SelectorModel reordered = detail::parse_selector_model(with_tree(unordered));
  EXPECT_EQ(reordered.kernels.at(0).predict_log2_slowdown({0, 0.2}), -1);
  EXPECT_EQ(reordered.kernels.at(0).predict_log2_slowdown({0.2, 0.7}), 4);
  EXPECT_EQ(reordered.kernels.at(0).predict_log2_slowdown({0.7, 0.7}), 7);
  // A node reached from two splits would be packed once per path: refused.
  const std::string shared_child = R"({"feature":[1,1,-1],"threshold":[0.5,0.5,0],"left":[1,2,-1],"right":[2,2,-1],)"
                                   R"("value":[0,0,2]})";
  EXPECT_THROW(detail::parse_selector_model(with_tree(shared_child)), ParseError);
  const std::string bad_feature = R"({"feature":[7,-1,-1],"threshold":[0.5,0,0],"left":[1,-1,-1],)"
                                  R"("right":[2,-1,-1],"value":[0,-1,2]})";
  EXPECT_THROW(detail::parse_selector_model(with_tree(bad_feature)), ParseError);
  EXPECT_THROW(detail::parse_selector_model("[]"), ParseError);
  const auto with_params = [&](const std::string& params) {
    std::string text = with_tree(good);
    return text.insert(text.find(R"("trees")"), R"("params":)" + params + ",");
  };
  EXPECT_EQ(detail::parse_selector_model(with_params(R"({"hub_min_share":12})")).kernels.at(0).params,
            (KernelParams{{"hub_min_share", 12}}));
  EXPECT_TRUE(detail::parse_selector_model(with_params("{}")).kernels.at(0).params.empty());
  EXPECT_THROW(detail::parse_selector_model(with_params(R"({"hub_min_share":1.5})")), ParseError);
  EXPECT_THROW(detail::parse_selector_model(with_params(R"({"hub_min_share":"12"})")), ParseError);
}

// A kernel with training points is a candidate only within near_slack of one of them over the near features
// together, even where each feature alone is within its range.
TEST(SelectorModel, TheNearnessGuardTakesTheFeaturesTogether) {
  const std::string kernel =
      R"({"kernel":"k","backend":"cuda","format":"csr","base":0,"learning_rate":1,"setup_seconds_per_nnz":0,)"
      R"("setup_seconds_fixed":0,"uncertainty_log2":0,"feature_min":[0,0,0],"feature_max":[4,4,4],)"
      R"("trees":[{"feature":[-1],"threshold":[0],"left":[-1],"right":[-1],"value":[0]}])";
  const auto model_with = [&](const std::string& points, const std::string& near) {
    return R"({"format":"spmv-selector-model/2","architecture":"sm_90","provenance":"test","features":["a","b","c"],)"
           R"("risk":1,"vendor_margin":0,"range_slack":0,"open_below":[],"open_above":[],"kernels":[)" +
           kernel + points + "}]" + near + "}";
  };
  const std::string near = R"(,"near_features":["a","c"],"near_slack":1)";
  const detail::SelectorModel model = detail::parse_selector_model(model_with(R"(,"near_points":[[0,0],[4,4]])", near));
  EXPECT_EQ(model.near_features, (std::vector<int>{0, 2}));
  const detail::KernelModel& k = model.kernels.at(0);
  EXPECT_TRUE(model.trained_near(k, {1, 4, 0.5}));   // near (0, 0); b is not a near feature
  EXPECT_TRUE(model.trained_near(k, {3, 0, 3}));     // near (4, 4)
  EXPECT_FALSE(model.trained_near(k, {0.5, 2, 3.5}));  // within every range, near neither point
  EXPECT_FALSE(model.trained_near(k, {4.5, 2, 4}));    // near (4, 4), outside a's range
  // Without points a kernel is held to the range guard alone.
  const detail::SelectorModel unguarded = detail::parse_selector_model(model_with("", near));
  EXPECT_TRUE(unguarded.trained_near(unguarded.kernels.at(0), {0.5, 2, 3.5}));
  // A point of the wrong length, points without near features and an unknown near feature are refused.
  EXPECT_THROW(detail::parse_selector_model(model_with(R"(,"near_points":[[0,0,0]])", near)), ParseError);
  EXPECT_THROW(detail::parse_selector_model(model_with(R"(,"near_points":[[0,0]])", "")), ParseError);
  EXPECT_THROW(detail::parse_selector_model(model_with(R"(,"near_points":[[0,0],[0,0,0]])", near)), ParseError);
  EXPECT_THROW(detail::parse_selector_model(model_with("", R"(,"near_features":["d"],"near_slack":1)")), ParseError);
  EXPECT_THROW(detail::parse_selector_model(model_with("", R"(,"near_features":["a"],"near_slack":-1)")), ParseError);
}

// A kernel that reads some features only (dense-cublas: the dense copy's
// size) is held to their ranges alone, and its trees may split on no other.
TEST(SelectorModel, AKernelsOwnFeaturesAndByteModel) {
  const auto model_with = [](const std::string& own, const std::string& split_on = "2") {
    return R"({"format":"spmv-selector-model/2","architecture":"sm_90","provenance":"test","features":["a","b","c"],)"
           R"("risk":1,"vendor_margin":0,"range_slack":0,"open_below":[],"open_above":[],"kernels":[)"
           R"({"kernel":"k","backend":"cuda","format":"dense","base":0,"learning_rate":1,"setup_seconds_per_nnz":0,)"
           R"("setup_seconds_fixed":0,"uncertainty_log2":0,"feature_min":[0,0,0],"feature_max":[4,4,4],)"
           R"("trees":[{"feature":[)" + split_on +
           R"(,-1,-1],"threshold":[1,0,0],"left":[1,-1,-1],"right":[2,-1,-1],"value":[0,1,2]}])" + own + "}]}";
  };
  const detail::SelectorModel model =
      detail::parse_selector_model(model_with(R"(,"features":["a","c"],"byte_model":"dense")"));
  const detail::KernelModel& k = model.kernels.at(0);
  EXPECT_EQ(k.features, (std::vector<int>{0, 2}));
  EXPECT_EQ(k.byte_model, detail::ByteModel::dense);
  EXPECT_TRUE(model.trained_near(k, {2, 9, 2}));    // b far outside its range, but k does not read b
  EXPECT_FALSE(model.trained_near(k, {2, 2, 9}));   // c outside
  EXPECT_DOUBLE_EQ(k.predict_log2_slowdown({0, 0, 3}), 2);
  const detail::SelectorModel every = detail::parse_selector_model(model_with(""));
  EXPECT_EQ(every.kernels.at(0).byte_model, detail::ByteModel::csr);
  EXPECT_FALSE(every.trained_near(every.kernels.at(0), {2, 9, 2}));  // reads every feature
  EXPECT_THROW(detail::parse_selector_model(model_with(R"(,"features":["a","c"])", "1")), ParseError);  // splits on b
  EXPECT_THROW(detail::parse_selector_model(model_with(R"(,"features":["d"])")), ParseError);
  EXPECT_THROW(detail::parse_selector_model(model_with(R"(,"byte_model":"coo")")), ParseError);
}

// A kernel's prediction from the model file's JSON, walking its trees as the file lists them.
double predicted_by_json(const nlohmann::json& kernel, const std::vector<double>& features) {
  double sum = kernel.at("base").get<double>();
  for (const nlohmann::json& tree : kernel.at("trees")) {
    std::size_t node = 0;
    while (tree.at("feature")[node].get<int>() >= 0)
      node = features[tree.at("feature")[node].get<std::size_t>()] < tree.at("threshold")[node].get<double>()
                 ? tree.at("left")[node].get<std::size_t>()
                 : tree.at("right")[node].get<std::size_t>();
    sum += kernel.at("learning_rate").get<double>() * tree.at("value")[node].get<double>();
  }
  return sum;
}

// The model's own reader against a general JSON parser, on every number of
// the built-in model; then text that is not a model.
TEST(SelectorModel, ReaderAgreesWithAJsonParser) {
  const detail::SelectorModel model = detail::parse_selector_model(detail::builtin_selector_model_text);
  const nlohmann::json json = nlohmann::json::parse(detail::builtin_selector_model_text);
  EXPECT_EQ(model.architecture, json.at("architecture").get<std::string>());
  EXPECT_EQ(model.feature_names, json.at("features").get<std::vector<std::string>>());
  EXPECT_EQ(model.risk, json.at("risk").get<double>());
  ASSERT_EQ(model.kernels.size(), json.at("kernels").size());
  for (std::size_t k = 0; k < model.kernels.size(); ++k) {
    const detail::KernelModel& kernel = model.kernels[k];
    const nlohmann::json& expected = json.at("kernels")[k];
    SCOPED_TRACE(kernel.kernel);
    EXPECT_EQ(kernel.kernel, expected.at("kernel").get<std::string>());
    EXPECT_EQ(kernel.base, expected.at("base").get<double>());
    EXPECT_EQ(kernel.setup_seconds_per_nnz, expected.at("setup_seconds_per_nnz").get<double>());
    EXPECT_EQ(kernel.feature_max, expected.at("feature_max").get<std::vector<double>>());
    EXPECT_EQ(kernel.params, expected.value("params", nlohmann::json::object()).get<KernelParams>());
    EXPECT_EQ(kernel.byte_model == detail::ByteModel::dense, expected.value("byte_model", "csr") == "dense");
    EXPECT_EQ(kernel.features.size(), expected.value("features", nlohmann::json::array()).size());
    ASSERT_EQ(kernel.trees.tree_count(), expected.at("trees").size());
    // The packed trees predict what the file's arrays do, to the bit, at random points over (and a little
    // beyond) the kernel's training range.
    std::mt19937 random(static_cast<unsigned>(k));
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<double> features(model.feature_names.size());
      for (std::size_t f = 0; f < features.size(); ++f)
        features[f] = std::uniform_real_distribution<double>(kernel.feature_min[f] - 1, kernel.feature_max[f] + 1)(random);
      EXPECT_EQ(kernel.predict_log2_slowdown(features), predicted_by_json(expected, features));
    }
  }
  const std::string text = detail::builtin_selector_model_text;
  EXPECT_THROW(detail::parse_selector_model(text.substr(0, text.size() / 2)), ParseError);
  EXPECT_THROW(detail::parse_selector_model(text + " x"), ParseError);
  std::string unknown_key = text;
  unknown_key.insert(unknown_key.find('{') + 1, R"("notes": {"a": [1, true, null, "s"]}, )");
  EXPECT_EQ(detail::parse_selector_model(unknown_key).kernels.size(), model.kernels.size());
  std::string quoted_number = text;
  const std::size_t threshold = quoted_number.find("\"threshold\":[") + 13;
  quoted_number.insert(threshold, "\"");
  EXPECT_THROW(detail::parse_selector_model(quoted_number), ParseError);
  // The kernels are read in parallel: the error is still the first kernel's,
  // at its byte of the whole text.
  const auto message = [](const std::string& model_text) {
    try {
      detail::parse_selector_model(model_text);
    } catch (const ParseError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  std::string two_bad = quoted_number;
  two_bad.insert(two_bad.rfind("\"threshold\":[") + 13, "\"");
  const std::string first_error = message(quoted_number);
  EXPECT_NE(first_error.find("at byte " + std::to_string(threshold)), std::string::npos) << first_error;
  EXPECT_EQ(message(two_bad), first_error);
}

// The selector reads a 32nd of the entries (at least 4096, at most 2^18), so
// that its analysis stays a small share of the upload on matrices of any size.
TEST(Plan, TheSelectorsSampleGrowsWithTheMatrix) {
  for (const index_t per_row : {2, 8, 32, 128}) {
    const Csr<double> a = gen_uniform_random(1 << 15, 1 << 15, per_row, 5);
    const MatrixStats stats = analyse(a, detail::selector_stats_options(a.nnz()));
    const std::int64_t budget = std::max<std::int64_t>(a.nnz() / 32, 4096);
    EXPECT_LE(stats.sampled_nnz, 2 * budget) << per_row;
    EXPECT_GE(stats.sampled_nnz, budget / 2) << per_row;
  }
  const Csr<double> small = gen_uniform_random(300, 300, 10, 5);  // under the floor: read whole
  EXPECT_EQ(analyse(small, detail::selector_stats_options(small.nnz())).sampled_nnz, small.nnz());
  EXPECT_EQ(detail::selector_stats_options(std::int64_t{1} << 34).sample_nonzeros, std::int64_t{1} << 18);
}

TEST(CliPlan, PrintsTheChoiceForADescribedDevice) {
  const CliRun run = run_cli({"plan", sample("bcsstk14.mtx.gz"), "--device-l2", "50MiB", "--device-sms", "132",
                              "--device-bandwidth", "3000"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("choice"), std::string::npos);
  EXPECT_NE(run.out.find("reason"), std::string::npos);
  const CliRun json = run_cli({"plan", "--gen", "stencil5:n=30", "--json", "--precision", "f32", "--device-l2",
                               "50MiB", "--device-sms", "132", "--device-bandwidth", "3000"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(plan_from_json(json.out).value_type, "f32");
  const CliRun bad = run_cli({"plan", "--gen", "stencil5:n=30", "--device-l2", "50MiB"});
  EXPECT_EQ(bad.exit_code, 2);
  const CliRun spmm = run_cli({"plan", "--gen", "stencil5:n=30", "--k", "8", "--layout", "col", "--json",
                               "--device-l2", "50MiB", "--device-sms", "132", "--device-bandwidth", "3000"});
  ASSERT_EQ(spmm.exit_code, 0) << spmm.err;
  EXPECT_EQ(plan_from_json(spmm.out).options.spmm_columns, 8);
  EXPECT_EQ(plan_from_json(spmm.out).options.spmm_layout, Layout::col_major);
  const CliRun transposed =
      run_cli({"plan", "--gen", "classification:rows=20000,cols=100,per_row=8", "--explicit-transpose",
               "--device-l2", "50MiB", "--device-sms", "132", "--device-bandwidth", "3000"});
  ASSERT_EQ(transposed.exit_code, 0) << transposed.err;
  EXPECT_NE(transposed.out.find("apply_transposed multiplies by A^T"), std::string::npos) << transposed.out;
  EXPECT_NE(transposed.out.find("(100 x 20000,"), std::string::npos) << transposed.out;
}

}  // namespace
}  // namespace spmv::test
