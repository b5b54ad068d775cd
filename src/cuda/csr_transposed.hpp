// y = alpha * A^T * x + beta * y from the CSR of A, without storing A^T.
#pragma once

#include "cuda/csr_algorithm.hpp"

namespace spmv::detail {

// Scatter with atomic additions: the order of the additions into each y_j
// varies from run to run, so results may differ in the last bits (use an
// explicit transpose for bitwise-reproducible results).
template <class T>
void spmv_transposed_atomic(const CsrView<T>& a, const T* x, T* y, T alpha, T beta,
                            cudaStream_t stream);

}  // namespace spmv::detail
