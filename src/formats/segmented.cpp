// Segmented-scan format: head flags, footprint and the reference product.
#include "spmv/formats/segmented.hpp"

#include "formats/format_common.hpp"

namespace spmv {

template <class T>
FormatFootprint segmented_footprint(const Csr<T>& a) {
  FormatFootprint f;
  f.nnz = a.nnz();
  f.stored_entries = a.nnz();
  f.csr_bytes = csr_bytes(a.rows, a.nnz(), sizeof(T));
  f.bytes = f.csr_bytes + static_cast<std::size_t>(a.nnz()) * sizeof(std::uint8_t);
  return f;
}

template <class T>
Segmented<T> segmented_from_csr(const Csr<T>& a) {
  Segmented<T> s{a, std::vector<std::uint8_t>(a.nnz(), 0)};
  for (index_t r = 0; r < a.rows; ++r)
    if (a.row_length(r) > 0) s.head_flags[a.row_ptr[r]] = 1;
  return s;
}

template <class T>
void multiply(const Segmented<T>& a, const T* x, T* y, T alpha, T beta) {
  const Csr<T>& m = a.csr;
  std::vector<double> scanned(m.nnz());
  for (index_t k = 0; k < m.nnz(); ++k) {
    const double product = static_cast<double>(m.values[k]) * static_cast<double>(x[m.col_idx[k]]);
    scanned[k] = a.head_flags[k] || k == 0 ? product : scanned[k - 1] + product;
  }
  for (index_t r = 0; r < m.rows; ++r)
    detail::store_scaled(y[r], m.row_length(r) > 0 ? scanned[m.row_ptr[r + 1] - 1] : 0.0, alpha, beta);
}

#define SPMV_INSTANTIATE_SEGMENTED(T)                                  \
  template FormatFootprint segmented_footprint(const Csr<T>&);         \
  template Segmented<T> segmented_from_csr(const Csr<T>&);             \
  template void multiply(const Segmented<T>&, const T*, T*, T, T);
SPMV_INSTANTIATE_SEGMENTED(float)
SPMV_INSTANTIATE_SEGMENTED(double)
#undef SPMV_INSTANTIATE_SEGMENTED

}  // namespace spmv
