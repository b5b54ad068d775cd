// ELLPACK (ELL): every row padded to the length K of the longest row and
// stored column-major, so that thread r reading slot k of row r and thread
// r + 1 reading slot k of row r + 1 touch adjacent words (Bell & Garland;
// Tang et al. 2013, section 2.1.2).
//
// Slot k of row r is at k * stride + r; stride is the row count rounded up
// to ell_row_alignment so that every slot column starts aligned. Padding
// slots hold column padding_column (-1) and value 0, and always come after
// a row's entries.
#pragma once

#include <vector>

#include "spmv/formats/footprint.hpp"
#include "spmv/matrix.hpp"

namespace spmv {

inline constexpr index_t ell_row_alignment = 32;

template <class T>
struct Ell {
  index_t rows = 0;
  index_t cols = 0;
  index_t width = 0;   // K, slots per row
  index_t stride = 0;  // rows rounded up to ell_row_alignment
  index_t nnz = 0;     // entries stored (padding excluded)
  std::vector<index_t> col_idx;  // width * stride
  std::vector<T> values;         // width * stride
};

struct EllOptions {
  double max_padding = default_max_padding;  // refuse beyond this multiple of the CSR bytes
};

template <class T>
FormatFootprint ell_footprint(const Csr<T>& a);
// ELL of width `width` for a matrix of `rows` rows and `nnz` entries.
template <class T>
FormatFootprint ell_footprint(index_t rows, index_t width, std::int64_t nnz);

// Throws FormatLimitError when ELL of `width` slots for `rows` rows and `nnz`
// entries exceeds `max_padding` times the CSR bytes (SizeError beyond 32-bit
// indices): ell_from_csr's check, shared with the device build.
template <class T>
void check_ell_limit(index_t rows, index_t width, std::int64_t nnz, double max_padding);

// Throws FormatLimitError when the padding exceeds options.max_padding.
template <class T>
Ell<T> ell_from_csr(const Csr<T>& a, const EllOptions& options = {});

// The first min(width, length) entries of every row in ELL of the given
// width; the remaining entries are left out (HYB keeps them in COO).
// No limit is applied.
template <class T>
Ell<T> ell_part_from_csr(const Csr<T>& a, index_t width);

// y = alpha * A * x + beta * y; y is not read when beta == 0.
template <class T>
void multiply(const Ell<T>& a, const T* x, T* y, T alpha, T beta);

}  // namespace spmv
