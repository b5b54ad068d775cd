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

// Every entry of rows [begin, end) in [0, cols) and after the one before it
// in its row; `a`'s row pointers valid. Throws InvalidArgument naming the
// first bad entry.
template <class T>
void validate_columns(const Csr<T>& a, index_t begin, index_t end);

// Throws InvalidArgument naming the first bad entry of `row` (as
// validate_columns does), for a check that found the row elsewhere.
template <class T>
[[noreturn]] void throw_bad_entry(const Csr<T>& a, index_t row);

}  // namespace spmv::detail
