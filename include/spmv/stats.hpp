// Structural analysis of a matrix; feeds the format selector and `spmv info`.
// analyse() takes O(nnz log nnz) time (the distinct-value count sorts a copy
// of the values; everything else is O(rows + cols + nnz)), or
// O(rows + cols + sample) with StatsOptions::sample_nonzeros, O(rows / 1024 +
// cols + samples) with sample_rows too. It expects valid row pointers
// (validate() checks them) and checks the entries it reads: a column out of
// range, out of order or repeated is an InvalidArgument, as from validate().
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "spmv/matrix.hpp"

namespace spmv {

struct RowLengthStats {
  index_t min = 0;
  index_t max = 0;
  double mean = 0;
  double std = 0;  // population standard deviation
};

struct BlockDensity {
  index_t block_rows = 0;
  index_t block_cols = 0;
  std::int64_t occupied_blocks = 0;  // blocks with at least one non-zero
  double density = 0;                // nnz / (occupied_blocks * block_rows * block_cols)
};

struct MatrixStats {
  index_t rows = 0;
  index_t cols = 0;
  index_t nnz = 0;
  RowLengthStats row_length;
  // Row-length histogram: bucket 0 holds empty rows, bucket k >= 1 holds rows
  // with length in [2^(k-1), 2^k). It ends at the bucket of the longest row
  // (empty for a matrix with no rows), so its sum is `rows`.
  std::vector<index_t> row_length_histogram;
  index_t empty_rows = 0;
  index_t lower_bandwidth = 0;     // max(0, i - j) over non-zeros, 0 if none
  index_t upper_bandwidth = 0;     // max(0, j - i) over non-zeros, 0 if none
  index_t occupied_diagonals = 0;  // distinct (j - i) values
  double ell_padding_ratio = 0;    // rows * max_row_length / nnz (1 = no padding; 1 when nnz = 0)
  index_t hyb_ell_width = 0;       // Bell-Garland split: ELL part width K (hyb_split_width)
  index_t hyb_coo_nnz = 0;         // entries beyond K that go to the COO part: sum max(0, len - K)
  std::vector<BlockDensity> block_density;
  bool pattern_symmetric = false;  // square and (i,j) present iff (j,i) present
  bool value_symmetric = false;    // pattern symmetric and a_ij == a_ji
  // Distinct stored values (explicit zeros included; -0 and +0 are one value,
  // every NaN together counts as one); see StatsOptions::distinct_value_limit.
  std::int64_t distinct_values = 0;
  // What the structure statistics (bandwidth, diagonals, blocks, symmetry,
  // distinct values) were computed from: every row and entry, or the sample
  // that StatsOptions::sample_nonzeros asked for.
  index_t sampled_rows = 0;
  index_t sampled_nnz = 0;
  // The rows whose lengths the row-length statistics (and the histogram,
  // ELL padding and HYB split) read: rows, or StatsOptions::sample_rows's.
  index_t row_length_rows = 0;
};

struct StatsOptions {
  // Block shapes (rows, cols), each >= 1, whose dense-block density is
  // reported. Blocks are aligned at multiples of the shape; a block on the
  // lower or right edge still counts its full area, as BSR would store it.
  std::vector<std::pair<index_t, index_t>> block_sizes{{2, 2}, {4, 4}, {8, 8}, {4, 64}};
  // false skips the symmetry check (pattern_symmetric and value_symmetric
  // stay false).
  bool symmetry = true;
  // 0 counts every distinct value (a sort when there are many); N > 0 stops
  // at N (a power of two) and reports N + 1 for "more than N": one pass.
  std::size_t distinct_value_limit = 0;
  // 0 reads every entry. N > 0 with nnz > N computes the structure statistics
  // from about N entries: runs of consecutive rows at up to 64 evenly spaced
  // places (fewer where 8 rows hold more than N / 64 entries; each run starts
  // at a multiple of 64 rows, so blocks and diagonals are seen whole). What a
  // run sees is exact; what lies between runs is not seen.
  std::int64_t sample_nonzeros = 0;
  // 0 reads every row's length. N > 0 with rows > N estimates the row-length
  // statistics from N to 1.5 N rows, in blocks of 1024: the blocks holding
  // more than twice a mean block's entries (by row_ptr at every block's end),
  // the heaviest first, up to N / 1024 of them and at least N / 2048, are read
  // whole, and the other rows are counted as N / 2048 blocks spread over them.
  // The mean stays exact (nnz / rows); min and max are those of the rows
  // read (so a long row outside the heaviest blocks can be missed); std, the
  // histogram (scaled to sum to rows), empty rows, ELL padding and the HYB
  // split are estimates.
  std::int64_t sample_rows = 0;
};

template <class T>
MatrixStats analyse(const Csr<T>& a, const StatsOptions& options = {});

// The Bell-Garland HYB rule as CUSP implements it (relative_speed 3,
// breakeven_threshold 4096): with R = row_lengths.size() and
// count(K) = the number of rows of length >= K, the result is the largest K
// in [0, max length] such that count(k) >= 4096 and 3 * count(k) >= R for
// every k in [1, K]. As count is non-increasing, that is the largest K with
// count(K) >= max(4096, R / 3) (R / 3 exact, not rounded), or 0. A matrix
// with fewer than 4096 non-empty rows therefore gets K = 0 (all COO).
index_t hyb_split_width(const std::vector<index_t>& row_lengths);

// The same rule from a histogram: rows_of_length[L] rows of length L, the
// last entry counting every longer row too, over `rows` rows. K needs
// 3 * count(length >= K) >= rows, so K <= 3 * nnz / rows: a histogram of
// hyb_length_cap(nnz, rows) + 1 entries tells apart every length that matters.
index_t hyb_split_width_of_counts(const std::vector<std::int64_t>& rows_of_length, std::int64_t rows);
std::size_t hyb_length_cap(std::int64_t nnz, std::int64_t rows);

}  // namespace spmv
