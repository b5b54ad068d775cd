// DIA: occupied diagonals, footprint, builder and the reference product.
#include "spmv/formats/dia.hpp"

#include <algorithm>

#include "formats/dia_limits.hpp"
#include "formats/format_common.hpp"

namespace spmv {

namespace {

// The occupied diagonals' offsets (column - row), increasing.
template <class T>
std::vector<index_t> occupied_offsets(const Csr<T>& a) {
  if (a.nnz() == 0) return {};
  // Flag of diagonal c - r, shifted by rows - 1 to be non-negative.
  std::vector<char> occupied(static_cast<std::size_t>(a.rows) + a.cols - 1, 0);
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
      occupied[static_cast<std::size_t>(a.col_idx[k]) + (a.rows - 1 - r)] = 1;
  std::vector<index_t> offsets;
  for (std::size_t d = 0; d < occupied.size(); ++d)
    if (occupied[d]) offsets.push_back(static_cast<index_t>(static_cast<std::int64_t>(d) - (a.rows - 1)));
  return offsets;
}

}  // namespace

namespace detail {

FormatFootprint dia_footprint_of(index_t rows, index_t nnz, std::size_t value_bytes, std::size_t diagonals) {
  FormatFootprint f;
  f.nnz = nnz;
  f.stored_entries = static_cast<std::int64_t>(diagonals) * aligned_stride(rows, dia_row_alignment);
  f.bytes = static_cast<std::size_t>(f.stored_entries) * value_bytes + diagonals * sizeof(index_t);
  f.csr_bytes = csr_bytes(rows, nnz, value_bytes);
  return f;
}

void check_dia_limit(index_t rows, index_t nnz, std::size_t value_bytes, std::size_t diagonals,
                     double max_padding) {
  check_footprint("DIA", dia_footprint_of(rows, nnz, value_bytes, diagonals), max_padding,
                  std::to_string(diagonals) + " occupied diagonals, mean row length " +
                      one_decimal(rows ? double(nnz) / rows : 0.0),
                  "ell, sell or csr-vector");
}

std::size_t dia_most_diagonals(index_t rows, index_t cols, index_t nnz, std::size_t value_bytes,
                               double max_padding) {
  const auto accepted = [&](std::size_t diagonals) {
    const FormatFootprint f = dia_footprint_of(rows, nnz, value_bytes, diagonals);
    return f.within_limit(max_padding) && f.stored_entries <= max_index;
  };
  // The footprint grows with the diagonals: the largest accepted count by
  // bisection, accepted(low) and not accepted(high) throughout.
  std::size_t low = 0, high = rows > 0 && cols > 0 ? static_cast<std::size_t>(rows) + cols : 1;
  if (accepted(high - 1)) return high - 1;
  while (high - low > 1) {
    const std::size_t middle = low + (high - low) / 2;
    (accepted(middle) ? low : high) = middle;
  }
  return low;
}

}  // namespace detail

template <class T>
FormatFootprint dia_footprint(const Csr<T>& a) {
  return detail::dia_footprint_of(a.rows, a.nnz(), sizeof(T), occupied_offsets(a).size());
}

template <class T>
Dia<T> dia_from_csr(const Csr<T>& a, const DiaOptions& options) {
  Dia<T> dia;
  dia.rows = a.rows;
  dia.cols = a.cols;
  dia.stride = detail::aligned_stride(a.rows, dia_row_alignment);
  dia.nnz = a.nnz();
  dia.offsets = occupied_offsets(a);
  detail::check_dia_limit(a.rows, a.nnz(), sizeof(T), dia.offsets.size(), options.max_padding);
  dia.values.assign(dia.offsets.size() * static_cast<std::size_t>(dia.stride), T(0));
#pragma omp parallel for schedule(static)
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const index_t offset = a.col_idx[k] - r;
      const std::size_t d = static_cast<std::size_t>(
          std::lower_bound(dia.offsets.begin(), dia.offsets.end(), offset) - dia.offsets.begin());
      dia.values[d * dia.stride + r] = a.values[k];
    }
  return dia;
}

template <class T>
void multiply(const Dia<T>& a, const T* x, T* y, T alpha, T beta) {
  for (index_t r = 0; r < a.rows; ++r) {
    double sum = 0;
    for (std::size_t d = 0; d < a.offsets.size(); ++d) {
      const std::int64_t c = static_cast<std::int64_t>(r) + a.offsets[d];
      if (c >= 0 && c < a.cols)
        sum += static_cast<double>(a.values[d * a.stride + r]) * static_cast<double>(x[c]);
    }
    detail::store_scaled(y[r], sum, alpha, beta);
  }
}

#define SPMV_INSTANTIATE_DIA(T)                                             \
  template FormatFootprint dia_footprint(const Csr<T>&);                    \
  template Dia<T> dia_from_csr(const Csr<T>&, const DiaOptions&);           \
  template void multiply(const Dia<T>&, const T*, T*, T, T);
SPMV_INSTANTIATE_DIA(float)
SPMV_INSTANTIATE_DIA(double)
#undef SPMV_INSTANTIATE_DIA

}  // namespace spmv
