// The vectors of one BMRM risk evaluation, where the operator runs: the
// host (bmrm_host.cpp) or the device (bmrm_device.cu). bmrm.cpp runs, per
// iteration,
//   load_weights(w); op->apply(weights(), margins());
//   queue_risk(loss, bias); op->apply_transposed(coefficients(), gradient());
//   wait(); risk = read_results(subgradient);
// so that on the device only w and the subgradient (n values each) and
// three scalars cross PCIe. No CUDA type appears here.
#pragma once

#include <memory>
#include <vector>

#include "solvers/bmrm_losses.hpp"
#include "spmv/types.hpp"

namespace spmv::detail {

template <class T>
class BmrmWorkspace {
 public:
  virtual ~BmrmWorkspace() = default;
  // Operands of the products, where the operator takes them.
  virtual T* weights() = 0;       // w, n entries
  virtual T* margins() = 0;       // X w, m entries
  virtual T* coefficients() = 0;  // c, m entries
  virtual T* gradient() = 0;      // X^T c, n entries
  // weights() = the first n entries of w, in T.
  virtual void load_weights(const std::vector<double>& w) = 0;
  // coefficients() and the sums from margins() (+ bias); on the device
  // queued after the product on the operator's stream.
  virtual void queue_risk(BmrmLoss loss, double bias) = 0;
  // Waits for the queued work (the device's stream; nothing on the host).
  virtual void wait() = 0;
  // The sums of the last queue_risk, and gradient() into `subgradient`'s
  // first n entries (as double).
  virtual bmrm_detail::RiskAndCoefficients read_results(std::vector<double>& subgradient) = 0;
};

// y: the m labels in {-1, +1}; n: the features.
template <class T>
std::unique_ptr<BmrmWorkspace<T>> make_host_bmrm_workspace(const std::vector<T>& y, index_t n);
// The device's: kernels and copies on `stream` (a cudaStream_t, as
// StreamHandle); y is uploaded once. Only in CUDA builds.
template <class T>
std::unique_ptr<BmrmWorkspace<T>> make_device_bmrm_workspace(const std::vector<T>& y, index_t n, void* stream);

}  // namespace spmv::detail
