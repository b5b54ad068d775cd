#include "cuda/csr_row_blocks.hpp"

namespace spmv::detail {

RowBlocks build_row_blocks(const std::vector<index_t>& row_ptr, index_t capacity, index_t longest_grouped,
                           std::int64_t max_chunk) {
  RowBlocks out;
  const index_t rows = static_cast<index_t>(row_ptr.size()) - 1;
  const auto& ptr = row_ptr;
  for (index_t r = 0; r < rows;) {
    const std::int64_t length = ptr[r + 1] - ptr[r];
    if (length <= longest_grouped) {
      // As many following rows as fit in the capacity, none of them long.
      index_t end = r;
      while (end < rows && end - r < capacity && ptr[end + 1] - ptr[end] <= longest_grouped &&
             ptr[end + 1] - ptr[r] <= capacity)
        ++end;
      out.blocks.push_back({r, end, ptr[r], ptr[end], -1});
      r = end;
      continue;
    }
    const std::int64_t chunks = (length + max_chunk - 1) / max_chunk;
    if (chunks == 1) {
      out.blocks.push_back({r, r + 1, ptr[r], ptr[r + 1], -1});
    } else {
      out.cut_rows.push_back({r, out.partial_count, static_cast<index_t>(chunks)});
      for (std::int64_t c = 0; c < chunks; ++c)
        out.blocks.push_back({r, r + 1, static_cast<index_t>(ptr[r] + length * c / chunks),
                              static_cast<index_t>(ptr[r] + length * (c + 1) / chunks), out.partial_count++});
    }
    ++r;
  }
  return out;
}

}  // namespace spmv::detail
