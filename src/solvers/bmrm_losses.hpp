// BMRM's losses: loss(y, f) and its derivative in f, defined once for the
// host and the device (SPMV_HOST_DEVICE), and the host's risk evaluation
// (OpenMP): from the margins f = X w (+ bias) of every row, the empirical
// risk (1/m) sum loss(y_i, f_i), accumulated in double, and the
// coefficients c_i = loss'(y_i, f_i) / m whose transposed product X^T c is
// the risk's subgradient. The device's is in bmrm_device.cu.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/host_device.hpp"
#include "spmv/bmrm.hpp"

namespace spmv::bmrm_detail {

struct LossPoint {
  double value = 0;
  double derivative = 0;  // in f
};

// In double, without overflow for either sign of y f.
SPMV_HOST_DEVICE LossPoint evaluate_loss(BmrmLoss loss, double y, double f) {
  const double margin = y * f;
  const double violation = margin < 1 ? 1 - margin : 0.0;
  switch (loss) {
    case BmrmLoss::hinge:
      return {violation, margin < 1 ? -y : 0.0};
    case BmrmLoss::squared_hinge:
      return {violation * violation, -2 * y * violation};
    case BmrmLoss::logistic: {
      // log(1 + e^-z) and -y / (1 + e^z), z = y f, with e^-|z| only.
      const double e = exp(-fabs(margin));
      const double value = margin > 0 ? log1p(e) : -margin + log1p(e);
      return {value, margin > 0 ? -y * e / (1 + e) : -y / (1 + e)};
    }
  }
  return {};
}

inline double loss_value(BmrmLoss loss, double y, double f) { return evaluate_loss(loss, y, f).value; }
inline double loss_derivative(BmrmLoss loss, double y, double f) { return evaluate_loss(loss, y, f).derivative; }

struct RiskAndCoefficients {
  double risk = 0;               // (1/m) sum loss
  double coefficient_sum = 0;    // sum c_i: the bias's subgradient component
  std::int64_t correct = 0;      // rows whose sign of f_i + bias (<= 0: negative) is y_i's
};

// y has m entries in {-1, +1}; coefficients receives m values.
template <class T>
RiskAndCoefficients risk_and_coefficients(BmrmLoss loss, const T* margins, double bias,
                                          const T* y, std::int64_t m, T* coefficients);

}  // namespace spmv::bmrm_detail
