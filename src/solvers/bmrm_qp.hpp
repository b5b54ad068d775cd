// The dual of BMRM's bundle subproblem (see include/spmv/bmrm.hpp):
//
//   minimise  q(alpha) = 1/2 alpha^T H alpha - b^T alpha   over the simplex,
//   H = Q / lambda,  Q the planes' Gram matrix,
//
// i.e. maximise D(alpha) = -q(alpha). Pairwise (SMO) steps move weight from
// one plane to another along e_i - e_j, the pair chosen by the
// second-order rule of Fan, Chen & Lin (2005); each step is exact along its
// line and costs O(k). H alpha is kept up to date step by step and recomputed
// whenever a plane is added (O(k^2)), so rounding does not accumulate.
#pragma once

#include <cstdint>
#include <vector>

namespace spmv::bmrm_detail {

class BundleDual {
 public:
  explicit BundleDual(double lambda) : lambda_(lambda) {}

  // Adds plane k = size(): offset b and its Gram row Q_kl = a_k . a_l for
  // l = 0..k (its own squared norm last). Its weight starts at 0 (1 for
  // the first plane).
  void add_plane(double offset, const std::vector<double>& gram_row);

  // Pairwise steps until the dual gap (the bundle model's primal value at
  // w(alpha) minus D(alpha), = alpha.grad - min grad) is at most `tolerance`.
  // Returns the number of steps taken.
  std::int64_t solve(double tolerance);

  int size() const { return static_cast<int>(offsets_.size()); }
  const std::vector<double>& alpha() const { return alpha_; }
  double dual_value() const;  // D(alpha): a lower bound of min J
  double gap() const;         // alpha.grad - min grad >= 0 (up to rounding)

 private:
  double gradient(int i) const { return h_alpha_[i] - offsets_[i]; }
  double h(int i, int j) const { return gram_[i][j] / lambda_; }
  void recompute_h_alpha();

  double lambda_;
  std::vector<double> offsets_;
  std::vector<std::vector<double>> gram_;  // full symmetric rows, grown by one column per plane
  std::vector<double> alpha_;
  std::vector<double> h_alpha_;  // H alpha
};

}  // namespace spmv::bmrm_detail
