// `spmv bench --out-of-core`: the out-of-core SpMM (include/spmv/spmm.hpp)
// of each chosen SpMM kernel, B and C in pinned host memory, sequential
// (Algorithm 2) and overlapped (Algorithm 3), each verified against the
// reference and against the kernel's in-core product before it is timed,
// reported as Ortega et al.'s Table 4: communication time (CT), processing
// time (PT), total, share of CT, and the acceleration factor AF =
// sequential total / overlapped total.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bench_runner.hpp"

namespace spmv::cli {

struct OutOfCoreSettings {
  std::size_t device_memory_cap = 0;  // 0: the free device memory
  index_t chunk_columns = 0;          // 0: the most the cap allows
  int streams = 2;
};

// One kernel and schedule; times are medians over the timed runs.
struct OutOfCoreRun {
  std::string kernel;
  KernelParams params;
  std::string schedule;  // "sequential" or "overlapped"
  std::string status;    // "ok", "FAILED" or "skipped"
  std::string message;
  index_t chunk_columns = 0;
  index_t chunks = 0;
  std::size_t device_bytes = 0;
  std::optional<double> max_relative_error;  // against the reference
  std::optional<double> in_core_difference;  // largest |out-of-core - in-core| / scale
  double copy_in_ms = 0;
  double copy_out_ms = 0;
  double processing_ms = 0;
  double staging_ms = 0;
  double total_ms = 0;

  double communication_ms() const { return copy_in_ms + copy_out_ms; }
};

// Empty in a build without CUDA (the bench refuses --out-of-core there).
template <class T>
std::vector<OutOfCoreRun> measure_out_of_core(const BenchProblem<T>& problem,
                                              const std::vector<std::string>& kernels,
                                              const KernelParams& params,
                                              const OutOfCoreSettings& settings);

void print_out_of_core(const std::vector<OutOfCoreRun>& runs, const OutOfCoreSettings& settings);
nlohmann::ordered_json out_of_core_json(const std::vector<OutOfCoreRun>& runs,
                                        const OutOfCoreSettings& settings);

}  // namespace spmv::cli
