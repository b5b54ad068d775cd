// C = alpha * A * B + beta * C from the CSR of A (B, C dense, either layout).
#pragma once

#include "cuda/csr_algorithm.hpp"
#include "spmv/types.hpp"

namespace spmv::detail {

// The general SpMM used by every CSR kernel that has no SpMM of its own.
template <class T>
void spmm_csr_rowwise(const CsrView<T>& a, const T* b, T* c, index_t k, Layout layout, T alpha,
                      T beta, cudaStream_t stream);

}  // namespace spmv::detail
