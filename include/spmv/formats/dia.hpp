// DIA (diagonal format) for banded and stencil matrices: one dense column of
// values per occupied diagonal, no column indices at all.
//
// Diagonal d holds A(r, r + offsets[d]) at d * stride + r for every row r
// (stride: rows rounded up to dia_row_alignment), 0 where that diagonal has
// no entry or leaves the matrix. Because the zeros inside a stored diagonal
// are multiplied like entries, an Inf or NaN in x reaches rows whose CSR
// product would not touch it (true of every DIA implementation).
#pragma once

#include <vector>

#include "spmv/formats/footprint.hpp"
#include "spmv/matrix.hpp"

namespace spmv {

inline constexpr index_t dia_row_alignment = 32;

template <class T>
struct Dia {
  index_t rows = 0;
  index_t cols = 0;
  index_t stride = 0;  // rows rounded up to dia_row_alignment
  index_t nnz = 0;
  std::vector<index_t> offsets;  // column - row of each stored diagonal, increasing
  std::vector<T> values;         // offsets.size() * stride
};

struct DiaOptions {
  double max_padding = default_max_padding;
};

template <class T>
FormatFootprint dia_footprint(const Csr<T>& a);

// Throws FormatLimitError when the diagonals need more than
// options.max_padding times the CSR bytes.
template <class T>
Dia<T> dia_from_csr(const Csr<T>& a, const DiaOptions& options = {});

// y = alpha * A * x + beta * y; y is not read when beta == 0.
template <class T>
void multiply(const Dia<T>& a, const T* x, T* y, T alpha, T beta);

}  // namespace spmv
