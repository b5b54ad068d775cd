// Comparing a computed product with the reference.
//
// Row i passes when |y_i - ref_i| <= c * eps(T) * (|alpha| * sum_j |a_ij x_j| + |beta y0_i|)
// where `scale` holds the bracket for each row (see reference_scale). NaN never passes;
// an infinity passes where the reference rounded to T is that infinity (the
// exact product overflows T).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace spmv {

struct VerifyResult {
  bool ok = true;
  std::size_t worst_index = 0;   // entry with the largest error relative to its bound
  double worst_ratio = 0;        // |err| / bound at that entry (<= 1 passes)
  double max_relative_error = 0; // max |err| / max(scale) over all entries
  std::string message;           // empty when ok; names the first failing entry otherwise
};

// `tolerance_factor` is c above; eps is that of T (float or double).
template <class T>
VerifyResult verify(const T* y, const double* reference, const double* scale, std::size_t n,
                    double tolerance_factor = 0);

// Default c for a product whose rows have at most `max_row_length` terms:
// grows like sqrt of the summation length, at least 8.
double default_tolerance_factor(std::size_t max_row_length);

}  // namespace spmv
