// Splitting the rows of a CSR matrix into contiguous chunks of equal work, one
// chunk per thread. Work of a row = its non-zeros + 1 (the +1 counts the row's
// own overhead, so that runs of empty rows are shared out too).
#pragma once

#include <vector>

#include "spmv/matrix.hpp"

namespace spmv::detail {

struct RowPartition {
  // Chunk c holds rows [chunk_begin[c], chunk_begin[c + 1]); chunks() + 1 entries.
  std::vector<index_t> chunk_begin{0, 0};

  int chunks() const { return static_cast<int>(chunk_begin.size()) - 1; }
  index_t begin(int chunk) const { return chunk_begin[chunk]; }
  index_t end(int chunk) const { return chunk_begin[chunk + 1]; }
};

// `chunks` >= 1 chunks; some may be empty when the matrix has fewer rows.
RowPartition balanced_row_partition(const std::vector<index_t>& row_ptr, int chunks);

}  // namespace spmv::detail
