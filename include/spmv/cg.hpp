// Conjugate gradients (CG) for symmetric positive definite systems A x = b,
// optionally with the Jacobi preconditioner M = diag(A).
//
//   spmv::CgOptions options;
//   options.plan.backend = spmv::Backend::cuda;
//   options.preconditioner = spmv::Preconditioner::jacobi;
//   std::vector<double> x;                       // empty: start from zero
//   spmv::CgResult r = spmv::conjugate_gradients(a, b, x, options);
//   if (!r.converged) std::cerr << r.stop_reason << "\n";
//
// The matrix product goes through the public operator API (plan(), with the
// selector choosing the kernel for max_iterations products); the vector work
// runs where the operator runs: OpenMP loops for the host backends, fused
// kernels on the device for cuda and cusparse (one pass updates x and r and
// sums |r|^2 and r'z; one pass forms the next direction), with the step
// lengths kept on the device. Scalars are accumulated in double for f32 too.
#pragma once

#include <string>
#include <vector>

#include "spmv/matrix.hpp"
#include "spmv/operator.hpp"

namespace spmv {

enum class Preconditioner { none, jacobi };

const char* to_string(Preconditioner preconditioner);
Preconditioner preconditioner_from_string(const std::string& name);  // throws InvalidArgument

struct CgOptions {
  // Stop when |b - A x_k| <= tolerance * |b| (the recurrence's residual).
  double tolerance = 1e-8;
  int max_iterations = 1000;
  Preconditioner preconditioner = Preconditioner::none;
  // How the operator is planned. expected_products is replaced by
  // max_iterations + 2 (the products a solve may run).
  PlanOptions plan;
  // Device solves read the convergence state back every this many
  // iterations (one small copy); the device stops updating x once converged,
  // so the result is the same for any interval, and at most interval - 1
  // products run after convergence. Host solves check every iteration.
  int check_interval = 4;
};

struct CgResult {
  bool converged = false;
  int iterations = 0;
  // Why the solve stopped: "converged", "maximum iterations reached",
  // "breakdown: p'Ap <= 0 at iteration K, the matrix is not positive
  // definite", "residual is not finite at iteration K".
  std::string stop_reason;
  // |r_k| / |b| for k = 0..iterations, as the recurrence computed them.
  std::vector<double> residual_history;
  // |b - A x| / |b| recomputed from the returned x (one more product).
  double relative_residual = 0;
  double setup_seconds = 0;      // plan (analysis, choice, build, upload), diagonal, vectors
  double transfer_seconds = 0;   // b and x copied to the device and x back (0 on the host)
  double solve_seconds = 0;      // initial residual and the iterations, x left where it ran
  double seconds_per_iteration = 0;  // solve_seconds / iterations
  OperatorDescription operator_description;
};

// Solves A x = b. `x` is the initial guess on entry (empty: zeros) and the
// last iterate on exit, also when the solve did not converge. Throws
// InvalidArgument when A is not square, when b or x do not have A's size,
// for tolerance <= 0 or max_iterations < 0, and for Jacobi when a diagonal
// entry is zero, negative or missing (A is then not positive definite).
// A breakdown (p'Ap <= 0: A is not positive definite) or a residual that is
// not finite ends the solve with converged == false and the reason.
template <class T>
CgResult conjugate_gradients(const Csr<T>& a, const std::vector<T>& b, std::vector<T>& x,
                             const CgOptions& options = {});

}  // namespace spmv
