// What `spmv bench` prints and writes: the table, the setup costs and the
// JSON document, with the figures derived from the measurements (share of the
// device's copy bandwidth, speed-up over the best cuSPARSE algorithm).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bench_runner.hpp"
#include "core/workbench.hpp"

namespace spmv::cli {

struct BenchReport {
  std::string matrix_source;  // file path or generator spec
  index_t rows = 0;
  index_t cols = 0;
  index_t nnz = 0;
  std::string precision;  // f32 | f64
  Backend backend = Backend::cpu;
  BenchSettings settings;
  int host_threads = 0;
  std::optional<detail::DeviceInfo> device;  // GPU runs only
  std::optional<double> copy_bandwidth_gbs;  // GPU runs only: device-to-device copy
  std::vector<KernelMeasurement> results;    // cuSPARSE baseline rows included
};

// Figures of one row relative to the others; empty where they do not apply.
struct Comparison {
  std::optional<double> percent_of_copy_bandwidth;
  std::optional<double> speedup_vs_cusparse;  // best cuSPARSE median / this median
  // Products after which the extra setup over the best cuSPARSE algorithm is
  // paid back by faster products (0 when there is no extra setup); empty
  // when this kernel is not faster.
  std::optional<double> payback_products;
};
Comparison compare(const BenchReport& report, const KernelMeasurement& row);

void print_bench_report(const BenchReport& report);
nlohmann::ordered_json bench_report_json(const BenchReport& report);

// Pieces of the JSON document, also written by `spmv suite`: the device
// (null for host runs) and one row with its derived figures.
nlohmann::ordered_json device_json(const std::optional<detail::DeviceInfo>& device);
// The product and the timing: operation, k, layout, alpha, beta, warm-up,
// runs, flushing, host-operand runs.
nlohmann::ordered_json settings_json(const BenchSettings& settings);
nlohmann::ordered_json measurement_json(const BenchReport& report, const KernelMeasurement& row);

// Fills report.device and report.copy_bandwidth_gbs (device-to-device copy
// of 1 GiB, a quarter of the memory on smaller devices, never less than 4x
// the L2). Throws Unavailable in a build without CUDA.
void describe_cuda_device(BenchReport& report);

// The current time in UTC, e.g. "2026-11-22T03:04:05Z", for result files.
std::string utc_timestamp();

}  // namespace spmv::cli
