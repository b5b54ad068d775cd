// The vectors and scalars of one CG solve, where the operator runs: the
// host (OpenMP loops, cg_host.cpp) or the device (fused kernels,
// cg_device.cu). cg.cpp runs the iteration over this interface and the
// public Operator; no CUDA type appears here.
#pragma once

#include <memory>
#include <vector>

#include "spmv/types.hpp"

namespace spmv::detail {

enum class CgState : int { running = 0, converged = 1, breakdown = 2, not_finite = 3 };

// Where the iteration stands: the state and the iteration that ended it.
struct CgStatus {
  CgState state = CgState::running;
  int stop_iteration = 0;
};

// Preconditioned CG (z = M^-1 r with M = diag(A), or z = r):
//   start:  z = M^-1 r, p = z, rz = r'z; converged when |r| <= tol |b|
//   step k: alpha = rz / p'q (q = A p; p'q <= 0 is a breakdown),
//           x += alpha p, r -= alpha q, z = M^-1 r, beta = r'z / rz, rz = r'z
//   next:   p = z + beta p
// z is never stored: it is formed from r and the inverse diagonal where read.
template <class T>
class CgWorkspace {
 public:
  virtual ~CgWorkspace() = default;
  // Operands of the products, where the operator takes them.
  virtual T* solution() = 0;   // x
  virtual T* residual() = 0;   // r
  virtual T* direction() = 0;  // p
  virtual T* product() = 0;    // q
  // x = x0 and r = b (host vectors); the caller then forms r = b - A x.
  virtual void load(const T* b, const T* x0) = 0;
  virtual void start() = 0;
  virtual void step(int iteration) = 0;
  virtual void next_direction() = 0;
  // The state; on the device, a copy back and a wait.
  virtual CgStatus status() = 0;
  // |r_k| / |b| for k = 0..last_iteration.
  virtual std::vector<double> residual_history(int last_iteration) = 0;
  virtual void store_solution(T* x) = 0;  // x to the host vector
};

// `inverse_diagonal`: empty for no preconditioner, else 1 / a_ii.
// `b_norm`: |b| > 0. `max_iterations` bounds the history kept.
template <class T>
std::unique_ptr<CgWorkspace<T>> make_host_cg_workspace(index_t n, const std::vector<T>& inverse_diagonal,
                                                       double b_norm, double tolerance, int max_iterations);
// The device's: kernels on `stream` (a cudaStream_t, as StreamHandle). Only in CUDA builds.
template <class T>
std::unique_ptr<CgWorkspace<T>> make_device_cg_workspace(index_t n, const std::vector<T>& inverse_diagonal,
                                                         double b_norm, double tolerance, int max_iterations,
                                                         void* stream);

}  // namespace spmv::detail
