// `spmv bench (FILE | --gen SPEC) [options]`: times the kernels of a backend
// on one matrix, each verified against the reference before it is timed.
// With the cuda backend, every cuSPARSE algorithm is timed too as the
// baseline, and the device's copy bandwidth is measured first.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>

#include "bench_report.hpp"
#include "bench_runner.hpp"
#include "cli_common.hpp"
#include "spmv/error.hpp"
#include "spmv/gen.hpp"

namespace spmv::cli {
namespace {

struct BenchOptions {
  std::string file;
  std::string format;
  std::string gen_spec;
  std::string backend = "auto";
  std::string kernels = "all";
  std::string precision = "f64";
  std::string layout = "row";
  std::string json_path;
  index_t k = 1;
  bool transposed = false;
  bool explicit_transpose = false;
  bool no_flush = false;
  int runs = 30;
  int warmup = 3;
  double alpha = 1;
  double beta = 0;
};

Backend chosen_backend(const std::string& name) {
  if (name == "auto") return cuda_available() ? Backend::cuda : Backend::cpu;
  const Backend backend = backend_from_string(name.c_str());
  if ((backend == Backend::cuda || backend == Backend::cusparse) && !cuda_available())
    throw Unavailable("bench: backend '" + name + "' cannot run here: CUDA backends " +
                      cuda_status() + "; use --backend cpu");
  return backend;
}

std::vector<std::string> kernels_of(Backend backend) {
  std::vector<std::string> names;
  for (const KernelInfo& kernel : kernel_catalogue())
    if (kernel.backend == backend) names.push_back(kernel.name);
  return names;
}

// "all" or a comma-separated list, each name checked against the backend's kernels.
std::vector<std::string> chosen_kernels(const std::string& list, Backend backend) {
  const std::vector<std::string> valid = kernels_of(backend);
  if (list == "all") return valid;
  std::vector<std::string> names;
  std::stringstream stream(list);
  for (std::string name; std::getline(stream, name, ',');) {
    if (std::find(valid.begin(), valid.end(), name) == valid.end()) {
      std::string known;
      for (const std::string& v : valid) known += (known.empty() ? "" : ", ") + v;
      throw InvalidArgument("bench: unknown kernel '" + name + "' for backend '" +
                            to_string(backend) + "' (valid: " + known + ")");
    }
    names.push_back(name);
  }
  return names;
}

BenchSettings settings_from(const BenchOptions& o) {
  if (o.transposed && o.k > 1)
    throw InvalidArgument("bench: --transposed takes no --k (SpMM is not transposed)");
  if (!std::isfinite(o.alpha) || !std::isfinite(o.beta))
    throw InvalidArgument("bench: --alpha and --beta must be finite numbers");
  BenchSettings s;
  s.operation = o.transposed ? BenchOperation::spmv_transposed
                : o.k > 1    ? BenchOperation::spmm
                             : BenchOperation::spmv;
  s.k = o.k;
  s.layout = o.layout == "col" ? Layout::col_major : Layout::row_major;
  s.alpha = o.alpha;
  s.beta = o.beta;
  s.warmup = o.warmup;
  s.runs = o.runs;
  s.flush_caches = !o.no_flush;
  s.explicit_transpose = o.explicit_transpose;
  return s;
}

#ifdef SPMV_HAVE_CUDA
// The device, its versions and its copy bandwidth over a buffer of 1 GiB (a
// quarter of the memory on smaller devices), and never less than 4x the L2.
void describe_device(BenchReport& report) {
  report.device = detail::cuda_device_info();
  const std::size_t gib = std::size_t{1} << 30;
  const std::size_t bytes =
      std::max(std::min(gib, report.device->memory_bytes / 4), 4 * report.device->l2_bytes);
  report.copy_bandwidth_gbs = detail::measure_copy_bandwidth_gbs(bytes);
}
#endif

using KernelRun = std::pair<Backend, std::string>;

template <class T>
void measure_all(BenchReport& report, const Csr<double>& matrix, const std::vector<KernelRun>& runs) {
  const Csr<T> a = cast<T>(matrix);
  const BenchProblem<T> problem = make_bench_problem(a, report.settings);
  for (const auto& [backend, kernel] : runs)
    report.results.push_back(measure_kernel(problem, backend, kernel));
}

int run_bench(const BenchOptions& o) {
  if (o.file.empty() == o.gen_spec.empty())
    throw InvalidArgument(
        "bench: give either a matrix FILE or --gen SPEC (see 'spmv bench --help')");
  BenchReport report;
  report.settings = settings_from(o);
  report.precision = o.precision;
  report.backend = chosen_backend(o.backend);
  report.host_threads = omp_get_max_threads();
  // All of cuSPARSE first as the baseline of a cuda run, then the chosen kernels.
  std::vector<KernelRun> runs;
  if (report.backend == Backend::cuda)
    for (const std::string& kernel : kernels_of(Backend::cusparse))
      runs.emplace_back(Backend::cusparse, kernel);
  for (const std::string& kernel : chosen_kernels(o.kernels, report.backend))
    runs.emplace_back(report.backend, kernel);

  Csr<double> a;
  if (o.gen_spec.empty()) {
    a = read_matrix<double>(o.file, input_format(o.file, o.format));
    report.matrix_source = o.file;
  } else {
    const GeneratorSpec spec = parse_generator_spec(o.gen_spec);
    a = generate(spec);
    report.matrix_source = to_string(spec);
  }
  report.rows = a.rows;
  report.cols = a.cols;
  report.nnz = a.nnz();

#ifdef SPMV_HAVE_CUDA
  if (report.backend == Backend::cuda || report.backend == Backend::cusparse)
    describe_device(report);
#endif
  if (o.precision == "f32")
    measure_all<float>(report, a, runs);
  else
    measure_all<double>(report, a, runs);

  print_bench_report(report);
  if (!o.json_path.empty()) write_text_file(o.json_path, bench_report_json(report).dump(2) + "\n");
  const bool failed =
      std::any_of(report.results.begin(), report.results.end(),
                  [](const KernelMeasurement& row) { return row.status == "FAILED"; });
  return failed ? exit_failed_run : exit_success;
}

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* c = app.add_subcommand(
      "bench",
      "time the kernels of a backend on a matrix file or a generated matrix; each result is "
      "verified against the reference before it is timed");
  c->add_option("file", o->file, "matrix file (.mtx, .mtx.gz, .libsvm, .svm, .spmv)");
  add_input_format_option(*c, o->format);
  c->add_option("--gen", o->gen_spec,
                "generate the matrix instead: KIND[:name=value,...] (see 'spmv gen --list')");
  c->add_option(
       "--backend", o->backend,
       "auto (cuda when a GPU is usable, else cpu), cpu, reference, cuda or cusparse; cuda also "
       "times every cuSPARSE algorithm as the baseline")
      ->check(CLI::IsMember({"auto", "cpu", "reference", "cuda", "cusparse"}));
  c->add_option("--kernels", o->kernels,
                "comma-separated kernel names of the backend, or all (see 'spmv kernels')");
  c->add_option("--precision", o->precision, "value type: f64 (default) or f32")
      ->check(CLI::IsMember({"f32", "f64"}));
  c->add_option("--k", o->k, "columns of B: more than 1 times SpMM C = alpha*A*B + beta*C")
      ->check(CLI::Range(1, 1 << 20));
  c->add_option("--layout", o->layout, "SpMM layout of B and C: row (default) or col")
      ->check(CLI::IsMember({"row", "col"}));
  c->add_flag("--transposed", o->transposed, "time y = alpha*A^T*x + beta*y");
  c->add_flag("--explicit-transpose", o->explicit_transpose,
              "with --transposed: build A^T at plan time");
  c->add_option("--alpha", o->alpha, "alpha (default 1)");
  c->add_option("--beta", o->beta, "beta (default 0: y is not read)");
  c->add_option("--runs", o->runs, "timed runs; the median is reported (default 30)")
      ->check(CLI::Range(1, 1000000));
  c->add_option("--warmup", o->warmup, "untimed runs first (default 3)")
      ->check(CLI::Range(0, 1000000));
  c->add_flag("--no-flush", o->no_flush, "do not flush the caches before each timed run");
  c->add_option("--json", o->json_path, "also write every figure to this JSON file");
  return {c, [o] { return run_bench(*o); }};
}

}  // namespace spmv::cli
