// BMRM's losses on the host: see bmrm_losses.hpp.
#include "solvers/bmrm_losses.hpp"

#include <algorithm>
#include <cmath>

namespace spmv::bmrm_detail {

double loss_value(BmrmLoss loss, double y, double f) {
  const double margin = y * f;
  switch (loss) {
    case BmrmLoss::hinge:
      return std::max(0.0, 1 - margin);
    case BmrmLoss::squared_hinge: {
      const double violation = std::max(0.0, 1 - margin);
      return violation * violation;
    }
    case BmrmLoss::logistic:
      // log(1 + e^-z) without overflow for either sign of z.
      return margin > 0 ? std::log1p(std::exp(-margin)) : -margin + std::log1p(std::exp(margin));
  }
  return 0;
}

double loss_derivative(BmrmLoss loss, double y, double f) {
  const double margin = y * f;
  switch (loss) {
    case BmrmLoss::hinge:
      return margin < 1 ? -y : 0.0;
    case BmrmLoss::squared_hinge:
      return margin < 1 ? -2 * y * (1 - margin) : 0.0;
    case BmrmLoss::logistic: {
      // -y / (1 + e^z), written so that neither exponential overflows.
      if (margin > 0) {
        const double e = std::exp(-margin);
        return -y * e / (1 + e);
      }
      return -y / (1 + std::exp(margin));
    }
  }
  return 0;
}

template <class T>
RiskAndCoefficients risk_and_coefficients(BmrmLoss loss, const T* margins, double bias,
                                          const T* y, std::int64_t m, T* coefficients) {
  double risk = 0;
  double coefficient_sum = 0;
  std::int64_t correct = 0;
  const double inverse_m = 1.0 / static_cast<double>(m);
#pragma omp parallel for reduction(+ : risk, coefficient_sum, correct) schedule(static)
  for (std::int64_t i = 0; i < m; ++i) {
    const double f = static_cast<double>(margins[i]) + bias;
    const double label = static_cast<double>(y[i]);
    risk += loss_value(loss, label, f);
    const double coefficient = loss_derivative(loss, label, f) * inverse_m;
    coefficients[i] = static_cast<T>(coefficient);
    coefficient_sum += coefficient;
    correct += (f > 0) == (label > 0) ? 1 : 0;  // as predict: f <= 0 gives the negative label
  }
  return {risk * inverse_m, coefficient_sum, correct};
}

template RiskAndCoefficients risk_and_coefficients<float>(BmrmLoss, const float*, double,
                                                          const float*, std::int64_t, float*);
template RiskAndCoefficients risk_and_coefficients<double>(BmrmLoss, const double*, double,
                                                           const double*, std::int64_t, double*);

}  // namespace spmv::bmrm_detail
