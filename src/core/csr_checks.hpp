// The two halves of validate() (matrix.hpp), for the paths that check a
// matrix's entries elsewhere: a plan for the GPU checks the row pointers on
// the host (O(rows)) and the columns on the device once they are uploaded
// (DeviceCsr), instead of a host pass over every entry that costs about as
// much as the upload.
#pragma once

#include "spmv/matrix.hpp"

namespace spmv::detail {

// Sizes consistent, row_ptr from 0 to nnz and non-decreasing. Throws
// InvalidArgument naming the first bad row. After it, every entry a row
// names lies inside col_idx and values.
template <class T>
void validate_row_pointers(const Csr<T>& a);

// Whether an entry of row r lies outside [0, cols) or is not after the one
// before it in its row; `a`'s row pointers valid.
template <class T>
bool row_has_bad_entry(const Csr<T>& a, index_t r) {
  for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
    const index_t c = a.col_idx[k];
    if (c < 0 || c >= a.cols || (k > a.row_ptr[r] && c <= a.col_idx[k - 1])) return true;
  }
  return false;
}

// Every entry of rows [begin, end) in [0, cols) and after the one before it
// in its row; `a`'s row pointers valid. Throws InvalidArgument naming the
// first bad entry.
template <class T>
void validate_columns(const Csr<T>& a, index_t begin, index_t end);

// Throws InvalidArgument naming the first bad entry of `row` (as
// validate_columns does), for a check that found the row elsewhere.
template <class T>
[[noreturn]] void throw_bad_entry(const Csr<T>& a, index_t row);
// The same from the row's columns alone: `length` of them, the first the
// matrix's entry `first`, in a matrix of `cols` columns.
[[noreturn]] void throw_bad_entry(index_t row, index_t first, const index_t* columns, index_t length, index_t cols);

}  // namespace spmv::detail
