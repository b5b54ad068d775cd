#include "cpu/csr_kernels.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace spmv::detail {

namespace {

// Below this much work (non-zeros + rows) a product runs on the calling thread:
// opening a parallel region costs microseconds, more than such a product takes.
// An order of magnitude, not a measured optimum.
constexpr std::int64_t min_parallel_work = 20000;

// Columns of B handled per pass over a row of A in SpMM (their sums are kept
// in registers). On the 2-core development VM (one thread, stencil27:n=64,
// k = 8 and 33, both layouts) 8 beat 4 by 1.2-1.5x and 16 by 1.1-2.4x.
constexpr index_t spmm_column_block = 8;

template <class T>
std::int64_t work_of(const Csr<T>& a) {
  return std::int64_t{a.nnz()} + a.rows;
}

// Runs body(row_begin, row_end, chunk) for every chunk, one chunk per thread.
template <class Body>
void for_each_chunk(const RowPartition& partition, std::int64_t work, const Body& body) {
  const int chunks = partition.chunks();
#pragma omp parallel for schedule(static, 1) num_threads(chunks) if (work >= min_parallel_work)
  for (int chunk = 0; chunk < chunks; ++chunk)
    body(partition.begin(chunk), partition.end(chunk), chunk);
}

// out = alpha * sum + beta * out, without reading out when beta == 0.
template <class T>
inline void store(T& out, T alpha, T sum, T beta) {
  out = beta == T(0) ? alpha * sum : alpha * sum + beta * out;
}

// Offset of element (i, j) of a dense matrix with `rows` rows and k columns.
template <Layout L>
inline std::size_t dense_at(index_t i, index_t j, index_t rows, index_t k) {
  if constexpr (L == Layout::row_major)
    return static_cast<std::size_t>(i) * k + j;
  else
    return static_cast<std::size_t>(j) * rows + i;
}

// Row r of A times columns [j0, j0 + Width) of B. The width is a compile-time
// constant so that the sums stay in registers.
template <class T, Layout L, index_t Width>
inline void spmm_row_block(const Csr<T>& a, index_t r, index_t j0, const T* b, T* c, index_t k,
                           T alpha, T beta) {
  T sums[Width] = {};
  for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) {
    const T value = a.values[p];
    const index_t column = a.col_idx[p];
    for (index_t j = 0; j < Width; ++j) sums[j] += value * b[dense_at<L>(column, j0 + j, a.cols, k)];
  }
  for (index_t j = 0; j < Width; ++j)
    store(c[dense_at<L>(r, j0 + j, a.rows, k)], alpha, sums[j], beta);
}

template <class T, Layout L>
void spmm_rows(const Csr<T>& a, index_t row_begin, index_t row_end, const T* b, T* c, index_t k,
               T alpha, T beta) {
  for (index_t r = row_begin; r < row_end; ++r) {
    index_t j0 = 0;
    for (; j0 + spmm_column_block <= k; j0 += spmm_column_block)
      spmm_row_block<T, L, spmm_column_block>(a, r, j0, b, c, k, alpha, beta);
    for (; j0 < k; ++j0)  // the last k % spmm_column_block columns, one at a time
      spmm_row_block<T, L, 1>(a, r, j0, b, c, k, alpha, beta);
  }
}

}  // namespace

template <class T>
void csr_spmv(const Csr<T>& a, const RowPartition& rows, const T* x, T* y, T alpha, T beta) {
  for_each_chunk(rows, work_of(a), [&](index_t row_begin, index_t row_end, int) {
    for (index_t r = row_begin; r < row_end; ++r) {
      T sum = 0;
      for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p)
        sum += a.values[p] * x[a.col_idx[p]];
      store(y[r], alpha, sum, beta);
    }
  });
}

template <class T>
void csr_spmm(const Csr<T>& a, const RowPartition& rows, const T* b, T* c, index_t k, Layout layout,
              T alpha, T beta) {
  for_each_chunk(rows, work_of(a) * k, [&](index_t row_begin, index_t row_end, int) {
    if (layout == Layout::row_major)
      spmm_rows<T, Layout::row_major>(a, row_begin, row_end, b, c, k, alpha, beta);
    else
      spmm_rows<T, Layout::col_major>(a, row_begin, row_end, b, c, k, alpha, beta);
  });
}

template <class T>
TransposeWorkspace<T> make_transpose_workspace(const Csr<T>& a, const RowPartition& rows) {
  const int chunks = rows.chunks();
  TransposeWorkspace<T> workspace;
  workspace.first_column.assign(chunks, 0);
  workspace.end_column.assign(chunks, 0);
  workspace.offset.assign(chunks + 1, 0);
  for (int chunk = 0; chunk < chunks; ++chunk) {
    index_t first = std::numeric_limits<index_t>::max(), last = -1;
    for (index_t p = a.row_ptr[rows.begin(chunk)]; p < a.row_ptr[rows.end(chunk)]; ++p) {
      first = std::min(first, a.col_idx[p]);
      last = std::max(last, a.col_idx[p]);
    }
    if (last >= 0) {
      workspace.first_column[chunk] = first;
      workspace.end_column[chunk] = last + 1;
    }
    workspace.offset[chunk + 1] =
        workspace.offset[chunk] + (workspace.end_column[chunk] - workspace.first_column[chunk]);
  }
  workspace.partials.assign(workspace.offset[chunks], T(0));
  return workspace;
}

template <class T>
void csr_spmv_transposed(const Csr<T>& a, const RowPartition& rows,
                         TransposeWorkspace<T>& workspace, const T* x, T* y, T alpha, T beta) {
  const std::int64_t work = work_of(a) + a.cols;
  // Scatter: chunk c adds a_rj * x_r into its own partial, indexed from its first column.
  for_each_chunk(rows, work, [&](index_t row_begin, index_t row_end, int chunk) {
    T* partial = workspace.partials.data() + workspace.offset[chunk];
    const index_t first = workspace.first_column[chunk];
    std::fill(partial, workspace.partials.data() + workspace.offset[chunk + 1], T(0));
    for (index_t r = row_begin; r < row_end; ++r)
      for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p)
        partial[a.col_idx[p] - first] += a.values[p] * x[r];
  });
  // Reduce: every column sums the partials that cover it, in chunk order.
  const int chunks = rows.chunks();
#pragma omp parallel for schedule(static) num_threads(chunks) if (work >= min_parallel_work)
  for (index_t column = 0; column < a.cols; ++column) {
    T sum = 0;
    for (int chunk = 0; chunk < chunks; ++chunk)
      if (column >= workspace.first_column[chunk] && column < workspace.end_column[chunk])
        sum +=
            workspace.partials[workspace.offset[chunk] + (column - workspace.first_column[chunk])];
    store(y[column], alpha, sum, beta);
  }
}

#define SPMV_INSTANTIATE(T)                                                                        \
  template void csr_spmv(const Csr<T>&, const RowPartition&, const T*, T*, T, T);                  \
  template void csr_spmm(const Csr<T>&, const RowPartition&, const T*, T*, index_t, Layout, T, T); \
  template TransposeWorkspace<T> make_transpose_workspace(const Csr<T>&, const RowPartition&);     \
  template void csr_spmv_transposed(const Csr<T>&, const RowPartition&, TransposeWorkspace<T>&,    \
                                    const T*, T*, T, T);
SPMV_INSTANTIATE(float)
SPMV_INSTANTIATE(double)
#undef SPMV_INSTANTIATE

}  // namespace spmv::detail
