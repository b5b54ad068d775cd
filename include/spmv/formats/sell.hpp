// SELL-C-sigma (Kreutzer, Hager, Wellein, Fehske & Bishop, SIAM J. Sci.
// Comput. 2014): sliced ELL with local sorting. Rows are sorted by
// decreasing length within windows of sigma rows; consecutive groups of C
// sorted rows form chunks, each padded only to its own longest row and
// stored column-major, so that C threads read C adjacent words per step.
//
// The row permutation stays inside the format: row_of maps each sorted
// position back to its row of A, so x and y keep the user's order. Entry j
// of sorted position p (chunk p / C, lane p % C) is at
// chunk_ptr[p / C] + j * C + p % C. Padding holds padding_column and 0 and
// is never read by a product, which stops at row_length[p].
#pragma once

#include <vector>

#include "spmv/formats/footprint.hpp"
#include "spmv/matrix.hpp"

namespace spmv {

template <class T>
struct Sell {
  index_t rows = 0;
  index_t cols = 0;
  index_t chunk_rows = 32;  // C
  index_t sigma = 1;        // sorting window
  index_t nnz = 0;
  std::vector<index_t> chunk_ptr;   // first slot of each chunk, chunks + 1 entries
  std::vector<index_t> row_of;      // row of A at each sorted position
  std::vector<index_t> row_length;  // length of the row at each sorted position
  std::vector<index_t> col_idx;     // chunk_ptr.back() slots
  std::vector<T> values;            // chunk_ptr.back() slots
};

struct SellOptions {
  // C = 32 lets a warp read a chunk with one 128/256-byte access per step
  // (Kreutzer et al.'s choice for NVIDIA GPUs); sigma = 256 sorts within 8
  // chunks, keeping rows near their x neighbourhood. Starting points from
  // the paper, not yet tuned by measurement here.
  index_t chunk_rows = 32;
  index_t sigma = 256;  // 1 (no sorting) or a multiple of chunk_rows
  double max_padding = default_max_padding;
};

// Throws InvalidArgument for chunk_rows < 1 or a sigma that is neither 1
// nor a multiple of chunk_rows.
template <class T>
FormatFootprint sell_footprint(const Csr<T>& a, const SellOptions& options = {});

// Throws FormatLimitError when the padding exceeds options.max_padding.
template <class T>
Sell<T> sell_from_csr(const Csr<T>& a, const SellOptions& options = {});

// y = alpha * A * x + beta * y; y is not read when beta == 0.
template <class T>
void multiply(const Sell<T>& a, const T* x, T* y, T alpha, T beta);

}  // namespace spmv
