// Pairwise (SMO) solver of BMRM's bundle dual: see bmrm_qp.hpp.
#include "solvers/bmrm_qp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace spmv::bmrm_detail {

void BundleDual::add_plane(double offset, const std::vector<double>& gram_row) {
  const int k = size();
  for (int l = 0; l < k; ++l) gram_[l].push_back(gram_row[l]);
  gram_.emplace_back(gram_row.begin(), gram_row.begin() + k + 1);
  offsets_.push_back(offset);
  alpha_.push_back(k == 0 ? 1.0 : 0.0);
  recompute_h_alpha();
}

void BundleDual::recompute_h_alpha() {
  const int k = size();
  h_alpha_.assign(k, 0.0);
  for (int l = 0; l < k; ++l) {
    if (alpha_[l] == 0) continue;
    const std::vector<double>& row = gram_[l];
    for (int i = 0; i < k; ++i) h_alpha_[i] += alpha_[l] * row[i];
  }
  for (double& value : h_alpha_) value /= lambda_;
}

double BundleDual::dual_value() const {
  double value = 0;
  for (int i = 0; i < size(); ++i) value += alpha_[i] * (offsets_[i] - 0.5 * h_alpha_[i]);
  return value;
}

double BundleDual::gap() const {
  double weighted = 0;
  double lowest = std::numeric_limits<double>::infinity();
  for (int i = 0; i < size(); ++i) {
    weighted += alpha_[i] * gradient(i);
    lowest = std::min(lowest, gradient(i));
  }
  return weighted - lowest;
}

bool BundleDual::solve_on(const std::vector<int>& working, const std::vector<double>& rhs,
                          std::vector<double>& x) const {
  // Row-major augmented system, eliminated with partial pivoting.
  const int s = static_cast<int>(working.size());
  const int size = s + 1;
  std::vector<double> system(static_cast<std::size_t>(size) * (size + 1));
  auto at = [&](int row, int column) -> double& { return system[static_cast<std::size_t>(row) * (size + 1) + column]; };
  double largest = 0;
  for (int r = 0; r < s; ++r) {
    for (int c = 0; c < s; ++c) {
      at(r, c) = h(working[r], working[c]);
      largest = std::max(largest, std::abs(at(r, c)));
    }
    at(r, s) = -1;
    at(r, size) = rhs[r];
  }
  for (int c = 0; c < s; ++c) at(s, c) = 1;
  at(s, s) = 0;
  at(s, size) = 1;
  const double singular = 1e-12 * std::max(largest, 1.0);
  for (int column = 0; column < size; ++column) {
    int pivot = column;
    for (int r = column + 1; r < size; ++r)
      if (std::abs(at(r, column)) > std::abs(at(pivot, column))) pivot = r;
    if (!(std::abs(at(pivot, column)) > singular)) return false;
    if (pivot != column)
      for (int c = column; c <= size; ++c) std::swap(at(pivot, c), at(column, c));
    for (int r = column + 1; r < size; ++r) {
      const double factor = at(r, column) / at(column, column);
      if (factor == 0) continue;
      for (int c = column; c <= size; ++c) at(r, c) -= factor * at(column, c);
    }
  }
  std::vector<double> solution(size);
  for (int r = size - 1; r >= 0; --r) {
    double sum = at(r, size);
    for (int c = r + 1; c < size; ++c) sum -= at(r, c) * solution[c];
    solution[r] = sum / at(r, r);
  }
  x.assign(solution.begin(), solution.begin() + s);
  return std::all_of(x.begin(), x.end(), [](double value) { return std::isfinite(value); });
}

bool BundleDual::solve_by_active_set(double tolerance) {
  const int k = size();
  std::vector<int> working;
  for (int i = 0; i < k; ++i)
    if (alpha_[i] > 0) working.push_back(i);
  std::vector<double> beta, rhs;
  int entered = -1;  // the plane that joined the working set last
  // The pairwise steps continue from alpha with H alpha up to date.
  auto give_up = [this] {
    recompute_h_alpha();
    return false;
  };
  // Moves alpha by step * direction (over `planes`), drops `blocking` and
  // any other plane left without weight (but the one that just entered),
  // and puts alpha back onto the simplex after rounding.
  auto move = [&](const std::vector<int>& planes, const std::vector<double>& direction, double step,
                  int blocking) {
    for (std::size_t p = 0; p < planes.size(); ++p) {
      double& weight = alpha_[planes[p]];
      weight = planes[p] == blocking ? 0.0 : std::max(0.0, weight + step * direction[p]);
    }
    double total = 0;
    for (int plane : working) total += alpha_[plane];
    for (int plane : working) alpha_[plane] /= total;
    working.erase(std::remove_if(working.begin(), working.end(),
                                 [&](int plane) { return alpha_[plane] == 0 && plane != entered; }),
                  working.end());
  };
  // alpha is optimal over its support after the previous solve (H alpha is
  // up to date): the first round starts by letting a plane enter.
  bool optimal_on_working = true;
  // Each round adds or removes one plane; a sound run needs a few per
  // iteration of BMRM, the cap stops cycling on degenerate bundles.
  const int max_rounds = 2 * k + 50;
  for (int round = 0; round < max_rounds; ++round) {
    if (optimal_on_working) {
      if (gap() <= tolerance) return true;
      int entering = 0;
      for (int i = 1; i < k; ++i)
        if (gradient(i) < gradient(entering)) entering = i;
      // In F already: alpha was not optimal over F (the pairwise steps left
      // it last time) at the first round, a rounding stall later.
      if (std::find(working.begin(), working.end(), entering) == working.end()) {
        working.push_back(entering);
        entered = entering;
      } else if (round > 0) {
        return false;
      }
      optimal_on_working = false;
    }
    rhs.resize(working.size());
    for (std::size_t p = 0; p < working.size(); ++p) rhs[p] = offsets_[working[p]];
    if (!solve_on(working, rhs, beta)) {
      // Singular: the entered plane j is an affine combination c of the
      // others in feature space (H' c - nu 1 = H'_j, 1^T c = 1). Along
      // e_j - c, H's quadratic term is constant and q falls at the rate
      // g_j - mu < 0: go until a plane of c's support runs out of weight.
      if (entered < 0 || working.back() != entered) return give_up();
      const std::vector<int> others(working.begin(), working.end() - 1);
      rhs.resize(others.size());
      for (std::size_t p = 0; p < others.size(); ++p) rhs[p] = h(others[p], entered);
      if (!solve_on(others, rhs, beta)) return give_up();
      double step = std::numeric_limits<double>::infinity();
      int blocking = -1;
      for (std::size_t p = 0; p < others.size(); ++p)
        if (beta[p] > 0 && alpha_[others[p]] / beta[p] < step) {
          step = alpha_[others[p]] / beta[p];
          blocking = others[p];
        }
      if (blocking < 0) return give_up();
      for (double& coefficient : beta) coefficient = -coefficient;
      alpha_[entered] += step;
      move(others, beta, step, blocking);
      continue;
    }
    // Move alpha_F towards beta as far as every weight stays >= 0.
    double step = 1;
    int blocking = -1;
    for (std::size_t p = 0; p < working.size(); ++p) {
      const double current = alpha_[working[p]];
      if (beta[p] < 0 && current / (current - beta[p]) < step) {
        step = current / (current - beta[p]);
        blocking = working[p];
      }
    }
    // The plane that just entered leaving at once: a degenerate bundle.
    if (blocking >= 0 && blocking == entered && alpha_[entered] == 0) return give_up();
    for (std::size_t p = 0; p < working.size(); ++p) beta[p] -= alpha_[working[p]];  // the direction
    move(std::vector<int>(working), beta, step, blocking);
    if (blocking >= 0) continue;
    recompute_h_alpha();
    optimal_on_working = true;
  }
  return give_up();
}

std::int64_t BundleDual::solve(double tolerance) {
  if (solve_by_active_set(tolerance)) return 0;
  return solve_by_pairwise_steps(tolerance);
}

std::int64_t BundleDual::solve_by_pairwise_steps(double tolerance) {
  const int k = size();
  std::int64_t steps = 0;
  // Each step strictly decreases q; the cap only guards against rounding
  // stalls far beyond anything a bundle needs.
  const std::int64_t max_steps = 1000 + std::int64_t{200} * k * k;
  while (steps < max_steps) {
    // Receiver: the plane of least gradient (its weight may always grow).
    int receiver = 0;
    double weighted = 0;
    for (int i = 0; i < k; ++i) {
      weighted += alpha_[i] * gradient(i);
      if (gradient(i) < gradient(receiver)) receiver = i;
    }
    const double lowest = gradient(receiver);
    if (weighted - lowest <= tolerance) break;
    // Donor: among planes with weight and a larger gradient, the one whose
    // exact line step decreases q the most: (g_j - g_i)^2 / (2 curvature).
    constexpr double tiny_curvature = 1e-12;
    int donor = -1;
    double best_decrease = 0;
    const double h_rr = h(receiver, receiver);
    for (int j = 0; j < k; ++j) {
      if (alpha_[j] <= 0) continue;
      const double difference = gradient(j) - lowest;
      if (difference <= 0) continue;
      const double curvature = std::max(h_rr + h(j, j) - 2 * h(receiver, j), tiny_curvature);
      const double step = std::min(alpha_[j], difference / curvature);
      const double decrease = step * (difference - 0.5 * curvature * step);
      if (decrease > best_decrease) {
        best_decrease = decrease;
        donor = j;
      }
    }
    if (donor < 0) break;  // no plane can give weight: optimal up to rounding
    const double difference = gradient(donor) - lowest;
    const double curvature =
        std::max(h_rr + h(donor, donor) - 2 * h(receiver, donor), tiny_curvature);
    // All of the donor's weight when the line minimum lies beyond it (its
    // weight is then exactly 0, not a rounding residue).
    const double step = std::min(alpha_[donor], difference / curvature);
    if (step <= 0) break;
    if (step == alpha_[donor]) {
      alpha_[receiver] += alpha_[donor];
      alpha_[donor] = 0;
    } else {
      alpha_[receiver] += step;
      alpha_[donor] -= step;
    }
    const std::vector<double>& to = gram_[receiver];
    const std::vector<double>& from = gram_[donor];
    const double scaled = step / lambda_;
    for (int i = 0; i < k; ++i) h_alpha_[i] += scaled * (to[i] - from[i]);
    ++steps;
  }
  return steps;
}

}  // namespace spmv::bmrm_detail
