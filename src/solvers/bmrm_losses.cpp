// BMRM's losses on the host: see bmrm_losses.hpp.
#include "solvers/bmrm_losses.hpp"

namespace spmv::bmrm_detail {

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
    const LossPoint point = evaluate_loss(loss, label, f);
    risk += point.value;
    const double coefficient = point.derivative * inverse_m;
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
