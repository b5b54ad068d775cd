// BMRM's losses on the host (OpenMP): from the margins f = X w (+ bias) of
// every row, the empirical risk (1/m) sum loss(y_i, f_i), accumulated in
// double, and the coefficients c_i = loss'(y_i, f_i) / m whose transposed
// product X^T c is the risk's subgradient.
#pragma once

#include <cstdint>

#include "spmv/bmrm.hpp"

namespace spmv::bmrm_detail {

struct RiskAndCoefficients {
  double risk = 0;               // (1/m) sum loss
  double coefficient_sum = 0;    // sum c_i: the bias's subgradient component
  std::int64_t correct = 0;      // rows whose sign of f_i + bias (<= 0: negative) is y_i's
};

// y has m entries in {-1, +1}; coefficients receives m values.
template <class T>
RiskAndCoefficients risk_and_coefficients(BmrmLoss loss, const T* margins, double bias,
                                          const T* y, std::int64_t m, T* coefficients);

// loss(y, f) and its derivative in f, in double: the one definition of each
// loss (the tests' finite differences use it too).
double loss_value(BmrmLoss loss, double y, double f);
double loss_derivative(BmrmLoss loss, double y, double f);

}  // namespace spmv::bmrm_detail
