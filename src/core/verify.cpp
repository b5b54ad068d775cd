#include "spmv/verify.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace spmv {

double default_tolerance_factor(std::size_t max_row_length) {
  return std::max(8.0, 4.0 * std::sqrt(static_cast<double>(max_row_length) + 1.0));
}

template <class T>
VerifyResult verify(const T* y, const double* reference, const double* scale, std::size_t n,
                    double tolerance_factor) {
  VerifyResult result;
  const double eps = std::numeric_limits<T>::epsilon();
  const double c = tolerance_factor > 0 ? tolerance_factor : default_tolerance_factor(0);
  double max_scale = 0;
  for (std::size_t i = 0; i < n; ++i) max_scale = std::max(max_scale, scale[i]);
  double max_error = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double value = static_cast<double>(y[i]);
    // A product beyond the range of T is correctly an infinity of its sign
    // (finite values whose sum overflows are not an error of the kernel).
    const bool same_overflow = std::isinf(value) && value == static_cast<double>(static_cast<T>(reference[i]));
    const double error = same_overflow ? 0.0 : std::fabs(value - reference[i]);
    // The bound never drops below the smallest normal number times c, so an
    // exactly-zero row still passes a result that is exactly zero.
    const double bound = std::max(c * eps * scale[i], c * std::numeric_limits<T>::min());
    const double ratio = std::isnan(error) ? std::numeric_limits<double>::infinity() : error / bound;
    if (!std::isnan(error)) max_error = std::max(max_error, error);
    if (ratio > result.worst_ratio) {
      result.worst_ratio = ratio;
      result.worst_index = i;
    }
    if (!(ratio <= 1.0) && result.ok) {
      result.ok = false;
      std::ostringstream message;
      message.precision(17);
      message << "entry " << i << " is " << value << ", reference " << reference[i]
              << " (error " << error << " > bound " << bound << ")";
      result.message = message.str();
    }
  }
  if (std::isinf(result.worst_ratio))
    result.max_relative_error = std::numeric_limits<double>::infinity();
  else
    result.max_relative_error = max_scale > 0 ? max_error / max_scale : max_error;
  return result;
}

template VerifyResult verify(const float*, const double*, const double*, std::size_t, double);
template VerifyResult verify(const double*, const double*, const double*, std::size_t, double);

}  // namespace spmv
