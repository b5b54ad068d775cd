// The ELLR-T configuration model against a search (issue 4): for each
// generated matrix, times the ellr-t kernel for every threads_per_row T in
// {1, 2, ..., 32} and block size BS in {64, 128, 256, 512}, then compares the
// model's (T, BS) with the fastest one found (target: the model's time within
// 10% of the best).
//
// Each configuration is planned on device operands, verified once against
// the reference (output poisoned with NaN), then timed with CUDA events:
// 5 warm-up runs, the median of 20 runs, the L2 overwritten before each
// timed run. Configurations whose padding the format refuses are "refused";
// a matrix whose every configuration is refused (a power-law row profile) is
// reported as such. Prints one table row per matrix and precision.
//
// Usage: bench_ellrt_model [--precision f64,f32] [--families FILE] [--json FILE] [SPEC...]
//   --families FILE  the generated families, "NAME SPEC" per line, as for
//                    `spmv suite` (e.g. bench/families.txt)
//   SPEC...          more generator specs (named by their spec); with
//                    neither, the specs of default_specs below
//   --json FILE      JSON lines, one per (matrix, precision), rewritten whole
//                    after each matrix; the matrices already in FILE are not
//                    measured again (a rerun continues a stopped one)
// Exit code: 0 when every result was verified (a missed target is a finding,
// shown in the table and the JSON, not a failure), 1 when a result was
// wrong, 2 on bad usage or an error.
#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "io/output_file.hpp"
#include "spmv/error.hpp"
#include "spmv/formats/ellpack_r.hpp"
#include "spmv/gen.hpp"
#include "spmv/operator.hpp"
#include "spmv/reference.hpp"
#include "spmv/verify.hpp"
#include "suite_collection.hpp"

#ifdef SPMV_HAVE_CUDA
#include <cuda_runtime.h>

namespace {

using nlohmann::ordered_json;

constexpr double target_ratio = 1.10;  // model within 10% of the best
constexpr int warmup_runs = 5;
constexpr int timed_runs = 20;
constexpr int block_sizes[] = {64, 128, 256, 512};

// Sizes that fill an 80 GB GPU many times beyond its 50 MB L2 (0.3-1 GB in fp64)
// with the row-length distributions ELLR-T is meant for.
const std::vector<std::string> default_specs = {
    "stencil27:n=120",         "stencil7:n=200",         "uniform:rows=4000000,cols=4000000,per_row=16",
    "blockfem:n=60,block=4",   "banded:rows=8000000,lower=2,upper=2",
    "uniform:rows=200000,cols=200000,per_row=200",  // few rows per SM: larger T wins
};

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    fmt::print(stderr, "bench_ellrt_model: {}: {}\n", what, cudaGetErrorString(status));
    std::exit(2);
  }
}

// Non-periodic values in [-1, -0.1] U [0.1, 1].
template <class T>
std::vector<T> random_vector(std::size_t n) {
  std::mt19937_64 rng(42);
  std::vector<T> v(n);
  for (T& value : v) {
    const double magnitude = 0.1 + 0.9 * static_cast<double>(rng() >> 11) / 9007199254740992.0;
    value = static_cast<T>((rng() & 1) ? magnitude : -magnitude);
  }
  return v;
}

template <class T>
struct DeviceVector {
  T* data = nullptr;
  explicit DeviceVector(std::size_t n) { check(cudaMalloc(&data, std::max<std::size_t>(1, n) * sizeof(T)), "cudaMalloc"); }
  ~DeviceVector() { cudaFree(data); }
};

// One (T, BS) of the search.
struct Timing {
  int threads_per_row = 0;
  int block_size = 0;
  std::string status;  // "ok", "refused" (padding limit) or "FAILED" (wrong result)
  std::string message;
  double ms = 0;
  bool ok() const { return status == "ok"; }
};

template <class T>
class Search {
 public:
  explicit Search(const spmv::Csr<T>& a)
      : a_(a), x_(random_vector<T>(a.cols)), d_x_(a.cols), d_y_(a.rows), reference_(a.rows), scale_(a.rows) {
    check(cudaMemcpy(d_x_.data, x_.data(), x_.size() * sizeof(T), cudaMemcpyHostToDevice), "copy x");
    spmv::reference_spmv(a, x_.data(), static_cast<const T*>(nullptr), T(1), T(0), reference_.data(), scale_.data());
    int device = 0, l2 = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), "L2 size");
    flush_bytes_ = 2 * static_cast<std::size_t>(l2);
    check(cudaMalloc(&flush_, flush_bytes_), "cudaMalloc flush");
    check(cudaEventCreate(&start_), "event");
    check(cudaEventCreate(&stop_), "event");
  }
  ~Search() {
    cudaFree(flush_);
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }

  Timing time(int threads_per_row, int block_size) {
    Timing timing;
    timing.threads_per_row = threads_per_row;
    timing.block_size = block_size;
    spmv::PlanOptions options;
    options.backend = spmv::Backend::cuda;
    options.kernel = "ellr-t";
    options.params = {{"threads_per_row", threads_per_row}, {"block_size", block_size}};
    options.spmv_only = true;
    std::unique_ptr<spmv::Operator<T>> op;
    try {
      op = spmv::plan(a_, options);
    } catch (const spmv::FormatLimitError& e) {
      timing.status = "refused";
      timing.message = e.what();
      return timing;
    }
    std::vector<T> y(a_.rows, std::numeric_limits<T>::quiet_NaN());
    check(cudaMemcpy(d_y_.data, y.data(), y.size() * sizeof(T), cudaMemcpyHostToDevice), "poison y");
    op->apply(d_x_.data, d_y_.data, T(1), T(0));
    check(cudaMemcpy(y.data(), d_y_.data, y.size() * sizeof(T), cudaMemcpyDeviceToHost), "copy y");
    const spmv::VerifyResult v = spmv::verify(y.data(), reference_.data(), scale_.data(), y.size(),
                                              spmv::default_tolerance_factor(longest_row()));
    if (!v.ok) {
      timing.status = "FAILED";
      timing.message = "wrong result: " + v.message;
      return timing;
    }
    for (int i = 0; i < warmup_runs; ++i) op->apply(d_x_.data, d_y_.data, T(1), T(0));
    std::vector<double> ms;
    for (int i = 0; i < timed_runs; ++i) {
      check(cudaMemsetAsync(flush_, i, flush_bytes_), "flush L2");
      check(cudaEventRecord(start_), "record");
      op->apply(d_x_.data, d_y_.data, T(1), T(0));
      check(cudaEventRecord(stop_), "record");
      check(cudaEventSynchronize(stop_), "synchronize");
      float elapsed = 0;
      check(cudaEventElapsedTime(&elapsed, start_, stop_), "elapsed");
      ms.push_back(elapsed);
    }
    std::sort(ms.begin(), ms.end());
    timing.status = "ok";
    timing.ms = ms[ms.size() / 2];
    return timing;
  }

 private:
  std::size_t longest_row() const {
    spmv::index_t longest = 0;
    for (spmv::index_t r = 0; r < a_.rows; ++r) longest = std::max(longest, a_.row_length(r));
    return longest;
  }

  const spmv::Csr<T>& a_;
  std::vector<T> x_;
  DeviceVector<T> d_x_;
  DeviceVector<T> d_y_;
  std::vector<double> reference_;
  std::vector<double> scale_;
  void* flush_ = nullptr;
  std::size_t flush_bytes_ = 0;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

spmv::GpuShape device_shape() {
  int device = 0;
  spmv::GpuShape shape;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&shape.multiprocessors, cudaDevAttrMultiProcessorCount, device), "SM count");
  check(cudaDeviceGetAttribute(&shape.threads_per_multiprocessor, cudaDevAttrMaxThreadsPerMultiProcessor, device),
        "threads per SM");
  return shape;
}

ordered_json timing_json(const Timing& t) {
  return {{"threads_per_row", t.threads_per_row},
          {"block_size", t.block_size},
          {"status", t.status},
          {"message", t.message},
          {"median_ms", t.ok() ? ordered_json(t.ms) : ordered_json(nullptr)}};
}

// One matrix in one precision: the search over (T, BS) and the model's
// choice, as one JSON line.
template <class T>
ordered_json compare(const spmv::cli::SuiteMatrix& matrix, const std::string& precision, const std::string& device) {
  const spmv::Csr<T> a = spmv::cast<T>(spmv::generate(spmv::parse_generator_spec(matrix.source)));
  std::vector<spmv::index_t> lengths(a.rows);
  for (spmv::index_t r = 0; r < a.rows; ++r) lengths[r] = a.row_length(r);
  const spmv::EllrtConfiguration model = spmv::ellrt_configuration(lengths, device_shape());
  Search<T> search(a);
  std::vector<Timing> timings;
  for (int t = 1; t <= 32; t *= 2)
    for (int bs : block_sizes) timings.push_back(search.time(t, bs));
  const auto is_model = [&](const Timing& t) {
    return t.threads_per_row == model.threads_per_row && t.block_size == model.block_size;
  };
  if (std::none_of(timings.begin(), timings.end(), is_model))  // a BS outside the grid
    timings.push_back(search.time(model.threads_per_row, model.block_size));
  const Timing chosen = *std::find_if(timings.begin(), timings.end(), is_model);
  const Timing* best = nullptr;
  for (const Timing& t : timings)
    if (t.ok() && (!best || t.ms < best->ms)) best = &t;
  const bool failed = std::any_of(timings.begin(), timings.end(), [](const Timing& t) { return t.status == "FAILED"; });

  ordered_json line = {{"name", matrix.name},
                       {"spec", matrix.source},
                       {"precision", precision},
                       {"device", device},
                       {"rows", a.rows},
                       {"nnz", a.nnz()},
                       {"mean_row_length", a.rows ? static_cast<double>(a.nnz()) / a.rows : 0.0},
                       {"max_row_length", lengths.empty() ? 0 : *std::max_element(lengths.begin(), lengths.end())},
                       {"target_ratio", target_ratio},
                       {"runs", timed_runs}};
  line["status"] = failed ? "FAILED" : best ? "ok" : "refused";
  line["message"] = best ? "" : timings.front().message;
  line["model"] = timing_json(chosen);
  line["best"] = best ? timing_json(*best) : ordered_json(nullptr);
  const bool compared = best && chosen.ok();
  line["model_over_best"] = compared ? ordered_json(chosen.ms / best->ms) : ordered_json(nullptr);
  line["within_target"] = compared ? ordered_json(chosen.ms <= target_ratio * best->ms) : ordered_json(nullptr);
  line["configurations"] = ordered_json::array();
  for (const Timing& t : timings) line["configurations"].push_back(timing_json(t));
  return line;
}

void print_row(const ordered_json& line) {
  const auto config = [](const ordered_json& t) {
    return t.is_null() ? std::string("-")
                       : fmt::format("T={} BS={}", t["threads_per_row"].get<int>(), t["block_size"].get<int>());
  };
  const auto ms = [](const ordered_json& t) {
    return t.is_null() || t["median_ms"].is_null() ? std::string("-") : fmt::format("{:.4f}", t["median_ms"].get<double>());
  };
  const std::string ratio =
      line["model_over_best"].is_null() ? "-" : fmt::format("{:.2f}x", line["model_over_best"].get<double>());
  const std::string verdict = line["status"] != "ok"          ? line["status"].get<std::string>()
                              : line["within_target"] == true ? "ok"
                                                              : "MISSED";
  fmt::print("| {:<10} | {} | {:>9} | {:>10} | {:<12} | {:>8} | {:<12} | {:>8} | {:>6} | {:<7} |\n",
             line["name"].get<std::string>(), line["precision"].get<std::string>(), line["rows"].get<long>(),
             line["nnz"].get<long>(), config(line["model"]), ms(line["model"]), config(line["best"]),
             ms(line["best"]), ratio, verdict);
}

struct Options {
  std::vector<std::string> precisions = {"f64"};
  std::string families_path;
  std::string json_path;
  std::vector<std::string> specs;
};

[[noreturn]] void usage(const std::string& problem) {
  fmt::print(stderr, "bench_ellrt_model: {}\nusage: bench_ellrt_model [--precision f64,f32] [--families FILE] "
             "[--json FILE] [SPEC...]\n", problem);
  std::exit(2);
}

Options parse_options(const std::vector<std::string>& args) {
  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool takes_value = arg == "--precision" || arg == "--families" || arg == "--json";
    if (takes_value && i + 1 == args.size()) usage(arg + " needs a value");
    if (arg == "--precision") {
      o.precisions.clear();
      std::string list = args[++i];
      for (std::size_t start = 0, comma = 0; comma != std::string::npos; start = comma + 1) {
        comma = list.find(',', start);
        const std::string p = list.substr(start, comma - start);
        if (p != "f32" && p != "f64") usage("unknown precision '" + p + "' (f32, f64)");
        o.precisions.push_back(p);
      }
    } else if (arg == "--families") {
      o.families_path = args[++i];
    } else if (arg == "--json") {
      o.json_path = args[++i];
    } else if (arg.rfind("--", 0) == 0) {
      usage("unknown option '" + arg + "'");
    } else {
      o.specs.push_back(arg);
    }
  }
  return o;
}

// The lines of an earlier run (a missing file: none); a last line cut short
// is dropped.
std::vector<ordered_json> earlier_lines(const std::string& path) {
  std::vector<ordered_json> lines;
  std::ifstream in(path);
  for (std::string text; std::getline(in, text);)
    if (!text.empty()) {
      ordered_json line = ordered_json::parse(text, nullptr, false);
      if (!line.is_discarded()) lines.push_back(std::move(line));
    }
  return lines;
}

void write_lines(const std::string& path, const std::vector<ordered_json>& lines) {
  spmv::io::OutputFile file(path);
  for (const ordered_json& line : lines) file.write(line.dump() + "\n");
  file.commit();
}

int run(const Options& o) {
  std::vector<spmv::cli::SuiteMatrix> matrices;
  if (!o.families_path.empty()) matrices = spmv::cli::family_matrices(o.families_path);
  const std::vector<std::string>& specs = o.specs.empty() && matrices.empty() ? default_specs : o.specs;
  for (const std::string& spec : specs) matrices.push_back({spec, spec, true});

  std::vector<ordered_json> lines = o.json_path.empty() ? std::vector<ordered_json>{} : earlier_lines(o.json_path);
  std::set<std::pair<std::string, std::string>> measured;
  for (const ordered_json& line : lines)
    measured.insert({line["name"].get<std::string>(), line["precision"].get<std::string>()});

  cudaDeviceProp props{};
  check(cudaGetDeviceProperties(&props, 0), "device properties");
  fmt::print("ELLR-T model vs search on {}: T x BS in {{1..32}} x {{64..512}}, median of {} runs, target: model "
             "within {:.0f}% of the best\n\n",
             props.name, timed_runs, (target_ratio - 1) * 100);
  fmt::print("| {:<10} | {} | {:>9} | {:>10} | {:<12} | {:>8} | {:<12} | {:>8} | {:>6} | {:<7} |\n", "matrix", "prec",
             "rows", "nnz", "model", "ms", "best", "ms", "ratio", "");
  fmt::print("|---|---|---:|---:|---|---:|---|---:|---:|---|\n");
  bool wrong = false;
  for (const std::string& precision : o.precisions)
    for (const spmv::cli::SuiteMatrix& matrix : matrices) {
      if (measured.count({matrix.name, precision})) continue;
      ordered_json line = precision == "f32" ? compare<float>(matrix, precision, props.name)
                                             : compare<double>(matrix, precision, props.name);
      print_row(line);
      lines.push_back(std::move(line));
      if (!o.json_path.empty()) write_lines(o.json_path, lines);
    }
  for (const ordered_json& line : lines)
    for (const ordered_json& t : line["configurations"])
      if (t["status"] == "FAILED") {
        wrong = true;
        fmt::print("FAILED {} {} T={} BS={}: {}\n", line["name"].get<std::string>(), line["precision"].get<std::string>(),
                   t["threads_per_row"].get<int>(), t["block_size"].get<int>(), t["message"].get<std::string>());
      }
  return wrong ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse_options({argv + 1, argv + argc}));
  } catch (const spmv::Error& e) {
    fmt::print(stderr, "bench_ellrt_model: {}\n", e.what());
    return 2;
  }
}

#else
int main() {
  fmt::print(stderr, "bench_ellrt_model needs a CUDA build\n");
  return 2;
}
#endif
