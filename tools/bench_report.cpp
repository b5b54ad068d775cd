#include "bench_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>

#include "cli_common.hpp"
#include "spmv/error.hpp"

namespace spmv::cli {
namespace {

const KernelMeasurement* best_cusparse(const BenchReport& report) {
  const KernelMeasurement* best = nullptr;
  for (const KernelMeasurement& row : report.results)
    if (row.backend == Backend::cusparse && row.ok() && (!best || row.median_ms < best->median_ms))
      best = &row;
  return best;
}

// CUDA encodes the runtime and driver as 1000*major + 10*minor, cuSPARSE as
// 1000*major + 100*minor + patch.
std::string cuda_version(int v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }
std::string cusparse_version(int v) {
  return fmt::format("{}.{}.{}", v / 1000, (v % 1000) / 100, v % 100);
}

std::string operation_text(const BenchReport& r) {
  const BenchSettings& s = r.settings;
  const std::string scaling =
      fmt::format("alpha={:g}, beta={:g}{}", s.alpha, s.beta, s.deterministic ? ", deterministic mode" : "");
  switch (s.operation) {
    case BenchOperation::spmv: return "SpMV y = alpha*A*x + beta*y, " + scaling;
    case BenchOperation::spmv_transposed:
      return "transposed SpMV y = alpha*A^T*x + beta*y, " + scaling +
             (s.explicit_transpose ? ", A^T built at plan" : "");
    case BenchOperation::spmm:
      return fmt::format("SpMM C = alpha*A*B + beta*C, k={}, {}, {}", s.k, to_string(s.layout),
                         scaling);
  }
  return "";
}

template <class Value>
nlohmann::ordered_json optional_json(const std::optional<Value>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

// eta and kappa as the BRO paper defines them, and against CSR; null for
// formats that do not compress.
nlohmann::ordered_json compression_json(const std::optional<CompressionMetrics>& m) {
  if (!m) return nullptr;
  return {{"eta", m->against_uncompressed.space_savings()},
          {"kappa", m->against_uncompressed.compression_ratio()},
          {"eta_vs_csr", m->against_csr.space_savings()},
          {"kappa_vs_csr", m->against_csr.compression_ratio()},
          {"bytes_per_nonzero", m->bytes_per_nonzero()},
          {"effective_arithmetic_intensity", m->effective_arithmetic_intensity()}};
}

}  // namespace

Comparison compare(const BenchReport& report, const KernelMeasurement& row) {
  Comparison c;
  if (!row.ok()) return c;
  // The device's copy bandwidth bounds only the rows that run on it (not
  // --with-cpu rows of a GPU run).
  const bool on_device = row.backend == Backend::cuda || row.backend == Backend::cusparse;
  if (on_device && report.copy_bandwidth_gbs && *report.copy_bandwidth_gbs > 0)
    c.percent_of_copy_bandwidth = 100.0 * row.gbs / *report.copy_bandwidth_gbs;
  const KernelMeasurement* baseline = best_cusparse(report);
  if (!baseline || row.backend == Backend::cusparse || row.median_ms <= 0) return c;
  c.speedup_vs_cusparse = baseline->median_ms / row.median_ms;
  if (row.median_ms < baseline->median_ms) {
    const double extra_setup = row.setup_seconds() - baseline->setup_seconds();
    const double saved_per_product = (baseline->median_ms - row.median_ms) * 1e-3;
    c.payback_products = extra_setup <= 0 ? 0.0 : std::ceil(extra_setup / saved_per_product);
  }
  return c;
}

void print_bench_report(const BenchReport& r) {
  const BenchSettings& s = r.settings;
  fmt::print("matrix    {}: {} x {}, {} non-zeros\n", r.matrix_source, r.rows, r.cols, r.nnz);
  fmt::print("product   {}, {}\n", operation_text(r), r.precision);
  if (s.reordering != Reordering::none)
    fmt::print("reorder   {}: every operator runs on the reordered matrix\n",
               to_string(s.reordering));
  fmt::print("timing    median of {} runs after {} warm-up{}\n", s.runs, s.warmup,
             s.flush_caches ? ", caches flushed before each" : "");
  fmt::print("backend   {} (host: {} OpenMP threads)\n", to_string(r.backend), r.host_threads);
  if (r.device)
    fmt::print("device    {}, {} SMs, {:.0f} MiB L2; CUDA runtime {}, driver {}, cuSPARSE {}\n",
               r.device->name, r.device->multiprocessors, r.device->l2_bytes / 1048576.0,
               cuda_version(r.device->runtime_version), cuda_version(r.device->driver_version),
               cusparse_version(r.device->cusparse_version));
  if (r.copy_bandwidth_gbs)
    fmt::print("copy      {:.1f} GB/s device-to-device (read + write)\n", *r.copy_bandwidth_gbs);
  const bool gpu_columns = r.copy_bandwidth_gbs.has_value();

  fmt::print("\n{:<9} {:<18} {:<22} {:>10} {:>9} {:>9}", "backend", "kernel", "params", "ms",
             "GFLOP/s", "GB/s");
  if (gpu_columns) fmt::print(" {:>7} {:>10}", "% copy", "vs cuSP.");
  fmt::print(" {:>10}  {}\n", "max error", "status");
  for (const KernelMeasurement& row : r.results) {
    fmt::print("{:<9} {:<18} {:<22} ", to_string(row.backend), row.kernel, params_text(row.params));
    if (row.ok())
      fmt::print("{:>10.4f} {:>9.2f} {:>9.2f}", row.median_ms, row.gflops, row.gbs);
    else
      fmt::print("{:>10} {:>9} {:>9}", "-", "-", "-");
    if (gpu_columns) {
      const Comparison c = compare(r, row);
      fmt::print(" {:>7}", c.percent_of_copy_bandwidth
                               ? fmt::format("{:.1f}", *c.percent_of_copy_bandwidth)
                               : "-");
      fmt::print(" {:>10}",
                 c.speedup_vs_cusparse ? fmt::format("{:.2f}x", *c.speedup_vs_cusparse) : "-");
    }
    const auto& error = row.max_relative_error;
    fmt::print(" {:>10}  {}\n", error ? fmt::format("{:.2e}", *error) : "-", row.status);
  }

  fmt::print("\nsetup ({}analysis + build + upload, ms):\n",
             s.reordering != Reordering::none ? "reorder + " : "");
  for (const KernelMeasurement& row : r.results) {
    if (row.status == "skipped") continue;
    std::string payback;
    const Comparison c = compare(r, row);
    if (c.payback_products)
      payback = *c.payback_products == 0
                    ? "; no extra setup over cuSPARSE"
                    : fmt::format("; pays back its extra setup over cuSPARSE after {:.0f} products",
                                  *c.payback_products);
    else if (c.speedup_vs_cusparse)
      payback = "; slower than cuSPARSE per product";
    const std::optional<double> build_in_products = row.build_in_products();
    const std::string build_multiple =
        build_in_products && row.build_seconds > 0 ? fmt::format(" (build = {:.1f} products)", *build_in_products) : "";
    const std::string reorder =
        s.reordering != Reordering::none ? fmt::format("{:.3f} + ", row.reorder_seconds * 1e3) : "";
    fmt::print("  {:<9} {:<18} {}{:.3f} + {:.3f} + {:.3f} = {:.3f}{}{}\n", to_string(row.backend),
               row.kernel, reorder, row.analysis_seconds * 1e3, row.build_seconds * 1e3,
               row.upload_seconds * 1e3, row.setup_seconds() * 1e3, build_multiple, payback);
  }
  bool compression_header = false;
  for (const KernelMeasurement& row : r.results) {
    if (!row.index_compression) continue;
    if (!compression_header)
      fmt::print("\nindex compression (eta = 1 - C/O against the uncompressed format, kappa = O/C):\n");
    compression_header = true;
    const CompressionMetrics& m = *row.index_compression;
    fmt::print("  {:<9} {:<18} eta {:.3f}  kappa {:.2f}  eta vs CSR {:.3f}  {:.2f} bytes/nnz  "
               "{:.3f} flop/byte\n",
               to_string(row.backend), row.kernel, m.against_uncompressed.space_savings(),
               m.against_uncompressed.compression_ratio(), m.against_csr.space_savings(),
               m.bytes_per_nonzero(), m.effective_arithmetic_intensity());
  }
  for (const KernelMeasurement& row : r.results)
    if (!row.ok())
      fmt::print("{} {} {}: {}\n", row.status, to_string(row.backend), row.kernel, row.message);
}

nlohmann::ordered_json device_json(const std::optional<detail::DeviceInfo>& device) {
  if (!device) return nullptr;
  return {{"name", device->name},
          {"multiprocessors", device->multiprocessors},
          {"l2_bytes", device->l2_bytes},
          {"memory_bytes", device->memory_bytes},
          {"cuda_runtime_version", cuda_version(device->runtime_version)},
          {"cuda_driver_version", cuda_version(device->driver_version)},
          {"cusparse_version", cusparse_version(device->cusparse_version)}};
}

nlohmann::ordered_json settings_json(const BenchSettings& s) {
  return {{"operation", to_string(s.operation)}, {"k", s.k},
          {"layout", to_string(s.layout)},       {"alpha", s.alpha},
          {"beta", s.beta},                      {"warmup", s.warmup},
          {"runs", s.runs},                      {"flush_caches", s.flush_caches},
          {"host_operand_runs", s.host_operand_runs}, {"reordering", to_string(s.reordering)},
          {"expected_products", s.expected_products}};
}

nlohmann::ordered_json measurement_json(const BenchReport& r, const KernelMeasurement& row) {
  const Comparison c = compare(r, row);
  // Host operands: 2 flops per non-zero and column over the whole call's time.
  std::optional<double> host_operand_gflops;
  if (row.ok() && row.host_operand_ms && *row.host_operand_ms > 0)
    host_operand_gflops = 2.0 * r.nnz * r.settings.k / (*row.host_operand_ms * 1e-3) * 1e-9;
  return {{"backend", to_string(row.backend)},
          {"kernel", row.kernel},
          {"chosen_kernel", row.chosen_kernel},
          {"format", row.format},
          {"params", row.params},
          {"status", row.status},
          {"message", row.message},
          {"analysis_seconds", row.analysis_seconds},
          {"build_seconds", row.build_seconds},
          {"upload_seconds", row.upload_seconds},
          {"reorder_seconds", row.reorder_seconds},
          {"setup_seconds", row.setup_seconds()},
          {"build_in_products", optional_json(row.build_in_products())},
          {"matrix_bytes", row.matrix_bytes},
          {"compression", compression_json(row.index_compression)},
          {"device_bytes", row.device_bytes},
          {"bytes_moved", row.bytes_moved},
          {"verified", row.max_relative_error.has_value()},
          {"max_relative_error", optional_json(row.max_relative_error)},
          {"median_ms", row.median_ms},
          {"times_ms", row.times_ms},
          {"gflops", row.gflops},
          {"gbs", row.gbs},
          {"percent_of_copy_bandwidth", optional_json(c.percent_of_copy_bandwidth)},
          {"speedup_vs_cusparse", optional_json(c.speedup_vs_cusparse)},
          {"payback_products", optional_json(c.payback_products)},
          {"host_operand_ms", optional_json(row.host_operand_ms)},
          {"host_transfer_ms", optional_json(row.host_transfer_ms)},
          {"host_operand_gflops", optional_json(host_operand_gflops)}};
}

void describe_cuda_device(BenchReport& report) {
#ifdef SPMV_HAVE_CUDA
  report.device = detail::cuda_device_info();
  const std::size_t gib = std::size_t{1} << 30;
  const std::size_t bytes =
      std::max(std::min(gib, report.device->memory_bytes / 4), 4 * report.device->l2_bytes);
  report.copy_bandwidth_gbs = detail::measure_copy_bandwidth_gbs(bytes);
#else
  (void)report;
  throw Unavailable("the CUDA device cannot be described: CUDA is not in this build");
#endif
}

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

nlohmann::ordered_json bench_report_json(const BenchReport& r) {
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const KernelMeasurement& row : r.results) results.push_back(measurement_json(r, row));
  nlohmann::ordered_json document = {
      {"matrix", {{"source", r.matrix_source}, {"rows", r.rows}, {"cols", r.cols}, {"nnz", r.nnz}}},
      {"precision", r.precision},
      {"explicit_transpose", r.settings.explicit_transpose},
      {"deterministic", r.settings.deterministic}};
  const nlohmann::ordered_json settings = settings_json(r.settings);
  for (const auto& [name, value] : settings.items()) document[name] = value;
  document["backend"] = to_string(r.backend);
  document["host_threads"] = r.host_threads;
  document["device"] = device_json(r.device);
  document["copy_bandwidth_gbs"] = optional_json(r.copy_bandwidth_gbs);
  document["results"] = results;
  return document;
}

}  // namespace spmv::cli
