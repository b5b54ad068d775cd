// Dense copy: footprint, size limit, builder and the reference product.
#include "spmv/formats/dense.hpp"

#include "formats/format_common.hpp"
#include "spmv/error.hpp"

namespace spmv {

template <class T>
FormatFootprint dense_footprint(index_t rows, index_t cols, std::int64_t nnz) {
  FormatFootprint f;
  f.nnz = nnz;
  f.stored_entries = static_cast<std::int64_t>(rows) * cols;
  f.bytes = static_cast<std::size_t>(f.stored_entries) * sizeof(T);
  f.csr_bytes = csr_bytes(rows, nnz, sizeof(T));
  return f;
}

template <class T>
FormatFootprint dense_footprint(const Csr<T>& a) {
  return dense_footprint<T>(a.rows, a.cols, a.nnz());
}

template <class T>
void check_dense_limit(index_t rows, index_t cols, std::int64_t nnz, std::size_t max_bytes) {
  const FormatFootprint f = dense_footprint<T>(rows, cols, nnz);
  if (f.bytes > max_bytes)
    throw FormatLimitError("dense would need " + detail::one_decimal(f.bytes / 1048576.0) + " MiB (" +
                           std::to_string(rows) + " x " + std::to_string(cols) + ", " +
                           detail::one_decimal(f.padding_ratio()) + "x the CSR bytes), beyond its limit of " +
                           detail::one_decimal(max_bytes / 1048576.0) +
                           " MiB: use a sparse format such as csr-vector instead, or raise max_dense_mib");
}

template <class T>
Dense<T> dense_from_csr(const Csr<T>& a, const DenseOptions& options) {
  check_dense_limit<T>(a.rows, a.cols, a.nnz(), options.max_bytes);
  Dense<T> d{a.rows, a.cols, std::vector<T>(static_cast<std::size_t>(a.rows) * a.cols, T(0))};
#pragma omp parallel for schedule(static)
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
      d.values[static_cast<std::size_t>(a.col_idx[k]) * a.rows + r] = a.values[k];
  return d;
}

template <class T>
void multiply(const Dense<T>& a, const T* x, T* y, T alpha, T beta) {
  for (index_t r = 0; r < a.rows; ++r) {
    double sum = 0;
    for (index_t c = 0; c < a.cols; ++c)
      sum += static_cast<double>(a.values[static_cast<std::size_t>(c) * a.rows + r]) * static_cast<double>(x[c]);
    detail::store_scaled(y[r], sum, alpha, beta);
  }
}

#define SPMV_INSTANTIATE_DENSE(T)                                          \
  template FormatFootprint dense_footprint(const Csr<T>&);                 \
  template FormatFootprint dense_footprint<T>(index_t, index_t, std::int64_t); \
  template void check_dense_limit<T>(index_t, index_t, std::int64_t, std::size_t); \
  template Dense<T> dense_from_csr(const Csr<T>&, const DenseOptions&);    \
  template void multiply(const Dense<T>&, const T*, T*, T, T);
SPMV_INSTANTIATE_DENSE(float)
SPMV_INSTANTIATE_DENSE(double)
#undef SPMV_INSTANTIATE_DENSE

}  // namespace spmv
