// CG's vector work on the host for the cpu and reference backends: OpenMP
// loops over the entries, sums in double (fixed order for a fixed thread
// count), the state decided on the host as each step ends.
#include <algorithm>
#include <cmath>

#include "solvers/cg_workspace.hpp"

namespace spmv::detail {
namespace {

template <class T>
class HostCgWorkspace final : public CgWorkspace<T> {
 public:
  HostCgWorkspace(index_t n, const std::vector<T>& inverse_diagonal, double b_norm, double tolerance,
                  int max_iterations)
      : n_(n), inverse_diagonal_(inverse_diagonal), b_norm_(b_norm), tolerance_(tolerance),
        x_(n), r_(n), p_(n), q_(n) {
    history_.reserve(static_cast<std::size_t>(max_iterations) + 1);
  }

  T* solution() override { return x_.data(); }
  T* residual() override { return r_.data(); }
  T* direction() override { return p_.data(); }
  T* product() override { return q_.data(); }

  void load(const T* b, const T* x0) override {
    std::copy(b, b + n_, r_.begin());
    std::copy(x0, x0 + n_, x_.begin());
  }

  void start() override {
    double rr = 0, rz = 0;
#pragma omp parallel for reduction(+ : rr, rz) schedule(static)
    for (index_t i = 0; i < n_; ++i) {
      const T z = preconditioned(i);
      p_[i] = z;
      rr += double(r_[i]) * double(r_[i]);
      rz += double(r_[i]) * double(z);
    }
    rz_ = rz;
    record_residual(rr, 0);
  }

  void step(int iteration) override {
    double pq = 0;
#pragma omp parallel for reduction(+ : pq) schedule(static)
    for (index_t i = 0; i < n_; ++i) pq += double(p_[i]) * double(q_[i]);
    if (!(pq > 0)) {
      stop(std::isnan(pq) ? CgState::not_finite : CgState::breakdown, iteration);
      return;
    }
    const T alpha = T(rz_ / pq);
    double rr = 0, rz = 0;
#pragma omp parallel for reduction(+ : rr, rz) schedule(static)
    for (index_t i = 0; i < n_; ++i) {
      x_[i] += alpha * p_[i];
      r_[i] -= alpha * q_[i];
      rr += double(r_[i]) * double(r_[i]);
      rz += double(r_[i]) * double(preconditioned(i));
    }
    beta_ = rz / rz_;
    rz_ = rz;
    record_residual(rr, iteration);
  }

  void next_direction() override {
    if (status_.state != CgState::running) return;
    const T beta = T(beta_);
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < n_; ++i) p_[i] = preconditioned(i) + beta * p_[i];
  }

  CgStatus status() override { return status_; }
  std::vector<double> residual_history(int last_iteration) override {
    return {history_.begin(), history_.begin() + last_iteration + 1};
  }
  void store_solution(T* x) override { std::copy(x_.begin(), x_.end(), x); }

 private:
  T preconditioned(index_t i) const { return inverse_diagonal_.empty() ? r_[i] : r_[i] * inverse_diagonal_[i]; }

  void stop(CgState state, int iteration) { status_ = {state, iteration}; }

  void record_residual(double rr, int iteration) {
    const double norm = std::sqrt(rr);
    history_.push_back(norm / b_norm_);
    if (!std::isfinite(norm))
      stop(CgState::not_finite, iteration);
    else if (norm <= tolerance_ * b_norm_)
      stop(CgState::converged, iteration);
  }

  index_t n_;
  std::vector<T> inverse_diagonal_;
  double b_norm_, tolerance_;
  std::vector<T> x_, r_, p_, q_;
  double rz_ = 0, beta_ = 0;
  std::vector<double> history_;
  CgStatus status_;
};

}  // namespace

template <class T>
std::unique_ptr<CgWorkspace<T>> make_host_cg_workspace(index_t n, const std::vector<T>& inverse_diagonal,
                                                       double b_norm, double tolerance, int max_iterations) {
  return std::make_unique<HostCgWorkspace<T>>(n, inverse_diagonal, b_norm, tolerance, max_iterations);
}

template std::unique_ptr<CgWorkspace<float>> make_host_cg_workspace(index_t, const std::vector<float>&, double,
                                                                    double, int);
template std::unique_ptr<CgWorkspace<double>> make_host_cg_workspace(index_t, const std::vector<double>&, double,
                                                                     double, int);

}  // namespace spmv::detail
