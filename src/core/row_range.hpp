// Rows [begin, end) of a matrix: a run of rows the analysis reads, or a
// part of a distributed operator's rows.
#pragma once

#include "spmv/types.hpp"

namespace spmv::detail {

struct RowRange {
  index_t begin = 0;
  index_t end = 0;
  bool empty() const { return begin == end; }
};

}  // namespace spmv::detail
