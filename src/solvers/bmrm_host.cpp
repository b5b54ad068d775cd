// BMRM's risk evaluation on the host (bmrm_workspace.hpp): the vectors are
// host vectors and the loss is bmrm_losses.cpp's OpenMP loop, the reference
// that the device's kernel is tested against.
#include <algorithm>

#include "solvers/bmrm_workspace.hpp"

namespace spmv::detail {
namespace {

template <class T>
class HostBmrmWorkspace final : public BmrmWorkspace<T> {
 public:
  HostBmrmWorkspace(const std::vector<T>& y, index_t n)
      : y_(y), weights_(static_cast<std::size_t>(n)), margins_(y.size()), coefficients_(y.size()),
        gradient_(static_cast<std::size_t>(n)) {}

  T* weights() override { return weights_.data(); }
  T* margins() override { return margins_.data(); }
  T* coefficients() override { return coefficients_.data(); }
  T* gradient() override { return gradient_.data(); }

  void load_weights(const std::vector<double>& w) override {
    std::transform(w.begin(), w.begin() + weights_.size(), weights_.begin(),
                   [](double value) { return static_cast<T>(value); });
  }

  void queue_risk(BmrmLoss loss, double bias) override {
    sums_ = bmrm_detail::risk_and_coefficients(loss, margins_.data(), bias, y_.data(),
                                               static_cast<std::int64_t>(y_.size()), coefficients_.data());
  }

  void wait() override {}

  bmrm_detail::RiskAndCoefficients read_results(std::vector<double>& subgradient) override {
    std::copy(gradient_.begin(), gradient_.end(), subgradient.begin());
    return sums_;
  }

 private:
  const std::vector<T>& y_;
  std::vector<T> weights_, margins_, coefficients_, gradient_;
  bmrm_detail::RiskAndCoefficients sums_;
};

}  // namespace

template <class T>
std::unique_ptr<BmrmWorkspace<T>> make_host_bmrm_workspace(const std::vector<T>& y, index_t n) {
  return std::make_unique<HostBmrmWorkspace<T>>(y, n);
}

template std::unique_ptr<BmrmWorkspace<float>> make_host_bmrm_workspace(const std::vector<float>&, index_t);
template std::unique_ptr<BmrmWorkspace<double>> make_host_bmrm_workspace(const std::vector<double>&, index_t);

}  // namespace spmv::detail
