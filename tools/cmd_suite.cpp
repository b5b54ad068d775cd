// `spmv suite [DIR|LIST] [--families FILE] --out RESULTS`: `spmv bench` over
// a whole collection in one process. Three sets, in the order --sets gives:
//   real        the collection's matrices as they are (most fit in the GPU's
//               L2: their rows say so, "in_cache");
//   replicated  each of them as I_copies (x) A, copies chosen so that the
//               product's data is --replicate-to times the cache or more:
//               their structure measured at memory-bandwidth scale;
//   family      the generated matrices of the families file.
// Every (matrix, precision, k) is one unit: its reference product is
// computed once, then every kernel is planned, verified and timed by
// measure_kernel (the cuSPARSE algorithms first, then the backend's default
// choice as "auto", then the kernels), and each measurement is appended to
// RESULTS/results.jsonl as one line. Units already measured are skipped (see
// suite_results.hpp); RESULTS/suite.json describes the last run.
#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "bench_kernels.hpp"
#include "bench_report.hpp"
#include "bench_runner.hpp"
#include "cli_common.hpp"
#include "select/model.hpp"
#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "suite_collection.hpp"
#include "suite_progress.hpp"
#include "suite_results.hpp"

namespace spmv::cli {
namespace {

struct SuiteOptions {
  std::string collection;
  std::string families_path;
  std::string sets;  // empty: real,replicated with a collection, family with --families
  std::string backend = "auto";
  std::string kernels = "all";
  std::string precisions = "f64,f32";
  std::string ks = "1";
  std::string layouts = "row";  // of B and C, for the units of k > 1
  std::string out_dir;
  double replicate_to = 4;
  std::int64_t cache_bytes = 0;
  int runs = 30;
  int warmup = 3;
  int host_operand_runs = 5;
  double expected_products = default_expected_products;
  bool no_flush = false;
  double time_limit_seconds = 0;
};

// The model auto's plans rank with for the product: the file the
// environment names (read here, so that a bad one stops the suite before it
// measures), else the built-in one.
std::string model_name(detail::ModelProduct product) {
  const std::string file = detail::selector_model_file(PlanOptions{}, product);
  if (file.empty()) return detail::builtin_model_name;
  detail::model_from_file(file, product);
  return file;
}

SuiteSet set_from_string(const std::string& name) {
  for (SuiteSet set : {SuiteSet::real, SuiteSet::replicated, SuiteSet::family})
    if (name == to_string(set)) return set;
  throw InvalidArgument("suite: unknown set '" + name + "' (sets: real, replicated, family)");
}

// A matrix of one set, with the units (precision, k) still to measure.
struct MatrixPlan {
  SuiteSet set;
  SuiteMatrix matrix;
  std::vector<std::size_t> units;  // indices into SuitePlan::units
};

struct UnitPlan {
  UnitKey key;
  std::size_t matrix;  // index into SuitePlan::matrices
};

struct SuitePlan {
  std::vector<MatrixPlan> matrices;  // only those with units left
  std::vector<UnitPlan> units;
  std::size_t already_measured = 0;
};

// Row-length figures the report plots against.
struct RowLengths {
  double mean = 0;
  double std = 0;
  index_t max = 0;
};

template <class T>
RowLengths row_lengths(const Csr<T>& a) {
  RowLengths r;
  if (a.rows == 0) return r;
  r.mean = static_cast<double>(a.nnz()) / a.rows;
  double squares = 0;
  for (index_t i = 0; i < a.rows; ++i) {
    const index_t length = a.row_length(i);
    r.max = std::max(r.max, length);
    squares += (length - r.mean) * (length - r.mean);
  }
  r.std = std::sqrt(squares / a.rows);
  return r;
}

class SuiteRun {
 public:
  explicit SuiteRun(const SuiteOptions& o)
      : options_(o), backend_(chosen_backend(o.backend, "suite")), results_(o.out_dir) {
    for (const std::string& k : split_commas(o.ks)) {
      const index_t columns = std::stoi(k);
      runs_[columns] = runs_with_baseline(
          backend_, with_auto(chosen_kernels(o.kernels, backend_, "suite", {auto_kernel}, columns)),
          columns);
    }
    template_.backend = backend_;
    template_.host_threads = omp_get_max_threads();
    template_.settings.warmup = o.warmup;
    template_.settings.runs = o.runs;
    template_.settings.host_operand_runs = o.host_operand_runs;
    template_.settings.flush_caches = !o.no_flush;
    template_.settings.expected_products = o.expected_products;
    if (backend_ == Backend::cuda || backend_ == Backend::cusparse) describe_cuda_device(template_);
    cache_bytes_ = o.cache_bytes > 0  ? static_cast<std::size_t>(o.cache_bytes)
                   : template_.device ? template_.device->l2_bytes
                                      : 0;
    const std::string device = template_.device ? template_.device->name : "";
    const std::optional<std::string> earlier = results_.device_name();
    if (earlier && *earlier != device)
      throw InvalidArgument("suite: " + results_.path() + " holds results measured on '" +
                            (earlier->empty() ? "the host" : *earlier) + "', this run is on '" +
                            (device.empty() ? "the host" : device) +
                            "': give another --out directory");
  }

  int run() {
    const SuitePlan plan = make_plan();
    std::vector<double> costs;
    for (const UnitPlan& unit : plan.units) costs.push_back(estimated_cost(plan, unit));
    SuiteProgress progress(costs);
    progress_ = &progress;
    write_summary(plan, "running", 0);
    fmt::print(stderr, "suite: {} units to measure ({} already in {}), {} kernels each\n",
               plan.units.size(), plan.already_measured, results_.path(),
               runs_.begin()->second.size());

    std::size_t measured_units = 0;
    std::string status = "complete";
    // Matrices are loaded or generated one at a time, never beside a
    // measurement: a busy host would delay launches between timing events.
    for (const MatrixPlan& matrix : plan.matrices) {
      if (stop_for_time_limit(progress, matrix.units)) {
        status = "stopped by the time limit";
        break;
      }
      progress.update(matrix.units.front(), matrix.matrix.name + ": loading", 0, 1);
      const Csr<double> base = load(matrix.matrix);
      for (std::size_t u : matrix.units) {
        const UnitKey& key = plan.units[u].key;
        if (key.precision == "f32")
          measure_unit<float>(matrix, key, u, base);
        else
          measure_unit<double>(matrix, key, u, base);
        ++measured_units;
      }
    }
    progress.close();
    write_summary(plan, status, measured_units);
    fmt::print(stderr, "suite: {} of {} units measured in {} ({}); results in {}\n", measured_units,
               plan.units.size(), duration_text(progress.elapsed_seconds()), status,
               results_.path());
    return failures_ ? exit_failed_run : exit_success;
  }

 private:
  static std::vector<std::string> with_auto(std::vector<std::string> kernels) {
    // The backend's own choice right after the baseline: the "ideal vs chosen" comparison.
    if (std::find(kernels.begin(), kernels.end(), auto_kernel) == kernels.end())
      kernels.insert(kernels.begin(), auto_kernel);
    return kernels;
  }

  static Csr<double> load(const SuiteMatrix& matrix) {
    if (matrix.generated) return generate(parse_generator_spec(matrix.source));
    return read_matrix<double>(matrix.source, file_format_from_path(matrix.source));
  }

  std::vector<SuiteMatrix> matrices_of(SuiteSet set) const {
    if (set == SuiteSet::family) {
      if (options_.families_path.empty())
        throw InvalidArgument("suite: the family set needs --families FILE");
      return family_matrices(options_.families_path);
    }
    if (options_.collection.empty())
      throw InvalidArgument(std::string("suite: the ") + to_string(set) +
                            " set needs a collection (DIR or LIST)");
    if (set == SuiteSet::replicated && cache_bytes_ == 0)
      throw InvalidArgument(
          "suite: the replicated set is sized from the cache: give --cache-bytes on a host "
          "backend (there is no GPU L2 to size it from)");
    return collection_matrices(options_.collection);
  }

  SuitePlan make_plan() {
    SuitePlan plan;
    std::set<UnitKey> cut_short;
    for (const std::string& set_name : split_commas(options_.sets)) {
      const SuiteSet set = set_from_string(set_name);
      for (const SuiteMatrix& matrix : matrices_of(set)) {
        MatrixPlan matrix_plan{set, matrix, {}};
        for (const std::string& precision : split_commas(options_.precisions))
          for (const UnitKey& key : unit_keys(to_string(set), matrix.name, precision)) {
            std::set<std::string> wanted;
            for (const auto& [backend, kernel] : runs_.at(key.k))
              wanted.insert(run_name(to_string(backend), kernel));
            const std::set<std::string> measured = results_.measured(key);
            if (std::includes(measured.begin(), measured.end(), wanted.begin(), wanted.end())) {
              ++plan.already_measured;
              continue;
            }
            if (!measured.empty()) cut_short.insert(key);
            matrix_plan.units.push_back(plan.units.size());
            plan.units.push_back({key, plan.matrices.size()});
          }
        if (!matrix_plan.units.empty()) plan.matrices.push_back(matrix_plan);
      }
    }
    if (!cut_short.empty())
      fmt::print(stderr, "suite: measuring {} units again whose runs were cut short\n",
                 cut_short.size());
    results_.remove_units(cut_short);
    return plan;
  }

  // The units of one matrix in one precision: each k, and each layout for k > 1.
  std::vector<UnitKey> unit_keys(const std::string& set, const std::string& matrix,
                                 const std::string& precision) const {
    std::vector<UnitKey> keys;
    for (const std::string& k : split_commas(options_.ks)) {
      const index_t columns = std::stoi(k);
      if (columns == 1) {
        keys.push_back({set, matrix, precision, columns});
        continue;
      }
      for (const std::string& layout : split_commas(options_.layouts))
        keys.push_back({set, matrix, precision, columns, layout_from_string(layout.c_str())});
    }
    return keys;
  }

  // Relative cost of a unit: per kernel, a fixed part (planning, launching)
  // worth 16 MiB of data, plus the data. Families are known once generated.
  double estimated_cost(const SuitePlan& plan, const UnitPlan& unit) const {
    const MatrixPlan& matrix = plan.matrices[unit.matrix];
    double bytes = 0;
    if (matrix.set == SuiteSet::replicated)
      bytes = options_.replicate_to * static_cast<double>(cache_bytes_);
    else if (!matrix.matrix.generated)
      bytes = 2.0 * static_cast<double>(std::filesystem::file_size(matrix.matrix.source));
    return bytes > 0 ? runs_.at(unit.key.k).size() * (16.0 * (1 << 20) + bytes) : 0.0;
  }

  bool stop_for_time_limit(const SuiteProgress& progress,
                           const std::vector<std::size_t>& next_units) const {
    if (options_.time_limit_seconds <= 0) return false;
    double seconds = progress.elapsed_seconds();
    for (std::size_t unit : next_units) seconds += progress.estimated_seconds(unit);
    return seconds > options_.time_limit_seconds;
  }

  template <class T>
  void measure_unit(const MatrixPlan& matrix, const UnitKey& key, std::size_t unit,
                    const Csr<double>& base) {
    Csr<T> a = cast<T>(base);
    index_t copies = 1;
    if (matrix.set == SuiteSet::replicated) {
      const auto target = static_cast<std::size_t>(options_.replicate_to * cache_bytes_);
      copies = copies_to_reach(a.rows, a.cols, a.nnz(), sizeof(T), target);
      a = replicate_block_diagonal(a, copies);
    }
    const std::size_t product_bytes = csr_product_bytes(a.rows, a.cols, a.nnz(), sizeof(T));
    const std::vector<KernelRun>& runs = runs_.at(key.k);
    progress_->set_cost(unit, runs.size() * (16.0 * (1 << 20) + product_bytes));

    BenchReport report = template_;
    report.matrix_source = matrix.matrix.source;
    report.precision = key.precision;
    report.rows = a.rows;
    report.cols = a.cols;
    report.nnz = a.nnz();
    report.settings.k = key.k;
    report.settings.operation = key.k > 1 ? BenchOperation::spmm : BenchOperation::spmv;
    report.settings.layout = key.layout;
    const RowLengths lengths = row_lengths(a);
    const nlohmann::ordered_json matrix_json = {
        {"name", matrix.matrix.name},
        {"source", matrix.matrix.source},
        {"copies", copies},
        {"rows", a.rows},
        {"cols", a.cols},
        {"nnz", a.nnz()},
        {"mean_row_length", lengths.mean},
        {"row_length_std", lengths.std},
        {"max_row_length", lengths.max},
        {"product_bytes", product_bytes},
        {"cache_bytes", cache_bytes_},
        {"in_cache",
         cache_bytes_ ? nlohmann::ordered_json(product_bytes <= cache_bytes_) : nullptr}};

    const std::string label = fmt::format("{} {} {}{}", key.set, key.matrix, key.precision,
                                          key.k > 1 ? fmt::format(" k={} {}", key.k, to_string(key.layout)) : "");
    progress_->update(unit, label + ": reference", 0, static_cast<int>(runs.size()));
    const BenchProblem<T> problem = make_bench_problem(a, report.settings);
    for (std::size_t r = 0; r < runs.size(); ++r) {
      const auto& [backend, kernel] = runs[r];
      progress_->update(unit, label + ": " + kernel, static_cast<int>(r),
                        static_cast<int>(runs.size()));
      report.results.push_back(measure_kernel(problem, backend, kernel));
      const KernelMeasurement& row = report.results.back();
      results_.append(result_line(report, row, key, matrix_json));
      if (row.status == "FAILED") {
        ++failures_;
        progress_->close();
        fmt::print(stderr, "suite: FAILED {} {}: {}\n", label, kernel, row.message);
      }
    }
    progress_->finish_unit(unit, label);
  }

  nlohmann::ordered_json result_line(const BenchReport& report, const KernelMeasurement& row,
                                     const UnitKey& key,
                                     const nlohmann::ordered_json& matrix_json) const {
    nlohmann::ordered_json line = {{"time", utc_timestamp()},
                                   {"set", key.set},
                                   {"matrix", matrix_json},
                                   {"precision", key.precision}};
    const nlohmann::ordered_json settings = settings_json(report.settings);
    for (const auto& [name, value] : settings.items()) line[name] = value;
    const nlohmann::ordered_json measurement = measurement_json(report, row);
    for (const auto& [name, value] : measurement.items()) line[name] = value;
    line["device"] = device_json(report.device);
    line["copy_bandwidth_gbs"] =
        report.copy_bandwidth_gbs ? nlohmann::ordered_json(*report.copy_bandwidth_gbs) : nullptr;
    line["host_threads"] = report.host_threads;
    return line;
  }

  void write_summary(const SuitePlan& plan, const std::string& status,
                     std::size_t measured_units) const {
    // Units are measured in plan order, so the first `measured_units` are done.
    nlohmann::ordered_json units = nlohmann::ordered_json::array();
    for (std::size_t u = 0; u < plan.units.size(); ++u) {
      const UnitKey& key = plan.units[u].key;
      units.push_back({{"set", key.set},
                       {"matrix", key.matrix},
                       {"precision", key.precision},
                       {"k", key.k},
                       {"layout", to_string(key.layout)},
                       {"measured", u < measured_units}});
    }
    nlohmann::ordered_json kernels = nlohmann::ordered_json::object();
    for (const auto& [k, runs] : runs_)
      for (const auto& [backend, kernel] : runs)
        kernels[std::to_string(k)].push_back(run_name(to_string(backend), kernel));
    const nlohmann::ordered_json summary = {
        {"time", utc_timestamp()},
        {"status", status},
        {"sets", split_commas(options_.sets)},
        {"precisions", split_commas(options_.precisions)},
        {"layouts", split_commas(options_.layouts)},
        {"kernels", kernels},
        {"replicate_to", options_.replicate_to},
        {"cache_bytes", cache_bytes_},
        {"runs", options_.runs},
        {"warmup", options_.warmup},
        {"host_operand_runs", options_.host_operand_runs},
        {"flush_caches", !options_.no_flush},
        {"time_limit_seconds", options_.time_limit_seconds},
        {"units_already_measured", plan.already_measured},
        {"units", units},
        {"device", device_json(template_.device)},
        // auto's models: $SPMV_SELECTOR_MODEL's and $SPMV_SPMM_SELECTOR_MODEL's files, else the built-in ones
        {"selector_model", model_name(detail::ModelProduct::spmv)},
        {"spmm_selector_model", model_name(detail::ModelProduct::spmm)},
        {"copy_bandwidth_gbs", template_.copy_bandwidth_gbs
                                   ? nlohmann::ordered_json(*template_.copy_bandwidth_gbs)
                                   : nullptr}};
    write_text_file(options_.out_dir + "/suite.json", summary.dump(2) + "\n");
  }

  const SuiteOptions& options_;
  Backend backend_;
  std::map<index_t, std::vector<KernelRun>> runs_;  // per k
  ResultsFile results_;
  BenchReport template_;  // device, settings and copy bandwidth shared by every unit
  std::size_t cache_bytes_ = 0;
  SuiteProgress* progress_ = nullptr;
  int failures_ = 0;
};

int run_suite(const SuiteOptions& o) {
  if (o.collection.empty() && o.families_path.empty())
    throw InvalidArgument("suite: give a collection (DIR or LIST), --families FILE, or both");
  for (const std::string& precision : split_commas(o.precisions))
    if (precision != "f32" && precision != "f64")
      throw InvalidArgument("suite: unknown precision '" + precision + "' (f32, f64)");
  for (const std::string& k : split_commas(o.ks))
    if (k.find_first_not_of("0123456789") != std::string::npos || std::stoll(k) < 1 ||
        std::stoll(k) > (1 << 20))
      throw InvalidArgument("suite: --k takes whole numbers from 1 to 1048576, got '" + k + "'");
  for (const std::string& layout : split_commas(o.layouts)) layout_from_string(layout.c_str());
  for (const auto product : {detail::ModelProduct::spmv, detail::ModelProduct::spmm}) model_name(product);
  SuiteOptions options = o;
  if (options.sets.empty())
    options.sets = std::string(o.collection.empty() ? "" : "real,replicated,") +
                   (o.families_path.empty() ? "" : "family");
  return SuiteRun(options).run();
}

}  // namespace

Command add_suite_command(CLI::App& app) {
  auto o = std::make_shared<SuiteOptions>();
  CLI::App* c = app.add_subcommand(
      "suite",
      "benchmark every kernel on a collection of matrices, as they are and replicated "
      "block-diagonally, and on generated families; one JSON line per (matrix, kernel) in "
      "RESULTS/results.jsonl; a rerun skips what was measured");
  c->add_option("collection", o->collection,
                "folder of matrix files, or a text file listing one matrix file per line");
  c->add_option("--families", o->families_path,
                "text file of generated families, 'NAME SPEC' per line (e.g. bench/families.txt)");
  c->add_option("--out", o->out_dir, "results folder (created; results.jsonl and suite.json)")
      ->required();
  c->add_option("--sets", o->sets,
                "comma-separated sets, in the order they run: real, replicated, family "
                "(default: real,replicated with a collection, family with --families)");
  c->add_option("--backend", o->backend,
                "auto (cuda when a GPU is usable, else cpu), cpu, reference, cuda or cusparse; "
                "cuda also times every cuSPARSE algorithm as the baseline")
      ->check(CLI::IsMember({"auto", "cpu", "reference", "cuda", "cusparse"}));
  c->add_option("--kernels", o->kernels,
                "comma-separated kernels of the backend, or all; 'auto' (the backend's own "
                "choice) is always measured");
  c->add_option("--precision", o->precisions, "comma-separated value types (default f64,f32)");
  c->add_option("--k", o->ks, "comma-separated columns of B: 1 is SpMV, more is SpMM (default 1)");
  c->add_option("--layouts", o->layouts,
                "comma-separated layouts of B and C for the SpMM units: row, col (default row)");
  c->add_option("--replicate-to", o->replicate_to,
                "replicated set: copies until the product's data is this many times the cache "
                "(default 4)")
      ->check(CLI::Range(1.0, 1000.0));
  c->add_option("--cache-bytes", o->cache_bytes,
                "the cache that sizes the replicated set and flags in-cache matrices (default: "
                "the GPU's L2)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  c->add_option("--runs", o->runs, "timed runs per kernel; the median is reported (default 30)")
      ->check(CLI::Range(1, 1000000));
  c->add_option("--warmup", o->warmup, "untimed runs first (default 3)")
      ->check(CLI::Range(0, 1000000));
  c->add_option("--host-runs", o->host_operand_runs,
                "timed runs of the product on host operands (convert, copy in, multiply, copy "
                "out); 0 skips it (default 5)")
      ->check(CLI::Range(0, 1000000));
  add_expected_products_option(*c, o->expected_products);
  c->add_flag("--no-flush", o->no_flush, "do not flush the caches before each timed run");
  c->add_option("--time-limit", o->time_limit_seconds,
                "seconds: start no unit that would end later (0: no limit); a rerun continues")
      ->check(CLI::Range(0.0, 1e9));
  return {c, [o] { return run_suite(*o); }};
}

}  // namespace spmv::cli
