// `spmv bench (FILE | --gen SPEC) [options]`: times the kernels of a backend
// on one matrix, each verified against the reference before it is timed.
// With the cuda backend, every cuSPARSE algorithm is timed too as the
// baseline, and the device's copy bandwidth is measured first. With --k > 1
// the kernels are the SpMM kernels (when the backend has any) and the
// baseline cuSPARSE's SpMM algorithms; --out-of-core also times the chunked
// SpMM with B and C in host memory (bench_out_of_core.hpp). --with-cpu adds
// the cpu backend's kernels as further rows of a GPU run (the multicore-CPU
// comparison of Ortega et al.), timed and verified like the others.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "bench_distributed.hpp"
#include "bench_kernels.hpp"
#include "bench_out_of_core.hpp"
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
  std::string params;
  index_t k = 1;
  bool transposed = false;
  bool explicit_transpose = false;
  bool deterministic = false;
  std::string reorder = "none";
  bool no_flush = false;
  int runs = 30;
  int warmup = 3;
  double expected_products = default_expected_products;
  double alpha = 1;
  double beta = 0;
  bool with_cpu = false;
  bool out_of_core = false;
  OutOfCoreSettings out_of_core_settings;
  int parts = 0;  // 0: not distributed
  std::string partition;  // empty: nnz
  std::string exchange;   // empty: halo
  double link_gbs = 0;  // 0: no multi-GPU prediction
  int gpus = 0;         // 0: every part on one device
  bool no_overlap = false;
  bool no_graphs = false;
  bool push = false;
  bool nccl = false;
  int copies = 1;
};

// The chosen kernels for k columns (bench_kernels.hpp), refusing an SpMM
// kernel for an SpMV: its operator's apply() would time the default SpMV.
std::vector<std::string> kernels_to_time(const BenchOptions& o, Backend backend) {
  const std::vector<std::string> names = chosen_kernels(o.kernels, backend, "bench", {auto_kernel}, o.k);
  if (o.k == 1)
    for (const KernelInfo& kernel : kernel_catalogue())
      if (kernel.spmm_only && std::find(names.begin(), names.end(), kernel.name) != names.end())
        throw InvalidArgument("bench: '" + kernel.name + "' is an SpMM kernel: give --k 2 or more");
  return names;
}

// "name=value,name=value" as kernel parameters.
KernelParams parse_params(const std::string& text) {
  KernelParams params;
  for (const std::string& pair : split_commas(text)) {
    const std::size_t equals = pair.find('=');
    std::size_t used = 0;
    int value = 0;
    try {
      if (equals != std::string::npos) value = std::stoi(pair.substr(equals + 1), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (equals == 0 || equals == std::string::npos || used == 0 || equals + 1 + used != pair.size())
      throw InvalidArgument("bench: --params takes name=integer pairs separated by commas (got '" +
                            pair + "')");
    params[pair.substr(0, equals)] = value;
  }
  return params;
}

BenchSettings settings_from(const BenchOptions& o) {
  if (o.transposed && o.k > 1)
    throw InvalidArgument("bench: --transposed takes no --k (SpMM is not transposed)");
  if (!std::isfinite(o.alpha) || !std::isfinite(o.beta))
    throw InvalidArgument("bench: --alpha and --beta must be finite numbers");
  if (o.out_of_core && o.k < 2)
    throw InvalidArgument("bench: --out-of-core times SpMM: give --k 2 or more");
  BenchSettings s;
  s.operation = o.transposed ? BenchOperation::spmv_transposed
                : o.k > 1    ? BenchOperation::spmm
                             : BenchOperation::spmv;
  s.k = o.k;
  s.layout = layout_from_string(o.layout.c_str());
  s.alpha = o.alpha;
  s.beta = o.beta;
  s.warmup = o.warmup;
  s.runs = o.runs;
  s.flush_caches = !o.no_flush;
  s.explicit_transpose = o.explicit_transpose;
  s.deterministic = o.deterministic;
  s.expected_products = o.expected_products;
  s.reordering = reordering_from_string(o.reorder);
  return s;
}

// The in-core rows, then (with --out-of-core) the out-of-core runs of the
// chosen kernels on the same operands.
template <class T>
std::vector<OutOfCoreRun> measure_all(BenchReport& report, const Csr<double>& matrix,
                                      const std::vector<KernelRun>& runs, const BenchOptions& o) {
  const Csr<T> a = cast<T>(matrix);
  const BenchProblem<T> problem = make_bench_problem(a, report.settings);
  const KernelParams params = parse_params(o.params);
  std::vector<std::string> chosen;
  for (const auto& [backend, kernel] : runs) {
    const bool baseline = backend != report.backend;
    report.results.push_back(
        measure_kernel(problem, backend, kernel, baseline ? KernelParams{} : params));
    if (!baseline) chosen.push_back(kernel);
  }
  if (!o.out_of_core) return {};
  return measure_out_of_core(problem, chosen, params, o.out_of_core_settings);
}

int run_bench(const BenchOptions& o) {
  if (o.file.empty() == o.gen_spec.empty())
    throw InvalidArgument(
        "bench: give either a matrix FILE or --gen SPEC (see 'spmv bench --help')");
  BenchReport report;
  report.settings = settings_from(o);
  report.precision = o.precision;
  report.backend = chosen_backend(o.backend, "bench");
  report.host_threads = omp_get_max_threads();
  if (o.out_of_core && report.backend != Backend::cuda)
    throw InvalidArgument("bench: --out-of-core needs --backend cuda (or auto on a GPU machine)");
  if (o.with_cpu && report.backend == Backend::cpu)
    throw InvalidArgument("bench: --with-cpu adds the cpu backend to a run of another backend; "
                          "this run is already on the cpu backend");
  // cuSPARSE first as the baseline of a cuda run, then the chosen kernels,
  // then (--with-cpu) the cpu backend's kernels for this product.
  std::vector<KernelRun> runs =
      runs_with_baseline(report.backend, kernels_to_time(o, report.backend), o.k);
  if (o.with_cpu)
    for (const std::string& kernel : kernels_of(Backend::cpu, o.k)) runs.emplace_back(Backend::cpu, kernel);

  const bool distributed_run = o.parts > 0 || o.gpus > 0;
  if (distributed_run && (o.k > 1 || o.transposed || o.out_of_core || o.with_cpu || o.kernels != "all"))
    throw InvalidArgument("bench: --parts and --gpus time the distributed SpMV: they take no --k, --transposed, "
                          "--out-of-core, --with-cpu or --kernels (each part's plan chooses its kernel)");
  if (!distributed_run &&
      (!o.partition.empty() || !o.exchange.empty() || o.no_overlap || o.no_graphs || o.push || o.nccl || o.link_gbs > 0))
    throw InvalidArgument("bench: --partition, --exchange, --no-overlap, --no-graphs, --push, --nccl and --link-gbs go "
                          "with --parts or --gpus");
  if (o.gpus > 0 && report.backend != Backend::cuda && report.backend != Backend::cusparse)
    throw InvalidArgument("bench: --gpus needs --backend cuda or cusparse (or auto on a GPU machine)");
  Csr<double> a;
  if (o.gen_spec.empty()) {
    a = read_matrix<double>(o.file, input_format(o.file, o.format));
    report.matrix_source = o.file;
  } else {
    const GeneratorSpec spec = parse_generator_spec(o.gen_spec);
    a = generate(spec);
    report.matrix_source = to_string(spec);
  }
  if (o.copies > 1) {
    a = replicate_block_diagonal(a, o.copies);
    report.matrix_source += " x" + std::to_string(o.copies) + " copies";
  }
  report.rows = a.rows;
  report.cols = a.cols;
  report.nnz = a.nnz();

  if (report.backend == Backend::cuda || report.backend == Backend::cusparse)
    describe_cuda_device(report);
  if (distributed_run) {
    DistributedBenchSettings distributed;
    distributed.parts = o.parts > 0 ? o.parts : o.gpus;
    for (int device = 0; device < o.gpus; ++device) distributed.devices.push_back(device);
    distributed.overlap = !o.no_overlap;
    distributed.replay_graphs = !o.no_graphs;
    distributed.pull_from_peers = !o.push;
    distributed.nccl = o.nccl;
    distributed.method = partition_method_from_string(o.partition.empty() ? "nnz" : o.partition);
    distributed.exchange = exchange_from_string(o.exchange.empty() ? "halo" : o.exchange);
    if (o.link_gbs > 0) distributed.link_gbs = o.link_gbs;
    bool failed = false;
    const nlohmann::ordered_json json = run_distributed_bench(report, a, distributed, failed);
    if (!o.json_path.empty()) write_text_file(o.json_path, json.dump(2) + "\n");
    return failed ? exit_failed_run : exit_success;
  }
  const std::vector<OutOfCoreRun> out_of_core = o.precision == "f32"
                                                    ? measure_all<float>(report, a, runs, o)
                                                    : measure_all<double>(report, a, runs, o);

  print_bench_report(report);
  nlohmann::ordered_json json = bench_report_json(report);
  if (o.out_of_core) {
    print_out_of_core(out_of_core, o.out_of_core_settings);
    json["out_of_core"] = out_of_core_json(out_of_core, o.out_of_core_settings);
  }
  if (!o.json_path.empty()) write_text_file(o.json_path, json.dump(2) + "\n");
  const bool failed =
      std::any_of(report.results.begin(), report.results.end(),
                  [](const KernelMeasurement& row) { return row.status == "FAILED"; }) ||
      std::any_of(out_of_core.begin(), out_of_core.end(),
                  [](const OutOfCoreRun& run) { return run.status == "FAILED"; });
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
                "comma-separated kernel names of the backend, or all (see 'spmv kernels'); auto: the plan's own "
                "choice (make_plan with no kernel named; with --k, the plan for that SpMM)");
  c->add_option("--precision", o->precision, "value type: f64 (default) or f32")
      ->check(CLI::IsMember({"f32", "f64"}));
  c->add_option("--k", o->k, "columns of B: more than 1 times SpMM C = alpha*A*B + beta*C")
      ->check(CLI::Range(1, 1 << 20));
  c->add_option("--layout", o->layout, "SpMM layout of B and C: row (default) or col")
      ->check(CLI::IsMember({"row", "col"}));
  c->add_flag("--transposed", o->transposed, "time y = alpha*A^T*x + beta*y");
  c->add_flag("--explicit-transpose", o->explicit_transpose,
              "with --transposed: build A^T at plan time");
  c->add_flag("--deterministic", o->deterministic,
              "plan every kernel in deterministic mode (bitwise identical results run to run); kernels "
              "that do not offer it are skipped with the reason (see 'spmv kernels')");
  add_reorder_option(*c, o->reorder,
                     "plan every kernel (cuSPARSE too) on the reordered matrix; x and y stay in "
                     "the original order, the gather and scatter are timed with the product");
  c->add_option("--alpha", o->alpha, "alpha (default 1)");
  c->add_option("--beta", o->beta, "beta (default 0: y is not read)");
  add_expected_products_option(*c, o->expected_products);
  c->add_option("--runs", o->runs, "timed runs; the median is reported (default 30)")
      ->check(CLI::Range(1, 1000000));
  c->add_option("--warmup", o->warmup, "untimed runs first (default 3)")
      ->check(CLI::Range(0, 1000000));
  c->add_flag("--no-flush", o->no_flush, "do not flush the caches before each timed run");
  c->add_flag("--with-cpu", o->with_cpu,
              "also time the cpu backend's kernels (OpenMP) for the same product, e.g. beside "
              "cuda and cuSPARSE; their rows take no --params");
  c->add_option("--json", o->json_path, "also write every figure to this JSON file");
  c->add_option("--params", o->params,
                "parameters of the chosen kernels (not the cuSPARSE baseline): name=value,... "
                "(see 'spmv kernels')");
  CLI::Option* out_of_core =
      c->add_flag("--out-of-core", o->out_of_core,
                  "with --k: also time the chosen SpMM kernels out of core: B and C in host "
                  "memory, sent through the device in chunks of columns, sequentially and with "
                  "overlapped copies (Ortega et al. 2013, Algorithms 2 and 3)");
  c->add_option("--device-memory-cap", o->out_of_core_settings.device_memory_cap,
                "with --out-of-core: device bytes for A and the chunks (e.g. 2GiB; default: the "
                "free device memory)")
      ->transform(CLI::AsSizeValue(false))
      ->needs(out_of_core);
  c->add_option("--chunk-columns", o->out_of_core_settings.chunk_columns,
                "with --out-of-core: columns per chunk, L_GPU (default: the most the cap allows)")
      ->check(CLI::Range(1, 1 << 20))
      ->needs(out_of_core);
  c->add_option("--streams", o->out_of_core_settings.streams,
                "with --out-of-core: chunks in flight when overlapping (default 2)")
      ->check(CLI::Range(2, 64))
      ->needs(out_of_core);
  c->add_option("--copies", o->copies, "time this many copies of the matrix along the diagonal")
      ->check(CLI::Range(1, 1 << 20));
  c->add_option("--parts", o->parts,
                "time the distributed SpMV over this many parts (distributed.hpp), each with its own plan, all on "
                "one device (or the host) unless --gpus, beside one part and cuSPARSE on the whole matrix, with the "
                "exchange model")
      ->check(CLI::Range(1, 1 << 16));
  c->add_option("--gpus", o->gpus,
                "spread the distributed SpMV's parts over GPUs 0..N-1 (part p on GPU p mod N; --parts defaults to "
                "N); the efficiency is against one part on GPU 0")
      ->check(CLI::Range(1, 1 << 10));
  c->add_option("--partition", o->partition,
                "with --parts or --gpus: rows (PCSR-I, equal rows), nnz (PCSR-II, default) or graph (METIS: "
                "balanced non-zeros, fewest x entries exchanged; square matrices)")
      ->check(CLI::IsMember({"rows", "nnz", "graph"}));
  c->add_option("--exchange", o->exchange, "with --parts or --gpus: halo (default) or allgather")
      ->check(CLI::IsMember({"halo", "allgather"}));
  c->add_flag("--no-overlap", o->no_overlap,
              "with --parts or --gpus: every part's products wait for the exchange (no local product while the "
              "ghosts travel)");
  c->add_flag("--no-graphs", o->no_graphs,
              "with --parts or --gpus on a GPU: queue every step's kernels, copies and events one by one instead of "
              "replaying them as one captured CUDA graph");
  c->add_flag("--push", o->push,
              "with --parts or --gpus on a GPU: each part packs the x entries it sends and the receiver copies the "
              "pack, instead of reading them from their owner's memory (what a pair of GPUs without peer access "
              "does)");
  c->add_flag("--nccl", o->nccl,
              "with --gpus: the x entries travel by NCCL's sends and receives (one part per GPU; libnccl.so.2 "
              "loaded at run time) instead of CUDA copies");
  c->add_option("--link-gbs", o->link_gbs,
                "with --parts or --gpus: each device's link bandwidth (GB/s each way) for the predicted time on P "
                "devices")
      ->check(CLI::PositiveNumber);
  return {c, [o] { return run_bench(*o); }};
}

}  // namespace spmv::cli
