#include "bench_out_of_core.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "spmv/error.hpp"
#include "spmv/spmm.hpp"
#include "spmv/verify.hpp"

namespace spmv::cli {
namespace {

// The overlapped run's sequential partner (same kernel), if measured.
const OutOfCoreRun* sequential_partner(const std::vector<OutOfCoreRun>& runs,
                                       const OutOfCoreRun& run) {
  for (const OutOfCoreRun& other : runs)
    if (other.kernel == run.kernel && other.schedule == "sequential" && other.status == "ok")
      return &other;
  return nullptr;
}

// AF = sequential total / overlapped total, and the overlapped total over
// two floors from the sequential run: max(CT, PT), and max(CT in, CT out,
// PT), the floor when the two directions of copy also overlap each other.
struct Overlap {
  std::optional<double> acceleration;
  std::optional<double> over_copy_or_kernels;
  std::optional<double> over_busiest_engine;
};
Overlap overlap_of(const std::vector<OutOfCoreRun>& runs, const OutOfCoreRun& run) {
  const OutOfCoreRun* sequential = sequential_partner(runs, run);
  if (run.schedule != "overlapped" || run.status != "ok" || !sequential || run.total_ms <= 0)
    return {};
  const auto over = [&](double floor) {
    return floor > 0 ? std::optional(run.total_ms / floor) : std::nullopt;
  };
  return {
      sequential->total_ms / run.total_ms,
      over(std::max(sequential->communication_ms(), sequential->processing_ms)),
      over(std::max({sequential->copy_in_ms, sequential->copy_out_ms, sequential->processing_ms}))};
}

std::string capacity_text(std::size_t bytes) {
  return bytes == 0 ? "the free device memory"
                    : fmt::format("{} bytes ({:.1f} MiB)", bytes, bytes / 1048576.0);
}

}  // namespace

#ifdef SPMV_HAVE_CUDA

namespace {

// The kernel's in-core product of the same operands, to compare with; empty
// when B and C do not fit on the device.
template <class T>
std::optional<std::vector<T>> in_core_product(const BenchProblem<T>& problem,
                                              const std::string& kernel,
                                              const KernelParams& params) {
  const BenchSettings& s = problem.settings;
  PlanOptions options;
  options.backend = Backend::cuda;
  options.kernel = kernel;
  options.params = params;
  std::vector<T> c = problem.initial_output;
  try {
    plan(*problem.a, options)
        ->spmm(problem.input.data(), c.data(), s.k, s.layout, static_cast<T>(s.alpha),
               static_cast<T>(s.beta));
  } catch (const OutOfMemory&) {
    return std::nullopt;
  }
  return c;
}

// Verifies the first product of `schedule`, then times the others.
template <class T>
void measure_schedule(const BenchProblem<T>& problem, OutOfCoreSpmm<T>& spmm,
                      ChunkSchedule schedule, const std::optional<std::vector<T>>& in_core,
                      OutOfCoreRun& run) {
  const BenchSettings& s = problem.settings;
  const T alpha = static_cast<T>(s.alpha), beta = static_cast<T>(s.beta);
  const std::size_t n_in = problem.input.size(), n_out = problem.initial_output.size();
  PinnedArray<T> b = make_pinned<T>(n_in);
  PinnedArray<T> c = make_pinned<T>(n_out);
  std::copy(problem.input.begin(), problem.input.end(), b.get());
  std::copy(problem.initial_output.begin(), problem.initial_output.end(), c.get());
  spmm.multiply(b.get(), c.get(), alpha, beta, schedule);

  // The result against `expected` (scaled as the reference); a mismatch
  // fails the run with `what`.
  const auto compare = [&](const double* expected, std::optional<double>& error, const char* what) {
    const VerifyResult check =
        verify(c.get(), expected, problem.scale.data(), n_out, problem.tolerance_factor);
    error = check.max_relative_error;
    if (!check.ok) {
      run.status = "FAILED";
      run.message = what + check.message;
    }
    return check.ok;
  };
  if (!compare(problem.reference.data(), run.max_relative_error, "wrong result: ")) return;
  if (in_core) {
    const std::vector<double> in_core_values(in_core->begin(), in_core->end());
    if (!compare(in_core_values.data(), run.in_core_difference,
                 "differs from the in-core product: "))
      return;
  }

  std::vector<double> copy_in, copy_out, processing, staging, total;
  for (int i = 0; i < s.warmup + s.runs; ++i) {
    const OutOfCoreTimes t = spmm.multiply(b.get(), c.get(), alpha, beta, schedule);
    if (i < s.warmup) continue;
    copy_in.push_back(t.copy_in_seconds * 1e3);
    copy_out.push_back(t.copy_out_seconds * 1e3);
    processing.push_back(t.processing_seconds * 1e3);
    staging.push_back(t.staging_seconds * 1e3);
    total.push_back(t.total_seconds * 1e3);
  }
  run.copy_in_ms = median(copy_in);
  run.copy_out_ms = median(copy_out);
  run.processing_ms = median(processing);
  run.staging_ms = median(staging);
  run.total_ms = median(total);
  run.status = "ok";
}

}  // namespace

template <class T>
std::vector<OutOfCoreRun> measure_out_of_core(const BenchProblem<T>& problem,
                                              const std::vector<std::string>& kernels,
                                              const KernelParams& params,
                                              const OutOfCoreSettings& settings) {
  const BenchSettings& s = problem.settings;
  OutOfCoreOptions options;
  options.device_memory_cap = settings.device_memory_cap;
  options.chunk_columns = settings.chunk_columns;
  options.streams = settings.streams;
  options.params = params;
  std::vector<OutOfCoreRun> runs;
  for (const std::string& kernel : kernels) {
    options.kernel = kernel;
    OutOfCoreRun sequential, overlapped;
    sequential.schedule = to_string(ChunkSchedule::sequential);
    overlapped.schedule = to_string(ChunkSchedule::overlapped);
    for (OutOfCoreRun* run : {&sequential, &overlapped}) {
      run->kernel = kernel;
      run->params = params;
    }
    try {
      const std::optional<std::vector<T>> in_core = in_core_product(problem, kernel, params);
      OutOfCoreSpmm<T> spmm(*problem.a, s.k, s.layout, options);
      for (OutOfCoreRun* run : {&sequential, &overlapped}) {
        run->params = spmm.describe().params;
        run->chunk_columns = spmm.chunk_columns();
        run->chunks = spmm.chunks();
        run->device_bytes = spmm.device_bytes();
      }
      measure_schedule(problem, spmm, ChunkSchedule::sequential, in_core, sequential);
      measure_schedule(problem, spmm, ChunkSchedule::overlapped, in_core, overlapped);
    } catch (const Error& e) {
      // A device failure fails the run; a kernel or cap that cannot hold
      // this matrix is skipped.
      const bool failed =
          dynamic_cast<const DeviceError*>(&e) && !dynamic_cast<const OutOfMemory*>(&e);
      for (OutOfCoreRun* run : {&sequential, &overlapped})
        if (run->status.empty()) {
          run->status = failed ? "FAILED" : "skipped";
          run->message = e.what();
        }
    }
    runs.push_back(sequential);
    runs.push_back(overlapped);
  }
  return runs;
}

#else

template <class T>
std::vector<OutOfCoreRun> measure_out_of_core(const BenchProblem<T>&,
                                              const std::vector<std::string>&, const KernelParams&,
                                              const OutOfCoreSettings&) {
  return {};
}

#endif  // SPMV_HAVE_CUDA

template std::vector<OutOfCoreRun> measure_out_of_core(const BenchProblem<float>&,
                                                       const std::vector<std::string>&,
                                                       const KernelParams&,
                                                       const OutOfCoreSettings&);
template std::vector<OutOfCoreRun> measure_out_of_core(const BenchProblem<double>&,
                                                       const std::vector<std::string>&,
                                                       const KernelParams&,
                                                       const OutOfCoreSettings&);

void print_out_of_core(const std::vector<OutOfCoreRun>& runs, const OutOfCoreSettings& settings) {
  fmt::print(
      "\nout-of-core SpMM (Ortega et al. 2013, Table 4): B and C in pinned host memory, "
      "device-memory cap {}, {} streams when overlapped\n",
      capacity_text(settings.device_memory_cap), settings.streams);
  fmt::print("{:<14} {:<10} {:>6} {:>6} {:>10} {:>10} {:>10} {:>10} {:>6} {:>6} {:>8} {:>8}  {}\n",
             "kernel", "schedule", "L_GPU", "chunks", "CT in ms", "CT out ms", "PT ms", "total ms",
             "%Com", "AF", "/floor1", "/floor2", "status");
  for (const OutOfCoreRun& run : runs) {
    fmt::print("{:<14} {:<10} {:>6} {:>6} ", run.kernel, run.schedule, run.chunk_columns,
               run.chunks);
    if (run.status == "ok") {
      const Overlap o = overlap_of(runs, run);
      const auto figure = [](const std::optional<double>& v) {
        return v ? fmt::format("{:.2f}", *v) : std::string("-");
      };
      // %Com as in the paper: the share of the sequential run spent copying.
      const std::string com =
          run.schedule == "sequential"
              ? fmt::format("{:.1f}", 100.0 * run.communication_ms() / run.total_ms)
              : "-";
      fmt::print("{:>10.3f} {:>10.3f} {:>10.3f} {:>10.3f} {:>6} {:>6} {:>8} {:>8}", run.copy_in_ms,
                 run.copy_out_ms, run.processing_ms, run.total_ms, com, figure(o.acceleration),
                 figure(o.over_copy_or_kernels), figure(o.over_busiest_engine));
    } else {
      fmt::print("{:>10} {:>10} {:>10} {:>10} {:>6} {:>6} {:>8} {:>8}", "-", "-", "-", "-", "-",
                 "-", "-", "-");
    }
    fmt::print("  {}\n", run.status);
  }
  fmt::print(
      "CT: copies in and out (overlapped: they also overlap each other and may queue for a "
      "copy engine); PT: kernels; AF = sequential total / overlapped total; /floor1 and "
      "/floor2: overlapped total over the sequential run's max(CT, PT) and max(CT in, CT "
      "out, PT)\n");
  for (const OutOfCoreRun& run : runs)
    if (run.status != "ok")
      fmt::print("{} out-of-core {} {}: {}\n", run.status, run.kernel, run.schedule, run.message);
}

nlohmann::ordered_json out_of_core_json(const std::vector<OutOfCoreRun>& runs,
                                        const OutOfCoreSettings& settings) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const OutOfCoreRun& run : runs) {
    const Overlap o = overlap_of(runs, run);
    const auto optional = [](const std::optional<double>& v) {
      return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
    };
    rows.push_back({{"kernel", run.kernel},
                    {"params", run.params},
                    {"schedule", run.schedule},
                    {"status", run.status},
                    {"message", run.message},
                    {"chunk_columns", run.chunk_columns},
                    {"chunks", run.chunks},
                    {"device_bytes", run.device_bytes},
                    {"verified", run.max_relative_error.has_value()},
                    {"max_relative_error", optional(run.max_relative_error)},
                    {"in_core_difference", optional(run.in_core_difference)},
                    {"copy_in_ms", run.copy_in_ms},
                    {"copy_out_ms", run.copy_out_ms},
                    {"communication_ms", run.communication_ms()},
                    {"processing_ms", run.processing_ms},
                    {"staging_ms", run.staging_ms},
                    {"total_ms", run.total_ms},
                    {"acceleration_factor", optional(o.acceleration)},
                    {"total_over_max_ct_pt", optional(o.over_copy_or_kernels)},
                    {"total_over_max_ct_in_ct_out_pt", optional(o.over_busiest_engine)}});
  }
  return {{"device_memory_cap", settings.device_memory_cap},
          {"chunk_columns_requested", settings.chunk_columns},
          {"streams", settings.streams},
          {"runs", rows}};
}

}  // namespace spmv::cli
