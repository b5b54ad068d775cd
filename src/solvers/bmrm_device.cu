// BMRM's risk evaluation on the device (bmrm_workspace.hpp): w, X w, the
// coefficients and X^T c stay in device memory; per iteration w goes up and
// the subgradient and three sums come down (n values each way).
// Work decomposition of the risk kernel: one thread per row in grid-stride
// loops; margins, labels and coefficients read or written coalesced once;
// the loss (bmrm_losses.hpp, in double, as on the host), the coefficient
// sum and the count of rows classified right summed per thread, per block
// and across blocks by the last block (device_reduction.cuh). The grid is
// fixed by m (DeviceReducer), so the sums are deterministic.
#include "cuda/csr_algorithm.hpp"
#include "cuda/device_buffer.hpp"
#include "solvers/bmrm_workspace.hpp"
#include "solvers/device_reduction.cuh"
#include "solvers/device_vectors.hpp"

namespace spmv::detail {
namespace {

constexpr int block_size = DeviceReducer::block_size;

struct RiskSums {
  double risk;             // (1/m) sum loss
  double coefficient_sum;  // sum c_i
  double correct;          // rows classified right (exact in double below 2^53)
};

template <class T>
__global__ void bmrm_risk_kernel(BmrmLoss loss, std::int64_t m, const T* __restrict__ margins,
                                 const T* __restrict__ y, double bias, T* __restrict__ coefficients,
                                 RiskSums* __restrict__ result, ReductionSlots slots) {
  const double inverse_m = 1.0 / static_cast<double>(m);
  double sums[3] = {0, 0, 0};  // loss, coefficient, correct
  for (std::int64_t i = std::int64_t(blockIdx.x) * block_size + threadIdx.x; i < m;
       i += std::int64_t(gridDim.x) * block_size) {
    const double f = static_cast<double>(margins[i]) + bias;
    const double label = static_cast<double>(y[i]);
    const bmrm_detail::LossPoint point = bmrm_detail::evaluate_loss(loss, label, f);
    const double coefficient = point.derivative * inverse_m;
    coefficients[i] = static_cast<T>(coefficient);
    sums[0] += point.value;
    sums[1] += coefficient;
    sums[2] += (f > 0) == (label > 0) ? 1.0 : 0.0;  // as predict: f <= 0 gives the negative label
  }
  double totals[3];
  if (grid_sums<block_size>(sums, slots, totals) && threadIdx.x == 0)
    *result = {totals[0] * inverse_m, totals[1], totals[2]};
}

template <class T>
class DeviceBmrmWorkspace final : public BmrmWorkspace<T> {
 public:
  DeviceBmrmWorkspace(const std::vector<T>& y, index_t n, cudaStream_t stream)
      : m_(static_cast<std::int64_t>(y.size())), n_(static_cast<std::size_t>(n)), stream_(stream),
        reducer_(3, stream), y_(y.size(), "BMRM labels"), weights_(n_, "BMRM weights"),
        margins_(y.size(), "BMRM margins"), coefficients_(y.size(), "BMRM loss coefficients"),
        gradient_(n_, "BMRM subgradient"), sums_(1, "BMRM risk sums"),
        staged_weights_(n_, "BMRM weights staging"), staged_gradient_(n_, "BMRM subgradient staging"),
        staged_sums_(1, "BMRM risk sums staging") {
    y_.upload(y.data(), y.size());
  }

  T* weights() override { return weights_.data(); }
  T* margins() override { return margins_.data(); }
  T* coefficients() override { return coefficients_.data(); }
  T* gradient() override { return gradient_.data(); }

  void load_weights(const std::vector<double>& w) override {
    for (std::size_t j = 0; j < n_; ++j) staged_weights_.data()[j] = static_cast<T>(w[j]);
    SPMV_CUDA_CHECK(cudaMemcpyAsync(weights_.data(), staged_weights_.data(), n_ * sizeof(T),
                                    cudaMemcpyHostToDevice, stream_));
    SPMV_CUDA_CHECK(cudaStreamSynchronize(stream_));  // timed as a copy by the caller
  }

  void queue_risk(BmrmLoss loss, double bias) override {
    bmrm_risk_kernel<<<reducer_.grid_for(m_), block_size, 0, stream_>>>(
        loss, m_, margins_.data(), y_.data(), bias, coefficients_.data(), sums_.data(), reducer_.slots());
    SPMV_LAUNCH_CHECK();
  }

  void wait() override { SPMV_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

  bmrm_detail::RiskAndCoefficients read_results(std::vector<double>& subgradient) override {
    SPMV_CUDA_CHECK(cudaMemcpyAsync(staged_gradient_.data(), gradient_.data(), n_ * sizeof(T),
                                    cudaMemcpyDeviceToHost, stream_));
    SPMV_CUDA_CHECK(cudaMemcpyAsync(staged_sums_.data(), sums_.data(), sizeof(RiskSums),
                                    cudaMemcpyDeviceToHost, stream_));
    SPMV_CUDA_CHECK(cudaStreamSynchronize(stream_));
    for (std::size_t j = 0; j < n_; ++j) subgradient[j] = static_cast<double>(staged_gradient_.data()[j]);
    const RiskSums& sums = *staged_sums_.data();
    return {sums.risk, sums.coefficient_sum, static_cast<std::int64_t>(sums.correct)};
  }

 private:
  std::int64_t m_;
  std::size_t n_;
  cudaStream_t stream_;
  DeviceReducer reducer_;
  DeviceBuffer<T> y_, weights_, margins_, coefficients_, gradient_;
  DeviceBuffer<RiskSums> sums_;
  PinnedBuffer<T> staged_weights_, staged_gradient_;
  PinnedBuffer<RiskSums> staged_sums_;
};

}  // namespace

template <class T>
std::unique_ptr<BmrmWorkspace<T>> make_device_bmrm_workspace(const std::vector<T>& y, index_t n, void* stream) {
  return std::make_unique<DeviceBmrmWorkspace<T>>(y, n, static_cast<cudaStream_t>(stream));
}

template std::unique_ptr<BmrmWorkspace<float>> make_device_bmrm_workspace(const std::vector<float>&, index_t,
                                                                          void*);
template std::unique_ptr<BmrmWorkspace<double>> make_device_bmrm_workspace(const std::vector<double>&, index_t,
                                                                           void*);

}  // namespace spmv::detail
