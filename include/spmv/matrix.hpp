// Host sparse matrices: Coo (triplets, any order) and Csr (the one canonical form).
//
// Canonical Csr: row_ptr has rows+1 entries starting at 0 and non-decreasing;
// within a row, column indices are strictly increasing (duplicates of the input
// were summed, as Matrix Market prescribes); explicit zeros are kept.
#pragma once

#include <cstdint>
#include <vector>

#include "spmv/types.hpp"

namespace spmv {

template <class T>
struct Coo {
  index_t rows = 0;
  index_t cols = 0;
  std::vector<index_t> row_idx;
  std::vector<index_t> col_idx;
  std::vector<T> values;

  index_t nnz() const { return static_cast<index_t>(values.size()); }
  // Appends one entry; does not check bounds (to_csr does).
  void push(index_t r, index_t c, T v) {
    row_idx.push_back(r);
    col_idx.push_back(c);
    values.push_back(v);
  }
};

template <class T>
struct Csr {
  index_t rows = 0;
  index_t cols = 0;
  std::vector<index_t> row_ptr{0};
  std::vector<index_t> col_idx;
  std::vector<T> values;

  index_t nnz() const { return static_cast<index_t>(col_idx.size()); }
  index_t row_length(index_t r) const { return row_ptr[r + 1] - row_ptr[r]; }
};

// A canonical CSR matrix whose arrays are on a CUDA device already (memory
// from cudaMalloc, a CuPy array, a PyTorch tensor): plan(), make_plan() and
// make_operator() read it there, for the cuda and cusparse backends, on the
// device PlanOptions::device. The view owns nothing: the arrays must stay
// valid while those calls run; the operator keeps a copy of its own.
template <class T>
struct DeviceCsrView {
  index_t rows = 0;
  index_t cols = 0;
  index_t nnz = 0;
  const index_t* row_ptr = nullptr;  // rows + 1 entries
  const index_t* col_idx = nullptr;  // nnz entries (may be null when nnz is 0)
  const T* values = nullptr;         // nnz entries (may be null when nnz is 0)
};

template <class T>
bool operator==(const Csr<T>& a, const Csr<T>& b) {
  return a.rows == b.rows && a.cols == b.cols && a.row_ptr == b.row_ptr &&
         a.col_idx == b.col_idx && a.values == b.values;
}
template <class T>
bool operator!=(const Csr<T>& a, const Csr<T>& b) {
  return !(a == b);
}

// Throws SizeError unless rows, cols and nnz all fit index_t.
void check_index_range(std::int64_t rows, std::int64_t cols, std::int64_t nnz, const char* what);

// Sorts by (row, column) and sums duplicates. Throws InvalidArgument on an
// index outside [0, rows) x [0, cols).
template <class T>
Csr<T> to_csr(const Coo<T>& coo);

template <class T>
Coo<T> to_coo(const Csr<T>& csr);

// Builds a canonical Csr from user arrays (0-based), validating them: sizes,
// monotone row pointers, indices in range. Unsorted rows and duplicates are
// canonicalised. Throws InvalidArgument naming the first bad entry.
template <class T>
Csr<T> csr_from_arrays(index_t rows, index_t cols, const std::vector<index_t>& row_ptr,
                       const std::vector<index_t>& col_idx, const std::vector<T>& values);

// Throws InvalidArgument if `a` is not canonical (see top of file).
template <class T>
void validate(const Csr<T>& a);

template <class T>
Csr<T> transpose(const Csr<T>& a);

// Symmetric or general permutation: row r of A becomes row new_row_of[r] of
// the result and column c becomes column new_col_of[c]. An empty vector means
// the identity. Throws InvalidArgument unless each is a permutation.
template <class T>
Csr<T> permute(const Csr<T>& a, const std::vector<index_t>& new_row_of,
               const std::vector<index_t>& new_col_of);

// Rows [begin, end) of A, all columns.
template <class T>
Csr<T> row_range(const Csr<T>& a, index_t begin, index_t end);

// I_copies (x) A: `copies` copies of A along the diagonal (copy c occupies
// rows [c*rows, (c+1)*rows) and columns [c*cols, (c+1)*cols)). Benchmarks use
// it to measure a matrix's structure at a size far beyond the caches. Throws
// InvalidArgument unless copies >= 1, SizeError when the result exceeds int32.
template <class T>
Csr<T> replicate_block_diagonal(const Csr<T>& a, index_t copies);

// Same matrix with values converted to another type.
template <class To, class From>
Csr<To> cast(const Csr<From>& a);

}  // namespace spmv
