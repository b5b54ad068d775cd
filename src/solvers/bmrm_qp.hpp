// The dual of BMRM's bundle subproblem (see include/spmv/bmrm.hpp):
//
//   minimise  q(alpha) = 1/2 alpha^T H alpha - b^T alpha   over the simplex,
//   H = Q / lambda,  Q the planes' Gram matrix,
//
// i.e. maximise D(alpha) = -q(alpha). Two methods, the second finishing
// what the first leaves:
//
// 1. A primal active-set method on the working set F of planes with weight
//    (warm-started from the previous alpha): the equality-constrained
//    minimum over F (H_FF beta - mu 1 = b_F, 1^T beta = 1, a dense
//    (|F|+1)-square solve by partial pivoting) is taken when it stays
//    non-negative; otherwise alpha moves towards it until a weight reaches 0
//    and that plane leaves F. At a non-negative minimum the plane of least
//    gradient enters F unless the gap is already below the tolerance. When
//    the entering plane is an affine combination of F's (singular system:
//    more planes than features), q falls linearly along that combination
//    and alpha moves along it until a plane leaves F. Each
//    solve costs O(|F|^3) and each gradient refresh O(k |F|); the support
//    stays small (a9a: ~50 planes of ~2,000), so the QP no longer grows with
//    k^2 steps. It gives up (a singular subproblem, cycling) and leaves its
//    feasible alpha to method 2.
// 2. Pairwise (SMO) steps move weight from one plane to another along
//    e_i - e_j, the pair chosen by the second-order rule of Fan, Chen & Lin
//    (2005); each step is exact along its line and costs O(k). H alpha is
//    kept up to date step by step.
// H alpha is recomputed whenever a plane is added and after each
// active-set solve, so rounding does not accumulate.
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

  // Solves until the dual gap (the bundle model's primal value at w(alpha)
  // minus D(alpha), = alpha.grad - min grad) is at most `tolerance`: the
  // active-set method, then pairwise steps if it gave up. Returns the number
  // of pairwise steps taken (0 when the active-set method succeeded).
  std::int64_t solve(double tolerance);

  int size() const { return static_cast<int>(offsets_.size()); }
  const std::vector<double>& alpha() const { return alpha_; }
  double dual_value() const;  // D(alpha): a lower bound of min J
  double gap() const;         // alpha.grad - min grad >= 0 (up to rounding)

 private:
  double gradient(int i) const { return h_alpha_[i] - offsets_[i]; }
  double h(int i, int j) const { return gram_[i][j] / lambda_; }
  void recompute_h_alpha();
  // Method 1; true when it reached the tolerance.
  bool solve_by_active_set(double tolerance);
  // Solves [H_FF -1; 1^T 0] [x; nu] = [rhs; 1] over F = working (rhs = b_F:
  // x minimises q over the planes of F); false when it is singular.
  bool solve_on(const std::vector<int>& working, const std::vector<double>& rhs, std::vector<double>& x) const;
  std::int64_t solve_by_pairwise_steps(double tolerance);

  double lambda_;
  std::vector<double> offsets_;
  std::vector<std::vector<double>> gram_;  // full symmetric rows, grown by one column per plane
  std::vector<double> alpha_;
  std::vector<double> h_alpha_;  // H alpha
};

}  // namespace spmv::bmrm_detail
