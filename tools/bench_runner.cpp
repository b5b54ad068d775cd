#include "bench_runner.hpp"

#include <algorithm>
#include <numeric>
#include <functional>
#include <limits>
#include <random>
#include <type_traits>

#include "core/workbench.hpp"
#include "spmv/error.hpp"
#include "spmv/plan.hpp"
#include "spmv/reference.hpp"
#include "spmv/verify.hpp"

namespace spmv::cli {

const char* to_string(BenchOperation operation) {
  switch (operation) {
    case BenchOperation::spmv: return "spmv";
    case BenchOperation::spmv_transposed: return "spmv-transposed";
    case BenchOperation::spmm: return "spmm";
  }
  return "?";
}

namespace {

// Values of either sign with magnitudes in [0.1, 1] from a 64-bit generator:
// no period shows within any operand a benchmark uses.
template <class T>
std::vector<T> random_operand(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> magnitude(0.1, 1.0);
  std::vector<T> v(n);
  for (T& value : v) value = static_cast<T>(rng() & 1 ? magnitude(rng) : -magnitude(rng));
  return v;
}

template <class T>
std::size_t input_size(const Csr<T>& a, const BenchSettings& s) {
  const bool transposed = s.operation == BenchOperation::spmv_transposed;
  return static_cast<std::size_t>(transposed ? a.rows : a.cols) * s.k;
}

template <class T>
std::size_t output_size(const Csr<T>& a, const BenchSettings& s) {
  const bool transposed = s.operation == BenchOperation::spmv_transposed;
  return static_cast<std::size_t>(transposed ? a.cols : a.rows) * s.k;
}

// The longest sum in the product: the longest row, or the longest column for A^T x.
template <class T>
std::size_t longest_sum(const Csr<T>& a, BenchOperation operation) {
  std::vector<index_t> lengths(operation == BenchOperation::spmv_transposed ? a.cols : a.rows, 0);
  if (operation == BenchOperation::spmv_transposed) {
    for (index_t column : a.col_idx) ++lengths[column];
  } else {
    for (index_t r = 0; r < a.rows; ++r) lengths[r] = a.row_length(r);
  }
  return lengths.empty()
             ? 0
             : static_cast<std::size_t>(*std::max_element(lengths.begin(), lengths.end()));
}

template <class T>
std::unique_ptr<detail::Workbench<T>> make_workbench(Backend backend, std::size_t input,
                                                     std::size_t output) {
#ifdef SPMV_HAVE_CUDA
  if (backend == Backend::cuda || backend == Backend::cusparse)
    return detail::make_cuda_workbench<T>(input, output);
#endif
  (void)backend;
  return detail::make_host_workbench<T>(input, output);
}


template <class T>
void run_product(Operator<T>& op, const BenchSettings& s, const T* x, T* y) {
  const T alpha = static_cast<T>(s.alpha), beta = static_cast<T>(s.beta);
  switch (s.operation) {
    case BenchOperation::spmv: op.apply(x, y, alpha, beta); break;
    case BenchOperation::spmv_transposed: op.apply_transposed(x, y, alpha, beta); break;
    case BenchOperation::spmm: op.spmm(x, y, s.k, s.layout, alpha, beta); break;
  }
}

// Compares a result with the reference and records the error; a wrong result
// marks the row FAILED and returns false.
template <class T>
bool accept_result(const BenchProblem<T>& problem, const std::vector<T>& result,
                   KernelMeasurement& m) {
  const VerifyResult check = verify(result.data(), problem.reference.data(), problem.scale.data(),
                                    result.size(), problem.tolerance_factor);
  m.max_relative_error = std::max(m.max_relative_error.value_or(0.0), check.max_relative_error);
  if (check.ok) return true;
  m.status = "FAILED";
  m.message = "wrong result: " + check.message;
  return false;
}

// The product on host operands (BenchSettings::host_operand_runs), timed by
// the host clock around the whole call; its first result is verified too.
template <class T>
bool measure_host_operands(const BenchProblem<T>& problem, Operator<T>& op, KernelMeasurement& m) {
  const BenchSettings& s = problem.settings;
  const std::vector<double> caller_input(problem.input.begin(), problem.input.end());
  std::vector<T> converted_input(caller_input.size());
  std::vector<T> output = problem.initial_output;
  std::vector<double> transfer_ms;
  const std::function<void()> product = [&] {
    const T* x = nullptr;
    if constexpr (std::is_same_v<T, double>) {
      x = caller_input.data();
    } else {
      std::copy(caller_input.begin(), caller_input.end(), converted_input.begin());
      x = converted_input.data();
    }
    run_product(op, s, x, output.data());
    transfer_ms.push_back(op.last_transfer_seconds() * 1e3);
  };
  product();
  if (!accept_result(problem, output, m)) return false;
  transfer_ms.clear();  // the copies of the timed runs only
  const auto host_clock = detail::make_host_workbench<T>(0, 0);
  const std::vector<double> total_ms = host_clock->time(product, 0, s.host_operand_runs, false);
  // The middle run by total time (the median for an odd count) with its own
  // copies, so the copy time is always part of the reported total.
  std::vector<std::size_t> order(total_ms.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return total_ms[i] < total_ms[j]; });
  const std::size_t middle = order[order.size() / 2];
  m.host_operand_ms = total_ms[middle];
  m.host_transfer_ms = transfer_ms[middle];
  return true;
}

}  // namespace

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

template <class T>
BenchProblem<T> make_bench_problem(const Csr<T>& a, const BenchSettings& settings) {
  BenchProblem<T> problem;
  problem.a = &a;
  problem.settings = settings;
  const std::size_t n_out = output_size(a, settings);
  problem.input = random_operand<T>(input_size(a, settings), 1);
  problem.initial_output = settings.beta == 0
                               ? std::vector<T>(n_out, std::numeric_limits<T>::quiet_NaN())
                               : random_operand<T>(n_out, 2);
  problem.reference.resize(n_out);
  problem.scale.resize(n_out);
  const T alpha = static_cast<T>(settings.alpha), beta = static_cast<T>(settings.beta);
  const T* x = problem.input.data();
  const T* y0 = problem.initial_output.data();
  switch (settings.operation) {
    case BenchOperation::spmv:
      reference_spmv(a, x, y0, alpha, beta, problem.reference.data(), problem.scale.data());
      break;
    case BenchOperation::spmv_transposed:
      reference_spmv_transposed(a, x, y0, alpha, beta, problem.reference.data(),
                                problem.scale.data());
      break;
    case BenchOperation::spmm:
      reference_spmm(a, x, y0, settings.k, settings.layout, alpha, beta, problem.reference.data(),
                     problem.scale.data());
      break;
  }
  problem.tolerance_factor = default_tolerance_factor(longest_sum(a, settings.operation));
  return problem;
}

template <class T>
KernelMeasurement measure_kernel(const BenchProblem<T>& problem, Backend backend,
                                 const std::string& kernel, const KernelParams& params) {
  const Csr<T>& a = *problem.a;
  const BenchSettings& s = problem.settings;
  KernelMeasurement m;
  m.backend = backend;
  m.kernel = kernel;

  PlanOptions options;
  options.backend = backend;
  options.kernel = kernel == auto_kernel ? std::string() : kernel;
  options.params = params;
  options.explicit_transpose = s.explicit_transpose;
  options.deterministic = s.deterministic;
  options.reordering = s.reordering;
  options.expected_products = s.expected_products;
  options.spmv_only = s.operation == BenchOperation::spmv;  // no fallback copy of A needed
  if (s.operation == BenchOperation::spmm && kernel == auto_kernel) {
    // The library's choice for this product: a plan for the SpMM of k columns in this layout.
    options.spmm_columns = s.k;
    options.spmm_layout = s.layout;
  }
  std::unique_ptr<Operator<T>> op;
  double planning_seconds = 0;  // the selector's analysis and choice, part of the setup
  try {
    const Plan chosen = make_plan(a, options);
    planning_seconds = chosen.analysis_seconds + chosen.selection_seconds;
    op = make_operator(chosen, a);
  } catch (const Error& e) {
    // A device failure fails the run; a kernel that refuses this matrix (its
    // size, a padding limit, not enough device memory) is skipped.
    const bool failed =
        dynamic_cast<const DeviceError*>(&e) && !dynamic_cast<const OutOfMemory*>(&e);
    m.status = failed ? "FAILED" : "skipped";
    m.message = e.what();
    return m;
  }
  const OperatorDescription d = op->describe();
  // The transposed product of a plan that chose A^T's kernel runs that kernel on A^T's format.
  const OperatorDescription& timed =
      s.operation == BenchOperation::spmv_transposed && d.transposed ? *d.transposed : d;
  m.chosen_kernel = timed.kernel;
  m.format = timed.format;
  m.params = timed.params;
  m.analysis_seconds = planning_seconds + d.analysis_seconds;
  m.build_seconds = d.build_seconds;
  m.upload_seconds = d.upload_seconds;
  m.reorder_seconds = d.reorder_seconds;
  m.matrix_bytes = timed.matrix_bytes;
  m.device_bytes = d.device_bytes;
  m.index_compression = d.index_compression;
  const std::size_t n_in = input_size(a, s), n_out = output_size(a, s);
  // Compulsory traffic: the matrix once, x once, y written once (and read when beta != 0).
  m.bytes_moved = d.matrix_bytes + (n_in + n_out * (s.beta != 0 ? 2 : 1)) * sizeof(T);

  try {
    auto bench = make_workbench<T>(backend, n_in, n_out);
    bench->set_input(problem.input);
    bench->set_output(problem.initial_output);
    const T* x = bench->input();
    T* y = bench->output_pointer();
    const std::function<void()> product = [&] { run_product(*op, s, x, y); };
    product();
    // The first spmm() plans and builds the operator's SpMM (cuda): its setup and memory count.
    const OperatorDescription after_first = op->describe();
    m.build_seconds = after_first.build_seconds;
    m.device_bytes = after_first.device_bytes;
    if (!accept_result(problem, bench->output(), m)) return m;
    m.times_ms = bench->time(product, s.warmup, s.runs, s.flush_caches);
    if (s.host_operand_runs > 0 && !measure_host_operands(problem, *op, m)) return m;
  } catch (const DeviceError& e) {
    m.status = "FAILED";
    m.message = e.what();
    return m;
  } catch (const Unavailable& e) {
    m.status = "skipped";
    m.message = e.what();
    return m;
  }
  m.status = "ok";
  m.median_ms = median(m.times_ms);
  const double seconds = m.median_ms * 1e-3;
  if (seconds > 0) {
    m.gflops = 2.0 * a.nnz() * s.k / seconds * 1e-9;
    m.gbs = static_cast<double>(m.bytes_moved) / seconds * 1e-9;
  }
  return m;
}

#define SPMV_INSTANTIATE(T)                                                         \
  template BenchProblem<T> make_bench_problem(const Csr<T>&, const BenchSettings&); \
  template KernelMeasurement measure_kernel(const BenchProblem<T>&, Backend, const std::string&, \
                                            const KernelParams&);
SPMV_INSTANTIATE(float)
SPMV_INSTANTIATE(double)
#undef SPMV_INSTANTIATE

}  // namespace spmv::cli
