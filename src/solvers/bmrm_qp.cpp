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

std::int64_t BundleDual::solve(double tolerance) {
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
