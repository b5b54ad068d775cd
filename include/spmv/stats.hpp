// Structural analysis of a matrix; feeds the format selector and `spmv info`.
#pragma once

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
  // with length in [2^(k-1), 2^k).
  std::vector<index_t> row_length_histogram;
  index_t empty_rows = 0;
  index_t lower_bandwidth = 0;      // max(i - j) over non-zeros, 0 if none
  index_t upper_bandwidth = 0;      // max(j - i) over non-zeros, 0 if none
  index_t occupied_diagonals = 0;   // distinct (j - i) values
  double ell_padding_ratio = 0;     // rows * max_row_length / nnz (1 = no padding)
  index_t hyb_ell_width = 0;        // Bell-Garland split: ELL part width K
  index_t hyb_coo_nnz = 0;          // entries beyond K that go to the COO part
  std::vector<BlockDensity> block_density;
  bool pattern_symmetric = false;   // square and (i,j) present iff (j,i) present
  bool value_symmetric = false;     // pattern symmetric and a_ij == a_ji
  std::int64_t distinct_values = 0;
};

struct StatsOptions {
  // Block shapes whose dense-block density is reported.
  std::vector<std::pair<index_t, index_t>> block_sizes{{2, 2}, {4, 4}, {8, 8}, {4, 64}};
};

template <class T>
MatrixStats analyse(const Csr<T>& a, const StatsOptions& options = {});

// The Bell-Garland HYB rule: the largest K such that at least
// max(4096, rows/3) rows have K or more non-zeros (Bell & Garland 2009).
index_t hyb_split_width(const std::vector<index_t>& row_lengths);

}  // namespace spmv
