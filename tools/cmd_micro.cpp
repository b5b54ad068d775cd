// `spmv micro --out FILE.json`: El Zein's micro-benchmarks on today's GPU.
//   reads      chapter 4.1: coalesced and sequential reads with 4/8/16-byte
//              loads, 32..1024 threads per block, workloads of 20, 100 and
//              1000 floats per thread, plain and read-only-cache loads, over a
//              buffer of 8x the L2;
//   rows       figure 4.2: rows of 1..1024 floats read by a warp per row
//              (coalesced) or a thread per row (sequential);
//   copies     chapter 3.2: host-device copies, pageable and page-locked;
//   crossover  chapter 3: cuBLAS gemv (the dense-cublas kernel) against every
//              sparse kernel and cuSPARSE on n x n matrices of rising density
//              (Constant Row: the same number of random columns in each row),
//              through measure_kernel, so every product is verified.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>

#include "bench_kernels.hpp"
#include "bench_report.hpp"
#include "bench_runner.hpp"
#include "cli_common.hpp"
#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#ifdef SPMV_HAVE_CUDA
#include "cuda/micro_bench.hpp"
#endif

namespace spmv::cli {
namespace {

struct MicroOptions {
  std::string out_path;
  std::string parts = "reads,rows,copies,crossover";
  std::string precisions = "f64,f32";
  int runs = 10;
  index_t crossover_size = 8192;
};

#ifdef SPMV_HAVE_CUDA
using namespace detail::micro;

bool wants(const std::string& parts, const std::string& part) {
  const std::vector<std::string> items = split_commas(parts);
  return std::find(items.begin(), items.end(), part) != items.end();
}

nlohmann::ordered_json with_timing(nlohmann::ordered_json fields, const Timing& t) {
  fields["bytes"] = t.bytes;
  fields["median_ms"] = t.median_ms;
  fields["gbs"] = t.gbs();
  return fields;
}

nlohmann::ordered_json measure_reads(ReadBench& bench, int runs) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (ReadPattern pattern : {ReadPattern::coalesced, ReadPattern::sequential})
    for (int floats_per_thread : {20, 100, 1000})
      for (int threads_per_block : {32, 64, 128, 256, 512, 1024})
        for (int load_bytes : {4, 8, 16})
          for (LoadPath path : {LoadPath::plain, LoadPath::read_only}) {
            const ReadConfig c{pattern, load_bytes, threads_per_block, floats_per_thread, path};
            const Timing t = bench.read(c, runs);
            rows.push_back(
                with_timing(nlohmann::ordered_json{{"pattern", to_string(pattern)},
                                                   {"floats_per_thread", floats_per_thread},
                                                   {"threads_per_block", threads_per_block},
                                                   {"load_bytes", load_bytes},
                                                   {"path", to_string(path)},
                                                   {"blocks", t.blocks}},
                            t));
          }
  return rows;
}

nlohmann::ordered_json measure_row_reads(ReadBench& bench, int runs) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (int row_floats = 1; row_floats <= 1024; row_floats *= 2)
    for (ReadPattern pattern : {ReadPattern::coalesced, ReadPattern::sequential})
      rows.push_back(with_timing(
          nlohmann::ordered_json{{"pattern", to_string(pattern)}, {"row_floats", row_floats}},
          bench.read_rows(pattern, row_floats, runs)));
  return rows;
}

nlohmann::ordered_json measure_copies(int runs) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (std::size_t bytes :
       {std::size_t{4} << 10, std::size_t{1} << 20, std::size_t{64} << 20, std::size_t{256} << 20})
    for (CopyDirection direction : {CopyDirection::host_to_device, CopyDirection::device_to_host})
      for (bool page_locked : {false, true})
        rows.push_back(with_timing(nlohmann::ordered_json{{"direction", to_string(direction)},
                                                          {"page_locked", page_locked}},
                                   host_copy(direction, page_locked, bytes, runs)));
  return rows;
}

// Densities of the crossover, as in the thesis's sweep from very sparse to dense.
constexpr double crossover_densities[] = {0.001, 0.002, 0.005, 0.01, 0.02,
                                          0.05,  0.1,   0.2,   0.5,  1.0};

template <class T>
void measure_crossover_precision(const MicroOptions& o, const std::string& precision,
                                 const std::vector<KernelRun>& runs, BenchReport& report,
                                 nlohmann::ordered_json& rows) {
  for (double density : crossover_densities) {
    const index_t per_row =
        std::max<index_t>(1, static_cast<index_t>(std::lround(density * o.crossover_size)));
    const Csr<T> a =
        cast<T>(gen_constant_row(o.crossover_size, o.crossover_size, per_row, /*seed=*/1));
    report.rows = report.cols = o.crossover_size;
    report.nnz = a.nnz();
    report.results.clear();
    const BenchProblem<T> problem = make_bench_problem(a, report.settings);
    fmt::print(stderr, "micro: crossover {} density {:g} ({} per row)\n", precision, density,
               per_row);
    for (const auto& [backend, kernel] : runs) {
      report.results.push_back(measure_kernel(problem, backend, kernel));
      nlohmann::ordered_json row = {
          {"precision", precision}, {"density", density}, {"per_row", per_row}, {"nnz", a.nnz()}};
      const nlohmann::ordered_json measurement = measurement_json(report, report.results.back());
      for (const auto& [name, value] : measurement.items())
        if (name != "times_ms") row[name] = value;
      rows.push_back(row);
    }
  }
}

// The contenders: every cuSPARSE algorithm, cuBLAS gemv, the backend's own
// choice and every CSR SpMV kernel (the other formats would add minutes of
// building on matrices of up to n^2 entries). SpMM kernels are left out: an
// operator planned for one runs the default SpMV kernel in apply(), so its
// row would time that kernel under the SpMM kernel's name.
std::vector<KernelRun> crossover_runs() {
  std::vector<std::string> kernels{auto_kernel};
  for (const KernelInfo& kernel : kernel_catalogue())
    if (kernel.backend == Backend::cuda && !kernel.spmm_only &&
        (kernel.format == "csr" || kernel.name == "dense-cublas"))
      kernels.push_back(kernel.name);
  return runs_with_baseline(Backend::cuda, kernels);
}

nlohmann::ordered_json measure_crossover(const MicroOptions& o, BenchReport& report) {
  const std::vector<KernelRun> runs = crossover_runs();
  report.settings.runs = o.runs;
  report.settings.warmup = 2;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const std::string& precision : split_commas(o.precisions)) {
    report.precision = precision;
    if (precision == "f32")
      measure_crossover_precision<float>(o, precision, runs, report, rows);
    else
      measure_crossover_precision<double>(o, precision, runs, report, rows);
  }
  const bool dense_present = std::any_of(
      runs.begin(), runs.end(), [](const KernelRun& run) { return run.second == "dense-cublas"; });
  return {{"size", o.crossover_size},
          {"dense_kernel", dense_present ? nlohmann::ordered_json("dense-cublas") : nullptr},
          {"rows", rows}};
}
#endif

int run_micro(const MicroOptions& o) {
  for (const std::string& part : split_commas(o.parts))
    if (part != "reads" && part != "rows" && part != "copies" && part != "crossover")
      throw InvalidArgument("micro: unknown part '" + part +
                            "' (parts: reads, rows, copies, crossover)");
  for (const std::string& precision : split_commas(o.precisions))
    if (precision != "f32" && precision != "f64")
      throw InvalidArgument("micro: unknown precision '" + precision + "' (f32, f64)");
  if (!cuda_available())
    throw Unavailable(std::string("micro: the micro-benchmarks need a GPU: CUDA backends ") +
                      cuda_status());
#ifdef SPMV_HAVE_CUDA
  BenchReport report;
  report.backend = Backend::cuda;
  describe_cuda_device(report);
  const std::size_t buffer_bytes =
      std::max<std::size_t>(std::min(8 * report.device->l2_bytes, report.device->memory_bytes / 4),
                            std::size_t{256} << 20);
  nlohmann::ordered_json document = {{"time", utc_timestamp()},
                                     {"device", device_json(report.device)},
                                     {"copy_bandwidth_gbs", *report.copy_bandwidth_gbs},
                                     {"runs", o.runs},
                                     {"buffer_bytes", buffer_bytes}};
  if (wants(o.parts, "reads") || wants(o.parts, "rows")) {
    ReadBench bench(buffer_bytes);
    if (wants(o.parts, "reads")) {
      fmt::print(stderr, "micro: reads (216 configurations over {} MiB)\n", buffer_bytes >> 20);
      document["reads"] = measure_reads(bench, o.runs);
    }
    if (wants(o.parts, "rows")) {
      fmt::print(stderr, "micro: rows of 1 to 1024 floats\n");
      document["row_reads"] = measure_row_reads(bench, o.runs);
    }
  }
  if (wants(o.parts, "copies")) {
    fmt::print(stderr, "micro: host-device copies\n");
    document["copies"] = measure_copies(o.runs);
  }
  if (wants(o.parts, "crossover")) document["crossover"] = measure_crossover(o, report);
  write_text_file(o.out_path, document.dump(1) + "\n");
  fmt::print("micro: wrote {}\n", o.out_path);
  return exit_success;
#else
  return exit_bad_input;  // not reached: cuda_available() is false without CUDA
#endif
}

}  // namespace

Command add_micro_command(CLI::App& app) {
  auto o = std::make_shared<MicroOptions>();
  CLI::App* c = app.add_subcommand(
      "micro",
      "the thesis's GPU micro-benchmarks: read bandwidth by access pattern, load width, threads "
      "per block and cache path; rows read by warps or threads; host-device copies; the "
      "dense (cuBLAS) versus sparse crossover");
  c->add_option("--out", o->out_path, "JSON file to write")->required();
  c->add_option("--parts", o->parts,
                "comma-separated parts: reads, rows, copies, crossover (default: all)");
  c->add_option("--precision", o->precisions, "crossover value types (default f64,f32)");
  c->add_option("--runs", o->runs, "timed runs of each measurement (default 10)")
      ->check(CLI::Range(1, 100000));
  c->add_option("--crossover-size", o->crossover_size,
                "rows and columns of the crossover matrices (default 8192)")
      ->check(CLI::Range(1, 1 << 16));
  return {c, [o] { return run_micro(*o); }};
}

}  // namespace spmv::cli
