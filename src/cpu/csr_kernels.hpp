// The cpu backend's CSR kernels (OpenMP).
//
// Work decomposition: the rows are split once, at plan time, into chunks of
// equal work (row_partition.hpp), one chunk per thread. A chunk writes only its
// own rows of y (or C), so the row kernels need no synchronisation. A and the
// row pointers are streamed once; x (or B) is gathered through col_idx and
// cached by the hardware. Kernels never allocate.
#pragma once

#include <vector>

#include "cpu/row_partition.hpp"
#include "spmv/matrix.hpp"
#include "spmv/types.hpp"

namespace spmv::detail {

// y = alpha A x + beta y; y is not read when beta == 0.
template <class T>
void csr_spmv(const Csr<T>& a, const RowPartition& rows, const T* x, T* y, T alpha, T beta);

// C = alpha A B + beta C; B is a.cols x k and C a.rows x k, both in `layout`.
// Each row of A is applied to a block of columns of B at once (the block's
// sums stay in registers), so A is read once per block rather than per column.
template <class T>
void csr_spmm(const Csr<T>& a, const RowPartition& rows, const T* b, T* c, index_t k, Layout layout,
              T alpha, T beta);

// Workspace of the transposed product without storing A^T: each chunk of rows
// scatters into a partial vector of its own, covering only the columns the
// chunk touches (narrow for banded matrices, at most all columns); the partials
// are then summed in chunk order, so the result does not depend on timing.
template <class T>
struct TransposeWorkspace {
  std::vector<index_t> first_column;  // per chunk: columns [first, end) are covered
  std::vector<index_t> end_column;
  std::vector<std::size_t> offset;  // per chunk: where its partial starts in `partials`
  std::vector<T> partials;
};

template <class T>
TransposeWorkspace<T> make_transpose_workspace(const Csr<T>& a, const RowPartition& rows);

// y = alpha A^T x + beta y (x has a.rows entries, y has a.cols).
template <class T>
void csr_spmv_transposed(const Csr<T>& a, const RowPartition& rows,
                         TransposeWorkspace<T>& workspace, const T* x, T* y, T alpha, T beta);

}  // namespace spmv::detail
