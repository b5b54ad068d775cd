// replicate_block_diagonal: I_k (x) A, built copy by copy in parallel (each
// copy's slice of the output arrays is known in advance).
#include <string>

#include "spmv/error.hpp"
#include "spmv/matrix.hpp"

namespace spmv {

template <class T>
Csr<T> replicate_block_diagonal(const Csr<T>& a, index_t copies) {
  if (copies < 1)
    throw InvalidArgument("replicate_block_diagonal: copies must be at least 1, got " +
                          std::to_string(copies));
  check_index_range(std::int64_t{a.rows} * copies, std::int64_t{a.cols} * copies,
                    std::int64_t{a.nnz()} * copies, "replicate_block_diagonal");
  Csr<T> result;
  result.rows = a.rows * copies;
  result.cols = a.cols * copies;
  const std::size_t rows = static_cast<std::size_t>(a.rows);
  const std::size_t nnz = static_cast<std::size_t>(a.nnz());
  result.row_ptr.resize(rows * copies + 1);
  result.col_idx.resize(nnz * copies);
  result.values.resize(nnz * copies);
#pragma omp parallel for schedule(static)
  for (index_t copy = 0; copy < copies; ++copy) {
    const std::size_t c = static_cast<std::size_t>(copy);
    const index_t entry_offset = static_cast<index_t>(c * nnz);
    const index_t column_offset = copy * a.cols;
    for (std::size_t r = 0; r < rows; ++r)
      result.row_ptr[c * rows + r] = a.row_ptr[r] + entry_offset;
    for (std::size_t k = 0; k < nnz; ++k) {
      result.col_idx[c * nnz + k] = a.col_idx[k] + column_offset;
      result.values[c * nnz + k] = a.values[k];
    }
  }
  result.row_ptr.back() = static_cast<index_t>(nnz * copies);
  return result;
}

template Csr<float> replicate_block_diagonal(const Csr<float>&, index_t);
template Csr<double> replicate_block_diagonal(const Csr<double>&, index_t);

}  // namespace spmv
