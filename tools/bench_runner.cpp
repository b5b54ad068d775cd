#include "bench_runner.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <random>

#include "core/workbench.hpp"
#include "spmv/error.hpp"
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

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

}  // namespace

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
                                 const std::string& kernel) {
  const Csr<T>& a = *problem.a;
  const BenchSettings& s = problem.settings;
  KernelMeasurement m;
  m.backend = backend;
  m.kernel = kernel;

  PlanOptions options;
  options.backend = backend;
  options.kernel = kernel;
  options.explicit_transpose = s.explicit_transpose;
  options.spmv_only = s.operation == BenchOperation::spmv;  // no fallback copy of A needed
  std::unique_ptr<Operator<T>> op;
  try {
    op = plan(a, options);
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
  m.format = d.format;
  m.params = d.params;
  m.analysis_seconds = d.analysis_seconds;
  m.build_seconds = d.build_seconds;
  m.upload_seconds = d.upload_seconds;
  m.matrix_bytes = d.matrix_bytes;
  m.device_bytes = d.device_bytes;
  const std::size_t n_in = input_size(a, s), n_out = output_size(a, s);
  // Compulsory traffic: the matrix once, x once, y written once (and read when beta != 0).
  m.bytes_moved = d.matrix_bytes + (n_in + n_out * (s.beta != 0 ? 2 : 1)) * sizeof(T);

  try {
    auto bench = make_workbench<T>(backend, n_in, n_out);
    bench->set_input(problem.input);
    bench->set_output(problem.initial_output);
    const T* x = bench->input();
    T* y = bench->output_pointer();
    const T alpha = static_cast<T>(s.alpha), beta = static_cast<T>(s.beta);
    const std::function<void()> product = [&] {
      switch (s.operation) {
        case BenchOperation::spmv: op->apply(x, y, alpha, beta); break;
        case BenchOperation::spmv_transposed: op->apply_transposed(x, y, alpha, beta); break;
        case BenchOperation::spmm: op->spmm(x, y, s.k, s.layout, alpha, beta); break;
      }
    };
    product();
    const std::vector<T> result = bench->output();
    const VerifyResult check = verify(result.data(), problem.reference.data(), problem.scale.data(),
                                      result.size(), problem.tolerance_factor);
    m.max_relative_error = check.max_relative_error;
    if (!check.ok) {
      m.status = "FAILED";
      m.message = "wrong result: " + check.message;
      return m;
    }
    m.times_ms = bench->time(product, s.warmup, s.runs, s.flush_caches);
  } catch (const DeviceError& e) {
    m.status = "FAILED";
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
  template KernelMeasurement measure_kernel(const BenchProblem<T>&, Backend, const std::string&);
SPMV_INSTANTIATE(float)
SPMV_INSTANTIATE(double)
#undef SPMV_INSTANTIATE

}  // namespace spmv::cli
