// The measurement behind `spmv bench`: one function times one kernel of any
// backend the same way. Plan (recording its setup costs), put the operands
// where the kernel computes (a Workbench), poison the output with NaN, run
// once, verify against the reference, and only then time (warm-up, then the
// median of many runs, caches flushed before each).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "spmv/matrix.hpp"
#include "spmv/operator.hpp"

namespace spmv::cli {

enum class BenchOperation { spmv, spmv_transposed, spmm };
const char* to_string(BenchOperation operation);

struct BenchSettings {
  BenchOperation operation = BenchOperation::spmv;
  index_t k = 1;  // columns of B and C (SpMM)
  Layout layout = Layout::row_major;
  double alpha = 1;
  double beta = 0;
  int warmup = 3;
  int runs = 30;
  bool flush_caches = true;
  bool explicit_transpose = false;
  bool deterministic = false;  // PlanOptions::deterministic for every kernel
  // Every kernel's operator is planned with this reordering (PlanOptions).
  Reordering reordering = Reordering::none;
  // What "auto" weighs a format's setup against (PlanOptions::expected_products).
  double expected_products = default_expected_products;
  // Also time the product on host operands the thesis's way (El Zein 2009,
  // 4.3.3): the caller's x, held in double, converted to the value type
  // (f32 only), copied in, multiplied, the result copied out. This many
  // timed runs after one warm-up; 0 skips it.
  int host_operand_runs = 0;
};

// measure_kernel's name for the backend's own choice (plan() with no kernel).
inline constexpr const char* auto_kernel = "auto";

// One row of the report.
struct KernelMeasurement {
  Backend backend = Backend::cpu;
  std::string kernel;
  std::string chosen_kernel;  // what plan() ran: the default's choice for "auto"
  std::string format;
  KernelParams params;
  std::string
      status;  // "ok", "FAILED" (wrong result or device error) or "skipped" (refused at plan)
  std::string message;  // why, when not ok
  double analysis_seconds = 0;
  double build_seconds = 0;
  double upload_seconds = 0;
  double reorder_seconds = 0;  // computing the reordering (OperatorDescription)
  std::size_t matrix_bytes = 0;
  std::size_t device_bytes = 0;
  std::optional<CompressionMetrics> index_compression;  // BRO formats (OperatorDescription)
  std::size_t bytes_moved = 0;  // the byte model of one product
  // Largest error relative to the result's scale; set once the result was
  // compared with the reference.
  std::optional<double> max_relative_error;
  std::vector<double> times_ms;  // each timed run
  double median_ms = 0;
  double gflops = 0;
  double gbs = 0;
  // Host operands (BenchSettings::host_operand_runs): median wall time of the
  // whole call, and the median copy time the operator reported within it.
  std::optional<double> host_operand_ms;
  std::optional<double> host_transfer_ms;

  bool ok() const { return status == "ok"; }
  double setup_seconds() const {
    return reorder_seconds + analysis_seconds + build_seconds + upload_seconds;
  }
  // The format build (for the blocked format, Baskaran's run-time
  // inspection) as a multiple of one product of this kernel; empty when the
  // row has no time.
  std::optional<double> build_in_products() const {
    if (!ok() || median_ms <= 0) return std::nullopt;
    return build_seconds / (median_ms * 1e-3);
  }
};

// The operands and the reference result shared by every kernel of one run.
template <class T>
struct BenchProblem {
  const Csr<T>* a = nullptr;
  BenchSettings settings;
  std::vector<T> input;           // x, or B for SpMM
  std::vector<T> initial_output;  // NaN when beta == 0, else random
  std::vector<double> reference;  // the exact-as-possible result
  std::vector<double> scale;      // per-entry error scale (verify.hpp)
  double tolerance_factor = 0;
};

template <class T>
BenchProblem<T> make_bench_problem(const Csr<T>& a, const BenchSettings& settings);

// The median of run times (0 for none).
double median(std::vector<double> values);

// `params` override the kernel's defaults. A kernel that refuses the
// matrix at plan time, or the product's shape when it runs (a cuSPARSE
// algorithm and a layout), is "skipped" with the reason.
template <class T>
KernelMeasurement measure_kernel(const BenchProblem<T>& problem, Backend backend,
                                 const std::string& kernel, const KernelParams& params = {});

}  // namespace spmv::cli
