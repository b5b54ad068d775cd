// `spmv plan (FILE | --gen SPEC) [options]`: the plan the library would make
// for a matrix (make_plan): the chosen backend, kernel and format, every
// candidate with its predicted product and setup time, and why the winner won.
#include <fmt/format.h>

#include <memory>

#include "cli_common.hpp"
#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/plan.hpp"

namespace spmv::cli {
namespace {

struct PlanCommandOptions {
  std::string file;
  std::string format;
  std::string gen_spec;
  index_t copies = 1;
  std::string precision = "f64";
  std::string backend = "cuda";
  std::string kernel;
  double expected_products = default_expected_products;
  index_t k = 1;
  std::string layout = "row";
  bool measure = false;
  bool deterministic = false;
  bool explicit_transpose = false;
  int measured_candidates = PlanOptions{}.measured_candidates;
  std::string plan_cache;
  std::string selector_model;
  bool json = false;
  std::string device_name = "described device";
  int device_multiprocessors = 0;
  std::size_t device_l2_bytes = 0;
  double device_bandwidth_gbs = 0;
};

void print_plan(const Plan& p, const std::string& source) {
  fmt::print("matrix      {} ({} x {}, {} non-zeros, {})\n", source, p.rows, p.cols, p.nnz, p.value_type);
  if (p.device)
    fmt::print("device      {} ({} SMs, {:.0f} MiB L2, {:.0f} GB/s copy)\n", p.device->name,
               p.device->multiprocessors, p.device->l2_bytes / 1048576.0, p.device->copy_bandwidth_gbs);
  fmt::print("choice      {} {}{} (tuning: {})\n", to_string(p.options.backend),
             p.options.kernel.empty() ? "(the backend's default kernel)" : p.options.kernel,
             p.format.empty() ? "" : ", format " + p.format, p.tuning);
  if (!p.options.params.empty()) fmt::print("params      {}\n", params_text(p.options.params));
  fmt::print("reason      {}\n", p.reason);
  if (!p.selector_model.empty()) fmt::print("model       {}\n", p.selector_model);
  if (p.candidates.empty()) return;
  // A plan without a model for its product (an SpMM plan in a build whose SpMM model
  // covers none of its kernels) lists its candidates unranked.
  const bool predicted = p.candidates.front().predicted_cost_seconds > 0;
  if (predicted)
    fmt::print("predicted   {:.4f} ms per product, {:.3f} ms setup; expected products {:g}\n",
               p.predicted_seconds * 1e3, p.predicted_setup_seconds * 1e3, p.expected_products);
  fmt::print("planning    analysis {:.3f} ms, selection {:.3f} ms", p.analysis_seconds * 1e3,
             p.selection_seconds * 1e3);
  if (p.tuning == "measured" || p.tuning == "cached")
    fmt::print(", measurement {:.3f} ms ({} products timed)", p.measurement_seconds * 1e3, p.measured_products);
  fmt::print("\n\n{:>4}  {:<20} {:<9} {:<9} {:>12} {:>11} {:>11} {:>12} {:>11}  {}\n", "rank", "kernel", "backend",
             "format", "product ms", "setup ms", "cost ms", "measured ms", "setup ms", "refusal");
  const auto ms = [](const std::optional<double>& seconds, int decimals) {
    return seconds ? fmt::format("{:.{}f}", *seconds * 1e3, decimals) : std::string("-");
  };
  const auto if_predicted = [&](double seconds) { return predicted ? std::optional<double>(seconds) : std::nullopt; };
  int rank = 0;
  for (const PlanCandidate& c : p.candidates)
    fmt::print("{:>4}  {:<20} {:<9} {:<9} {:>12} {:>11} {:>11} {:>12} {:>11}  {}\n", ++rank, c.kernel,
               to_string(c.backend), c.format, ms(if_predicted(c.predicted_seconds), 4),
               ms(if_predicted(c.predicted_setup_seconds), 3), ms(if_predicted(c.predicted_cost_seconds), 3),
               ms(c.measured_seconds, 4), ms(c.measured_setup_seconds, 4),
               c.refusal ? (c.refusal->empty() ? "accepts" : *c.refusal) : "-");
}

// A plan and, below it, the plan of A^T when it has one.
void print_plans(const Plan& p, const std::string& source) {
  print_plan(p, source);
  if (!p.transposed) return;
  fmt::print("\napply_transposed multiplies by A^T, stored in a format chosen for it:\n\n");
  print_plan(*p.transposed, source + ", transposed");
}

template <class T>
int run_plan(const PlanCommandOptions& o, const Csr<double>& matrix, const std::string& source) {
  PlanOptions options;
  options.backend = backend_from_string(o.backend.c_str());
  options.kernel = o.kernel;
  options.expected_products = o.expected_products;
  options.spmm_columns = o.k > 1 ? o.k : 0;
  options.spmm_layout = layout_from_string(o.layout.c_str());
  options.tuning = o.measure ? Tuning::measure : Tuning::model;
  options.measured_candidates = o.measured_candidates;
  options.plan_cache = o.plan_cache;
  if (options.spmm_columns > 0)
    options.spmm_selector_model = o.selector_model;
  else
    options.selector_model = o.selector_model;
  options.deterministic = o.deterministic;
  options.explicit_transpose = o.explicit_transpose;
  if (o.device_l2_bytes > 0)
    options.target_device =
        DeviceProperties{o.device_name, o.device_multiprocessors, o.device_l2_bytes, o.device_bandwidth_gbs};
  const Plan p = make_plan(cast<T>(matrix), options);
  if (o.json)
    fmt::print("{}\n", plan_to_json(p));
  else
    print_plans(p, source);
  return exit_success;
}

int run_plan_command(const PlanCommandOptions& o) {
  if (o.file.empty() == o.gen_spec.empty())
    throw InvalidArgument("plan: give either a matrix FILE or --gen SPEC (see 'spmv plan --help')");
  Csr<double> a;
  std::string source = o.file;
  if (o.gen_spec.empty()) {
    a = read_matrix<double>(o.file, input_format(o.file, o.format));
  } else {
    const GeneratorSpec spec = parse_generator_spec(o.gen_spec);
    a = generate(spec);
    source = to_string(spec);
  }
  if (o.copies > 1) {
    a = replicate_block_diagonal(a, o.copies);
    source += " x" + std::to_string(o.copies) + " copies";
  }
  return o.precision == "f32" ? run_plan<float>(o, a, source) : run_plan<double>(o, a, source);
}

}  // namespace

Command add_plan_command(CLI::App& app) {
  auto o = std::make_shared<PlanCommandOptions>();
  CLI::App* c = app.add_subcommand(
      "plan", "show the plan for a matrix: the chosen kernel, every candidate's predicted time and setup, and why");
  c->add_option("file", o->file, "matrix file (.mtx, .mtx.gz, .libsvm, .svm, .spmv)");
  add_input_format_option(*c, o->format);
  c->add_option("--gen", o->gen_spec, "generate the matrix instead: KIND[:name=value,...] (see 'spmv gen --list')");
  c->add_option("--copies", o->copies, "plan for this many copies of the matrix along the diagonal (as suite's "
                                        "replicated set)")
      ->check(CLI::Range(1, 1 << 20));
  c->add_option("--precision", o->precision, "value type: f64 (default) or f32")->check(CLI::IsMember({"f32", "f64"}));
  c->add_option("--backend", o->backend, "cuda (default: the selector chooses among cuda and cusparse), cpu, "
                                          "reference or cusparse")
      ->check(CLI::IsMember({"cpu", "reference", "cuda", "cusparse"}));
  c->add_option("--kernel", o->kernel, "take this kernel instead of choosing (see 'spmv kernels')");
  add_expected_products_option(*c, o->expected_products);
  c->add_option("--k", o->k, "plan for the SpMM C = A*B with this many columns of B (default 1: the SpMV)")
      ->check(CLI::Range(1, 1 << 20));
  c->add_option("--layout", o->layout, "with --k: the layout of B and C, row (default) or col")
      ->check(CLI::IsMember({"row", "col"}));
  c->add_flag("--measure", o->measure,
              "build and time the model's best candidates and the best cuSPARSE one on this GPU (with --k: "
              "every SpMM kernel), keep the fastest for setup + expected products, and remember it in the plan "
              "cache");
  c->add_flag("--deterministic", o->deterministic,
              "consider only kernels with bitwise identical results run to run (see 'spmv kernels'); a "
              "--kernel without it is refused");
  c->add_flag("--explicit-transpose", o->explicit_transpose,
              "plan for apply_transposed too: A^T stored on the device (with the cuda backend and no --kernel: "
              "its own kernel, chosen from A^T's structure, printed below A's plan)");
  c->add_option("--measured-candidates", o->measured_candidates,
                "how many of the model's best candidates --measure times (default 3, plus cuSPARSE's best)")
      ->check(CLI::Range(1, 100));
  c->add_option("--plan-cache", o->plan_cache,
                "the plan cache file of --measure (default: $SPMV_PLAN_CACHE, else "
                "$XDG_CACHE_HOME/spmv/plans.jsonl, else ~/.cache/spmv/plans.jsonl)");
  c->add_option("--model", o->selector_model,
                "rank the candidates with this selector model file (scripts/train-selector.sh writes them; with "
                "--k an SpMM model) instead of the built-in one (default: $SPMV_SELECTOR_MODEL, with --k "
                "$SPMV_SPMM_SELECTOR_MODEL)");
  c->add_flag("--json", o->json, "print the plan as JSON (make_operator can take it back)");
  CLI::Option* l2 = c->add_option("--device-l2", o->device_l2_bytes,
                                  "plan for a described device instead of this machine's: its L2 bytes (with "
                                  "--device-sms and --device-bandwidth)")
                        ->transform(CLI::AsSizeValue(false));
  c->add_option("--device-sms", o->device_multiprocessors, "the described device's multiprocessors")
      ->check(CLI::Range(1, 1 << 16))
      ->needs(l2);
  c->add_option("--device-bandwidth", o->device_bandwidth_gbs, "the described device's copy bandwidth, GB/s")
      ->check(CLI::Range(1.0, 1e6))
      ->needs(l2);
  c->add_option("--device-name", o->device_name, "the described device's name")->needs(l2);
  l2->needs("--device-sms")->needs("--device-bandwidth");
  return {c, [o] { return run_plan_command(*o); }};
}

}  // namespace spmv::cli
