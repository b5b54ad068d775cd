// conjugate_gradients: checks, the Jacobi diagonal, the operator planned
// through the public API, and the iteration over a CgWorkspace (host or
// device vectors; cg_workspace.hpp gives the recurrences).
#include "spmv/cg.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "solvers/cg_workspace.hpp"
#include "spmv/error.hpp"

namespace spmv {

const char* to_string(Preconditioner preconditioner) {
  return preconditioner == Preconditioner::jacobi ? "jacobi" : "none";
}

Preconditioner preconditioner_from_string(const std::string& name) {
  if (name == "none") return Preconditioner::none;
  if (name == "jacobi") return Preconditioner::jacobi;
  throw InvalidArgument("unknown preconditioner '" + name + "' (none or jacobi)");
}

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

template <class T>
double norm_of(const std::vector<T>& v) {
  double sum = 0;
#pragma omp parallel for reduction(+ : sum) schedule(static)
  for (std::size_t i = 0; i < v.size(); ++i) sum += double(v[i]) * double(v[i]);
  return std::sqrt(sum);
}

void check_arguments(index_t rows, index_t cols, std::size_t b_size, std::size_t x_size, const CgOptions& o) {
  const std::string where = "conjugate_gradients: ";
  if (rows != cols)
    throw InvalidArgument(where + "the matrix is " + std::to_string(rows) + " x " + std::to_string(cols) +
                          "; CG needs a square (symmetric positive definite) matrix");
  if (b_size != static_cast<std::size_t>(rows))
    throw InvalidArgument(where + "b has " + std::to_string(b_size) + " entries, the matrix " +
                          std::to_string(rows) + " rows");
  if (x_size != 0 && x_size != static_cast<std::size_t>(rows))
    throw InvalidArgument(where + "the initial guess x has " + std::to_string(x_size) + " entries, the matrix " +
                          std::to_string(rows) + " rows (leave x empty to start from zero)");
  if (!(o.tolerance > 0) || !std::isfinite(o.tolerance))
    throw InvalidArgument(where + "the tolerance must be positive and finite, not " + std::to_string(o.tolerance));
  if (o.max_iterations < 0)
    throw InvalidArgument(where + "max_iterations must be at least 0, not " + std::to_string(o.max_iterations));
  if (o.check_interval < 1)
    throw InvalidArgument(where + "check_interval must be at least 1, not " + std::to_string(o.check_interval));
}

// 1 / a_ii; a zero, negative, missing or non-finite a_ii means that A is
// not positive definite (or not usable), so it is refused.
template <class T>
std::vector<T> jacobi_inverse_diagonal(const Csr<T>& a) {
  std::vector<T> inverse(static_cast<std::size_t>(a.rows));
  for (index_t i = 0; i < a.rows; ++i) {
    const auto begin = a.col_idx.begin() + a.row_ptr[i], end = a.col_idx.begin() + a.row_ptr[i + 1];
    const auto at = std::lower_bound(begin, end, i);
    const T diagonal = at != end && *at == i ? a.values[at - a.col_idx.begin()] : T(0);
    if (!(diagonal > 0) || !std::isfinite(diagonal))
      throw InvalidArgument("conjugate_gradients: Jacobi preconditioner: the diagonal entry (" + std::to_string(i) +
                            ", " + std::to_string(i) + ") is " + std::to_string(diagonal) +
                            (at != end && *at == i ? "" : " (not stored)") +
                            "; the matrix is not positive definite");
    inverse[i] = T(1) / diagonal;
  }
  return inverse;
}

bool runs_on_device(Backend backend) { return backend == Backend::cuda || backend == Backend::cusparse; }

template <class T>
std::unique_ptr<detail::CgWorkspace<T>> make_workspace(Backend backend, index_t n,
                                                       const std::vector<T>& inverse_diagonal, double b_norm,
                                                       const CgOptions& o, [[maybe_unused]] StreamHandle stream) {
  if (!runs_on_device(backend))
    return detail::make_host_cg_workspace(n, inverse_diagonal, b_norm, o.tolerance, o.max_iterations);
#ifdef SPMV_HAVE_CUDA
  // The vector kernels go on the operator's stream, after its products.
  return detail::make_device_cg_workspace(n, inverse_diagonal, b_norm, o.tolerance, o.max_iterations, stream);
#else
  throw Unavailable("conjugate_gradients: the " + std::string(to_string(backend)) + " backend is not in this build");
#endif
}

std::string stop_reason(const detail::CgStatus& status) {
  const std::string at = " at iteration " + std::to_string(status.stop_iteration);
  switch (status.state) {
    case detail::CgState::converged:
      return "converged";
    case detail::CgState::breakdown:
      return "breakdown: p'Ap <= 0" + at + ", the matrix is not positive definite";
    case detail::CgState::not_finite:
      return "residual is not finite" + at;
    case detail::CgState::running:
      break;
  }
  return "maximum iterations reached";
}

}  // namespace

template <class T>
CgResult conjugate_gradients(const Csr<T>& a, const std::vector<T>& b, std::vector<T>& x, const CgOptions& o) {
  check_arguments(a.rows, a.cols, b.size(), x.size(), o);
  const index_t n = a.rows;
  if (x.empty()) x.assign(static_cast<std::size_t>(n), T(0));
  const double b_norm = norm_of(b);
  if (!std::isfinite(b_norm)) throw InvalidArgument("conjugate_gradients: b has an entry that is not finite");
  CgResult result;
  if (b_norm == 0) {  // x = 0 solves it exactly
    x.assign(static_cast<std::size_t>(n), T(0));
    result.converged = true;
    result.stop_reason = stop_reason({detail::CgState::converged, 0});
    result.residual_history = {0};
    return result;
  }

  const Clock::time_point setup_start = Clock::now();
  const std::vector<T> inverse_diagonal =
      o.preconditioner == Preconditioner::jacobi ? jacobi_inverse_diagonal(a) : std::vector<T>{};
  PlanOptions plan_options = o.plan;
  plan_options.expected_products = o.max_iterations + 2.0;  // the iterations, r_0 and the final check
  const std::unique_ptr<Operator<T>> op = plan(a, plan_options);
  result.operator_description = op->describe();
  const auto workspace = make_workspace(plan_options.backend, n, inverse_diagonal, b_norm, o, op->stream());
  result.setup_seconds = seconds_since(setup_start);

  Clock::time_point transfer_start = Clock::now();
  workspace->load(b.data(), x.data());
  result.transfer_seconds = seconds_since(transfer_start);

  // Host workspaces know their state at no cost: they check every step.
  const int check_interval = runs_on_device(plan_options.backend) ? o.check_interval : 1;
  const Clock::time_point solve_start = Clock::now();
  op->apply(workspace->solution(), workspace->residual(), T(-1), T(1));  // r = b - A x0
  workspace->start();
  detail::CgStatus status = workspace->status();
  int issued = 0;
  while (status.state == detail::CgState::running && issued < o.max_iterations) {
    ++issued;
    op->apply(workspace->direction(), workspace->product());
    workspace->step(issued);
    if (issued % check_interval == 0 || issued == o.max_iterations) status = workspace->status();
    workspace->next_direction();  // a no-op once stopped
  }
  result.solve_seconds = seconds_since(solve_start);

  // A breakdown at iteration k leaves x_{k-1}; the other stops keep x_k.
  const bool running = status.state == detail::CgState::running;
  const int last_iterate = running ? issued
                           : status.state == detail::CgState::breakdown ? status.stop_iteration - 1
                                                                        : status.stop_iteration;
  result.converged = status.state == detail::CgState::converged;
  result.iterations = last_iterate;
  result.stop_reason = stop_reason(status);
  result.residual_history = workspace->residual_history(last_iterate);
  result.seconds_per_iteration = last_iterate > 0 ? result.solve_seconds / last_iterate : 0;

  transfer_start = Clock::now();
  workspace->store_solution(x.data());
  result.transfer_seconds += seconds_since(transfer_start);

  std::vector<T> residual(b);  // b - A x, outside the timed parts
  op->apply(x.data(), residual.data(), T(-1), T(1));
  result.relative_residual = norm_of(residual) / b_norm;
  return result;
}

template CgResult conjugate_gradients(const Csr<float>&, const std::vector<float>&, std::vector<float>&,
                                      const CgOptions&);
template CgResult conjugate_gradients(const Csr<double>&, const std::vector<double>&, std::vector<double>&,
                                      const CgOptions&);

}  // namespace spmv
