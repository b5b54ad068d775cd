// The reference backend's products: serial loops, double accumulation.
#include "spmv/reference.hpp"

#include <cmath>
#include <cstddef>

namespace spmv {

template <class T>
void reference_spmv(const Csr<T>& a, const T* x, const T* y0, T alpha, T beta, double* y,
                    double* scale) {
  for (index_t r = 0; r < a.rows; ++r) {
    double sum = 0, magnitude = 0;
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const double term = static_cast<double>(a.values[k]) * static_cast<double>(x[a.col_idx[k]]);
      sum += term;
      magnitude += std::fabs(term);
    }
    const double old = beta == T(0) ? 0.0 : static_cast<double>(beta) * static_cast<double>(y0[r]);
    y[r] = static_cast<double>(alpha) * sum + old;
    if (scale) scale[r] = std::fabs(static_cast<double>(alpha)) * magnitude + std::fabs(old);
  }
}

template <class T>
void reference_spmv_transposed(const Csr<T>& a, const T* x, const T* y0, T alpha, T beta,
                               double* y, double* scale) {
  for (index_t c = 0; c < a.cols; ++c) {
    y[c] = 0;
    if (scale) scale[c] = 0;
  }
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const double term = static_cast<double>(a.values[k]) * static_cast<double>(x[r]);
      y[a.col_idx[k]] += term;
      if (scale) scale[a.col_idx[k]] += std::fabs(term);
    }
  for (index_t c = 0; c < a.cols; ++c) {
    const double old = beta == T(0) ? 0.0 : static_cast<double>(beta) * static_cast<double>(y0[c]);
    y[c] = static_cast<double>(alpha) * y[c] + old;
    if (scale) scale[c] = std::fabs(static_cast<double>(alpha)) * scale[c] + std::fabs(old);
  }
}

template <class T>
void reference_spmm(const Csr<T>& a, const T* b, const T* c0, index_t k, Layout layout, T alpha,
                    T beta, double* c, double* scale) {
  // Element (i, j) of a rows x cols dense matrix in the chosen layout.
  auto at = [layout](index_t i, index_t j, index_t rows, index_t cols) -> std::size_t {
    return layout == Layout::row_major ? static_cast<std::size_t>(i) * cols + j
                                       : static_cast<std::size_t>(j) * rows + i;
  };
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t j = 0; j < k; ++j) {
      double sum = 0, magnitude = 0;
      for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) {
        const double term = static_cast<double>(a.values[p]) *
                            static_cast<double>(b[at(a.col_idx[p], j, a.cols, k)]);
        sum += term;
        magnitude += std::fabs(term);
      }
      const std::size_t out = at(r, j, a.rows, k);
      const double old = beta == T(0) ? 0.0 : static_cast<double>(beta) * static_cast<double>(c0[out]);
      c[out] = static_cast<double>(alpha) * sum + old;
      if (scale) scale[out] = std::fabs(static_cast<double>(alpha)) * magnitude + std::fabs(old);
    }
}

#define SPMV_INSTANTIATE(T)                                                                     \
  template void reference_spmv(const Csr<T>&, const T*, const T*, T, T, double*, double*);      \
  template void reference_spmv_transposed(const Csr<T>&, const T*, const T*, T, T, double*,     \
                                          double*);                                             \
  template void reference_spmm(const Csr<T>&, const T*, const T*, index_t, Layout, T, T, double*, \
                               double*);
SPMV_INSTANTIATE(float)
SPMV_INSTANTIATE(double)
#undef SPMV_INSTANTIATE

}  // namespace spmv
