// Baskaran & Bordawekar's GPU blocked format (IBM RC24704, 2009, section
// 4.2), found by run-time inspection of the matrix.
//
// Rows are grouped into row blocks of block_rows (b_r) rows. Within a row
// block, the inspector walks the columns left to right and opens a block of
// block_cols (b_c) columns at the first column not yet covered, rounded down
// to a multiple of blocked_alignment (a half-warp: the paper's "c mod b_c is
// 0 or a multiple of the half-warp size"). A block is not made dense: each
// of its rows keeps only its own entries, padded to a multiple of the
// half-warp, so that a half-warp reads one row segment with one aligned
// access. The kernel stages x[c, c + b_c) of a block in shared memory and
// reuses it across the block's rows.
//
// Entries of block b: row 0's segment, then row 1's, ...; each segment is
// row_units[b * block_rows + q] * blocked_alignment entries. An entry stores
// its column as an offset from block_col[b]; padding has offset block_cols
// (one past the staged x, where the kernel keeps a zero) and value 0.
#pragma once

#include <cstdint>
#include <vector>

#include "spmv/formats/footprint.hpp"
#include "spmv/matrix.hpp"

namespace spmv {

inline constexpr index_t blocked_alignment = 16;     // half-warp
inline constexpr index_t blocked_max_block_cols = 1024;  // row_units fit 8 bits

template <class T>
struct Blocked {
  index_t rows = 0;
  index_t cols = 0;
  index_t block_rows = 4;   // b_r
  index_t block_cols = 64;  // b_c
  index_t nnz = 0;
  std::vector<index_t> row_block_ptr;    // first block of each row block; row blocks + 1
  std::vector<index_t> block_col;        // first column of each block
  std::vector<index_t> block_entry_ptr;  // first entry of each block; blocks + 1
  std::vector<std::uint8_t> row_units;   // blocks * block_rows segment lengths, in half-warps
  std::vector<std::uint16_t> col_offset;  // column - block_col, or block_cols for padding
  std::vector<T> values;                  // 0 in padding

  index_t blocks() const { return static_cast<index_t>(block_col.size()); }
};

struct BlockedOptions {
  index_t block_rows = 4;   // the paper's b_r
  index_t block_cols = 64;  // the paper's b_c
  double max_padding = default_max_padding;
};

// Runs the inspection (without filling entries). Throws InvalidArgument
// unless block_rows >= 1 and block_cols is a multiple of blocked_alignment
// in [blocked_alignment, blocked_max_block_cols].
template <class T>
FormatFootprint blocked_footprint(const Csr<T>& a, const BlockedOptions& options = {});

// Throws FormatLimitError when the fill-in exceeds options.max_padding.
template <class T>
Blocked<T> blocked_from_csr(const Csr<T>& a, const BlockedOptions& options = {});

// y = alpha * A * x + beta * y; y is not read when beta == 0.
template <class T>
void multiply(const Blocked<T>& a, const T* x, T* y, T alpha, T beta);

}  // namespace spmv
