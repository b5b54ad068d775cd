// The reference backend: serial, accumulates in double. The test oracle.
//
// Each function writes the exact-as-possible result in double and, when
// `scale` is not null, the per-entry error scale used by verify():
// scale_i = |alpha| * sum_j |a_ij x_j| + |beta * y0_i|.
// y0 / c0 may be null when beta == 0.
#pragma once

#include "spmv/matrix.hpp"
#include "spmv/types.hpp"

namespace spmv {

// y = alpha A x + beta y0
template <class T>
void reference_spmv(const Csr<T>& a, const T* x, const T* y0, T alpha, T beta, double* y,
                    double* scale = nullptr);
// y = alpha A^T x + beta y0   (x has a.rows entries, y has a.cols)
template <class T>
void reference_spmv_transposed(const Csr<T>& a, const T* x, const T* y0, T alpha, T beta,
                               double* y, double* scale = nullptr);
// C = alpha A B + beta C0, B is a.cols x k, C is a.rows x k, in `layout`.
template <class T>
void reference_spmm(const Csr<T>& a, const T* b, const T* c0, index_t k, Layout layout, T alpha,
                    T beta, double* c, double* scale = nullptr);

}  // namespace spmv
