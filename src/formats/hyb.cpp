// HYB: the ELL part of width K and the COO remainder.
#include "spmv/formats/hyb.hpp"

#include <algorithm>

#include "formats/format_common.hpp"
#include "spmv/error.hpp"
#include "spmv/formats/coo.hpp"
#include "spmv/stats.hpp"

namespace spmv {

template <class T>
std::int64_t hyb_coo_nnz(const Csr<T>& a, index_t ell_width) {
  std::int64_t beyond = 0;
  for (index_t r = 0; r < a.rows; ++r) beyond += std::max(0, a.row_length(r) - ell_width);
  return beyond;
}

template <class T>
index_t hyb_ell_width(const Csr<T>& a, const HybOptions& options) {
  if (options.ell_width < -1)
    throw InvalidArgument("HYB: ell_width must be -1 (Bell-Garland rule) or at least 0, got " +
                          std::to_string(options.ell_width));
  return options.ell_width >= 0 ? options.ell_width : hyb_split_width(detail::row_lengths(a));
}

template <class T>
FormatFootprint hyb_footprint(index_t rows, index_t ell_width, std::int64_t nnz, std::int64_t coo_nnz) {
  FormatFootprint f = ell_footprint<T>(rows, ell_width, nnz - coo_nnz);
  f.nnz = nnz;
  f.stored_entries += coo_nnz;
  f.bytes += static_cast<std::size_t>(coo_nnz) * (2 * sizeof(index_t) + sizeof(T));
  f.csr_bytes = csr_bytes(rows, nnz, sizeof(T));
  return f;
}

template <class T>
FormatFootprint hyb_footprint(const Csr<T>& a, index_t ell_width) {
  return hyb_footprint<T>(a.rows, ell_width, a.nnz(), hyb_coo_nnz(a, ell_width));
}

template <class T>
void check_hyb_limit(index_t rows, index_t ell_width, std::int64_t nnz, std::int64_t coo_nnz, double max_padding) {
  detail::check_footprint("HYB", hyb_footprint<T>(rows, ell_width, nnz, coo_nnz), max_padding,
                          "ELL part of width " + std::to_string(ell_width) + " for " + std::to_string(rows) +
                              " rows with mean length " + detail::one_decimal(rows ? double(nnz) / rows : 0.0),
                          "a smaller ell_width, coo or csr-vector");
}

template <class T>
Hyb<T> hyb_from_csr(const Csr<T>& a, const HybOptions& options) {
  const index_t width = hyb_ell_width(a, options);
  check_hyb_limit<T>(a.rows, width, a.nnz(), hyb_coo_nnz(a, width), options.max_padding);
  Hyb<T> hyb;
  hyb.ell = ell_part_from_csr(a, width);
  hyb.coo.rows = a.rows;
  hyb.coo.cols = a.cols;
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t k = a.row_ptr[r] + std::min(width, a.row_length(r)); k < a.row_ptr[r + 1]; ++k)
      hyb.coo.push(r, a.col_idx[k], a.values[k]);
  return hyb;
}

template <class T>
void multiply(const Hyb<T>& a, const T* x, T* y, T alpha, T beta) {
  multiply(a.ell, x, y, alpha, beta);
  multiply(a.coo, x, y, alpha, T(1));
}

#define SPMV_INSTANTIATE_HYB(T)                                                 \
  template index_t hyb_ell_width(const Csr<T>&, const HybOptions&);             \
  template std::int64_t hyb_coo_nnz(const Csr<T>&, index_t);                    \
  template FormatFootprint hyb_footprint(const Csr<T>&, index_t);               \
  template FormatFootprint hyb_footprint<T>(index_t, index_t, std::int64_t, std::int64_t); \
  template void check_hyb_limit<T>(index_t, index_t, std::int64_t, std::int64_t, double); \
  template Hyb<T> hyb_from_csr(const Csr<T>&, const HybOptions&);               \
  template void multiply(const Hyb<T>&, const T*, T*, T, T);
SPMV_INSTANTIATE_HYB(float)
SPMV_INSTANTIATE_HYB(double)
#undef SPMV_INSTANTIATE_HYB

}  // namespace spmv
