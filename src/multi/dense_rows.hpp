// Rows of dense host operands moved into and out of row-major buffers: how
// the distributed SpMM hands each part its rows of B and takes back its rows
// of C. An operand is an n x k block in either layout without padding;
// `row_of(i)` names the operand's row that is row i of the buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/parallel_from.hpp"
#include "spmv/types.hpp"

namespace spmv::detail {

// Where entry (i, j) of an n x k operand in `layout` lies.
inline std::size_t dense_offset(index_t i, index_t j, index_t n, index_t k, Layout layout) {
  return layout == Layout::row_major ? static_cast<std::size_t>(i) * static_cast<std::size_t>(k) + j
                                     : static_cast<std::size_t>(j) * static_cast<std::size_t>(n) + i;
}

// out (count x k, row-major, resized) = rows row_of(0..count) of `operand`.
template <class T, class RowOf>
void gather_dense_rows(const T* operand, index_t n, index_t k, Layout layout, index_t count, RowOf row_of,
                       std::vector<T>& out) {
  out.resize(static_cast<std::size_t>(count) * static_cast<std::size_t>(k));
#pragma omp parallel for if (std::int64_t{count} * k >= parallel_from)
  for (index_t i = 0; i < count; ++i)
    for (index_t j = 0; j < k; ++j)
      out[static_cast<std::size_t>(i) * k + j] = operand[dense_offset(row_of(i), j, n, k, layout)];
}

// Rows row_of(0..count) of `operand` = the rows of `in` (count x k, row-major).
template <class T, class RowOf>
void scatter_dense_rows(const std::vector<T>& in, index_t count, RowOf row_of, T* operand, index_t n, index_t k,
                        Layout layout) {
#pragma omp parallel for if (std::int64_t{count} * k >= parallel_from)
  for (index_t i = 0; i < count; ++i)
    for (index_t j = 0; j < k; ++j)
      operand[dense_offset(row_of(i), j, n, k, layout)] = in[static_cast<std::size_t>(i) * k + j];
}

}  // namespace spmv::detail
