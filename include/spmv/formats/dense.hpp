// A dense copy of the matrix, column-major (cuBLAS's layout), for the
// sparse-versus-dense crossover of El Zein's thesis: dense gemv reads
// rows * cols values and no indices, so it wins once the density is high
// enough. Refused beyond a size limit rather than a padding ratio, since
// its point is to be compared at any density. Its zeros are multiplied
// like entries, so an Inf or NaN in x reaches every row.
#pragma once

#include <cstddef>
#include <vector>

#include "spmv/formats/footprint.hpp"
#include "spmv/matrix.hpp"

namespace spmv {

template <class T>
struct Dense {
  index_t rows = 0;
  index_t cols = 0;
  std::vector<T> values;  // A(i, j) at j * rows + i
};

struct DenseOptions {
  std::size_t max_bytes = std::size_t(1) << 30;  // 1 GiB
};

template <class T>
FormatFootprint dense_footprint(const Csr<T>& a);
template <class T>
FormatFootprint dense_footprint(index_t rows, index_t cols, std::int64_t nnz);

// Throws FormatLimitError when rows * cols values exceed max_bytes:
// dense_from_csr's check, shared with the device build.
template <class T>
void check_dense_limit(index_t rows, index_t cols, std::int64_t nnz, std::size_t max_bytes);

// Throws FormatLimitError when rows * cols values exceed options.max_bytes.
template <class T>
Dense<T> dense_from_csr(const Csr<T>& a, const DenseOptions& options = {});

// y = alpha * A * x + beta * y; y is not read when beta == 0.
template <class T>
void multiply(const Dense<T>& a, const T* x, T* y, T alpha, T beta);

}  // namespace spmv
