// Device gather and scatter of dense operands by a row order, for the
// operators of reordered matrices (core/permuted_operator.hpp). An operand
// is an n x k block (a vector when k == 1) in `layout`, without padding.
#pragma once

#include <cuda_runtime.h>

#include "spmv/types.hpp"

namespace spmv::detail {

// Row i of `out` = row order[i] of `in` (order: n entries on the device).
template <class T>
void gather_rows(const index_t* order, index_t n, index_t k, Layout layout, const T* in, T* out,
                 cudaStream_t stream);

// Row order[i] of `out` = alpha * row i of `in` + beta * that row of `out`;
// `out` is not read when beta == 0.
template <class T>
void scatter_rows(const index_t* order, index_t n, index_t k, Layout layout, const T* in, T* out,
                  T alpha, T beta, cudaStream_t stream);

}  // namespace spmv::detail
