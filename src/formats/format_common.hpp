// Helpers shared by the host format builders and their reference products.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "core/parallel_from.hpp"
#include "spmv/formats/footprint.hpp"
#include "spmv/matrix.hpp"

namespace spmv::detail {

// Refuses a format before it is built: FormatLimitError when the footprint
// exceeds `max_padding` times the CSR bytes (FormatFootprint::within_limit), worded as
//   "ELL would need 57.3x the CSR bytes (longest row 4012, mean 7.1): use hyb
//    or sell instead, or raise max_padding (now 3)"
// and, within the limit, SizeError when its stored entries do not fit
// 32-bit indices.
// InvalidArgument when max_padding < 1.
void check_footprint(const std::string& format, const FormatFootprint& footprint,
                     double max_padding, const std::string& why, const std::string& instead);

// "7.1": one decimal, for messages.
std::string one_decimal(double value);

// "longest row 4012, mean 7.1": the usual reason of ELL-like formats.
std::string row_length_summary(index_t longest, double mean);

// `rows` rounded up to a multiple of `alignment`: the column stride of the
// ELL-like formats, so that every stored column starts aligned.
inline index_t aligned_stride(index_t rows, index_t alignment) {
  return static_cast<index_t>((static_cast<std::int64_t>(rows) + alignment - 1) / alignment * alignment);
}

template <class T>
index_t longest_row(const Csr<T>& a) {
  index_t longest = 0;
#pragma omp parallel for schedule(static) reduction(max : longest) if (a.rows >= parallel_from)
  for (index_t r = 0; r < a.rows; ++r) longest = std::max(longest, a.row_length(r));
  return longest;
}

template <class T>
std::vector<index_t> row_lengths(const Csr<T>& a) {
  std::vector<index_t> lengths(a.rows);
  for (index_t r = 0; r < a.rows; ++r) lengths[r] = a.row_length(r);
  return lengths;
}

// y = alpha * sum + beta * y, not reading y when beta == 0 (the products'
// contract: NaN in y does not propagate then).
template <class T>
void store_scaled(T& y, double sum, T alpha, T beta) {
  const double scaled = static_cast<double>(alpha) * sum;
  y = static_cast<T>(beta == T(0) ? scaled : scaled + static_cast<double>(beta) * static_cast<double>(y));
}

}  // namespace spmv::detail
