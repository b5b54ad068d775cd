// ELL: footprint, builder and the serial reference product.
#include "spmv/formats/ell.hpp"

#include <algorithm>

#include "formats/format_common.hpp"

namespace spmv {

template <class T>
FormatFootprint ell_footprint(index_t rows, index_t width, std::int64_t nnz) {
  FormatFootprint f;
  f.nnz = nnz;
  f.stored_entries = static_cast<std::int64_t>(width) * detail::aligned_stride(rows, ell_row_alignment);
  f.bytes = static_cast<std::size_t>(f.stored_entries) * (sizeof(index_t) + sizeof(T));
  f.csr_bytes = csr_bytes(rows, nnz, sizeof(T));
  return f;
}

template <class T>
FormatFootprint ell_footprint(const Csr<T>& a) {
  return ell_footprint<T>(a.rows, detail::longest_row(a), a.nnz());
}

template <class T>
Ell<T> ell_part_from_csr(const Csr<T>& a, index_t width) {
  Ell<T> ell;
  ell.rows = a.rows;
  ell.cols = a.cols;
  ell.width = width;
  ell.stride = detail::aligned_stride(a.rows, ell_row_alignment);
  const std::size_t slots = static_cast<std::size_t>(width) * ell.stride;
  ell.col_idx.assign(slots, padding_column);
  ell.values.assign(slots, T(0));
  index_t kept_entries = 0;
#pragma omp parallel for reduction(+ : kept_entries) schedule(static)
  for (index_t r = 0; r < a.rows; ++r) {
    const index_t kept = std::min(width, a.row_length(r));
    for (index_t k = 0; k < kept; ++k) {
      const std::size_t slot = static_cast<std::size_t>(k) * ell.stride + r;
      ell.col_idx[slot] = a.col_idx[a.row_ptr[r] + k];
      ell.values[slot] = a.values[a.row_ptr[r] + k];
    }
    kept_entries += kept;
  }
  ell.nnz = kept_entries;
  return ell;
}

template <class T>
void check_ell_limit(index_t rows, index_t width, std::int64_t nnz, double max_padding) {
  detail::check_footprint("ELL", ell_footprint<T>(rows, width, nnz), max_padding,
                          detail::row_length_summary(width, rows ? double(nnz) / rows : 0.0), "hyb or sell");
}

template <class T>
Ell<T> ell_from_csr(const Csr<T>& a, const EllOptions& options) {
  const index_t width = detail::longest_row(a);
  check_ell_limit<T>(a.rows, width, a.nnz(), options.max_padding);
  return ell_part_from_csr(a, width);
}

template <class T>
void multiply(const Ell<T>& a, const T* x, T* y, T alpha, T beta) {
  for (index_t r = 0; r < a.rows; ++r) {
    double sum = 0;
    for (index_t k = 0; k < a.width; ++k) {
      const std::size_t slot = static_cast<std::size_t>(k) * a.stride + r;
      if (a.col_idx[slot] == padding_column) break;
      sum += static_cast<double>(a.values[slot]) * static_cast<double>(x[a.col_idx[slot]]);
    }
    detail::store_scaled(y[r], sum, alpha, beta);
  }
}

#define SPMV_INSTANTIATE_ELL(T)                                                       \
  template FormatFootprint ell_footprint<T>(index_t, index_t, std::int64_t);          \
  template FormatFootprint ell_footprint(const Csr<T>&);                              \
  template void check_ell_limit<T>(index_t, index_t, std::int64_t, double);           \
  template Ell<T> ell_part_from_csr(const Csr<T>&, index_t);                          \
  template Ell<T> ell_from_csr(const Csr<T>&, const EllOptions&);                     \
  template void multiply(const Ell<T>&, const T*, T*, T, T);
SPMV_INSTANTIATE_ELL(float)
SPMV_INSTANTIATE_ELL(double)
#undef SPMV_INSTANTIATE_ELL

}  // namespace spmv
