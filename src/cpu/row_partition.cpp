#include "cpu/row_partition.hpp"

#include <algorithm>
#include <cstdint>

namespace spmv::detail {

RowPartition balanced_row_partition(const std::vector<index_t>& row_ptr, int chunks) {
  const index_t rows = static_cast<index_t>(row_ptr.size()) - 1;
  // Work done before row r is row_ptr[r] + r: non-decreasing in r, so each
  // boundary is a binary search for a fraction of the total.
  const auto work_before = [&](index_t r) { return std::int64_t{row_ptr[r]} + r; };
  const std::int64_t total = work_before(rows);
  RowPartition partition;
  partition.chunk_begin.assign(chunks + 1, rows);
  partition.chunk_begin[0] = 0;
  for (int c = 1; c < chunks; ++c) {
    const std::int64_t target = total * c / chunks;
    index_t low = partition.chunk_begin[c - 1], high = rows;
    while (low < high) {  // first row whose preceding work reaches the target
      const index_t mid = low + (high - low) / 2;
      if (work_before(mid) < target)
        low = mid + 1;
      else
        high = mid;
    }
    partition.chunk_begin[c] = low;
  }
  return partition;
}

}  // namespace spmv::detail
