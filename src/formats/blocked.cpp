// The blocked format's run-time inspector, builder and reference product.
#include "spmv/formats/blocked.hpp"

#include <algorithm>
#include <limits>

#include "formats/blocked_limits.hpp"
#include "formats/format_common.hpp"
#include "spmv/error.hpp"

namespace spmv {

namespace {

// The inspector's result: where the blocks are and how long each row
// segment is. stored_entries is 64-bit so that the footprint check can
// refuse a layout that does not fit 32-bit indices.
struct BlockLayout {
  std::vector<index_t> row_block_ptr{0};
  std::vector<index_t> block_col;
  std::vector<std::uint8_t> row_units;
  std::int64_t stored_entries = 0;
};

// Visits the blocks of row block `first_row / block_rows` in order, calling
// take(c, q, begin, end) for row q of block c with its entries [begin, end).
template <class T, class Take>
void walk_row_block(const Csr<T>& a, index_t first_row, const BlockedOptions& options,
                    std::vector<index_t>& cursor, Take take) {
  const index_t rows_here = std::min(options.block_rows, a.rows - first_row);
  for (index_t q = 0; q < rows_here; ++q) cursor[q] = a.row_ptr[first_row + q];
  for (;;) {
    index_t next = std::numeric_limits<index_t>::max();
    for (index_t q = 0; q < rows_here; ++q)
      if (cursor[q] < a.row_ptr[first_row + q + 1]) next = std::min(next, a.col_idx[cursor[q]]);
    if (next == std::numeric_limits<index_t>::max()) return;
    const index_t c = next / blocked_alignment * blocked_alignment;
    const std::int64_t block_end = static_cast<std::int64_t>(c) + options.block_cols;
    for (index_t q = 0; q < options.block_rows; ++q) {
      const index_t begin = q < rows_here ? cursor[q] : 0;
      index_t end = begin;
      if (q < rows_here)
        while (end < a.row_ptr[first_row + q + 1] && a.col_idx[end] < block_end) ++end;
      take(c, q, begin, end);
      if (q < rows_here) cursor[q] = end;
    }
  }
}

template <class T>
BlockLayout inspect(const Csr<T>& a, const BlockedOptions& options) {
  BlockLayout layout;
  std::vector<index_t> cursor(options.block_rows);
  for (std::int64_t first = 0; first < a.rows; first += options.block_rows) {
    walk_row_block(a, static_cast<index_t>(first), options, cursor,
                   [&](index_t c, index_t q, index_t begin, index_t end) {
                     if (q == 0) layout.block_col.push_back(c);
                     const index_t units = (end - begin + blocked_alignment - 1) / blocked_alignment;
                     layout.row_units.push_back(static_cast<std::uint8_t>(units));
                     layout.stored_entries += static_cast<std::int64_t>(units) * blocked_alignment;
                   });
    layout.row_block_ptr.push_back(static_cast<index_t>(layout.block_col.size()));
  }
  return layout;
}

}  // namespace

namespace detail {

void check_blocked_options(const BlockedOptions& options) {
  if (options.block_rows < 1)
    throw InvalidArgument("blocked format: block_rows must be at least 1, got " +
                          std::to_string(options.block_rows));
  if (options.block_cols < blocked_alignment || options.block_cols > blocked_max_block_cols ||
      options.block_cols % blocked_alignment != 0)
    throw InvalidArgument("blocked format: block_cols must be a multiple of " +
                          std::to_string(blocked_alignment) + " in [" + std::to_string(blocked_alignment) +
                          ", " + std::to_string(blocked_max_block_cols) + "], got " +
                          std::to_string(options.block_cols));
}

FormatFootprint blocked_footprint_of(const BlockedOptions& options, index_t rows, index_t nnz,
                                     std::size_t value_bytes, std::int64_t stored_entries, std::size_t blocks) {
  const std::size_t row_blocks = (static_cast<std::size_t>(rows) + options.block_rows - 1) / options.block_rows;
  FormatFootprint f;
  f.nnz = nnz;
  f.stored_entries = stored_entries;
  f.bytes = static_cast<std::size_t>(stored_entries) * (value_bytes + sizeof(std::uint16_t)) +
            (row_blocks + 1) * sizeof(index_t) +
            blocks * (2 * sizeof(index_t) + static_cast<std::size_t>(options.block_rows)) + sizeof(index_t);
  f.csr_bytes = csr_bytes(rows, nnz, value_bytes);
  return f;
}

void check_blocked_limit(const BlockedOptions& options, index_t rows, index_t nnz, std::size_t value_bytes,
                         std::int64_t stored_entries, std::size_t blocks) {
  const FormatFootprint f = blocked_footprint_of(options, rows, nnz, value_bytes, stored_entries, blocks);
  check_footprint("blocked " + std::to_string(options.block_rows) + "x" + std::to_string(options.block_cols), f,
                  options.max_padding,
                  "fill-in " + one_decimal(f.fill_ratio()) + "x over " + std::to_string(blocks) + " blocks",
                  "csr-vector, sell or smaller block_cols");
}

}  // namespace detail

template <class T>
FormatFootprint blocked_footprint(const Csr<T>& a, const BlockedOptions& options) {
  detail::check_blocked_options(options);
  const BlockLayout layout = inspect(a, options);
  return detail::blocked_footprint_of(options, a.rows, a.nnz(), sizeof(T), layout.stored_entries,
                                      layout.block_col.size());
}

template <class T>
Blocked<T> blocked_from_csr(const Csr<T>& a, const BlockedOptions& options) {
  detail::check_blocked_options(options);
  BlockLayout layout = inspect(a, options);
  detail::check_blocked_limit(options, a.rows, a.nnz(), sizeof(T), layout.stored_entries, layout.block_col.size());
  Blocked<T> b;
  b.rows = a.rows;
  b.cols = a.cols;
  b.block_rows = options.block_rows;
  b.block_cols = options.block_cols;
  b.nnz = a.nnz();
  b.row_block_ptr = std::move(layout.row_block_ptr);
  b.block_col = std::move(layout.block_col);
  b.row_units = std::move(layout.row_units);
  b.col_offset.assign(static_cast<std::size_t>(layout.stored_entries), static_cast<std::uint16_t>(b.block_cols));
  b.values.assign(static_cast<std::size_t>(layout.stored_entries), T(0));
  b.block_entry_ptr.assign(1, 0);
  std::vector<index_t> cursor(options.block_rows);
  index_t segment = 0;  // index into row_units
  index_t next_entry = 0;
  for (std::int64_t first = 0; first < a.rows; first += options.block_rows) {
    walk_row_block(a, static_cast<index_t>(first), options, cursor,
                   [&](index_t c, index_t q, index_t begin, index_t end) {
                     for (index_t k = begin; k < end; ++k) {
                       b.col_offset[next_entry + (k - begin)] = static_cast<std::uint16_t>(a.col_idx[k] - c);
                       b.values[next_entry + (k - begin)] = a.values[k];
                     }
                     next_entry += b.row_units[segment++] * blocked_alignment;
                     if (q == b.block_rows - 1) b.block_entry_ptr.push_back(next_entry);
                   });
  }
  return b;
}

template <class T>
void multiply(const Blocked<T>& a, const T* x, T* y, T alpha, T beta) {
  for (std::size_t row_block = 0; row_block + 1 < a.row_block_ptr.size(); ++row_block) {
    const index_t first_row = static_cast<index_t>(row_block) * a.block_rows;
    std::vector<double> sums(a.block_rows, 0.0);
    for (index_t block = a.row_block_ptr[row_block]; block < a.row_block_ptr[row_block + 1]; ++block) {
      index_t entry = a.block_entry_ptr[block];
      for (index_t q = 0; q < a.block_rows; ++q) {
        const index_t length = a.row_units[static_cast<std::size_t>(block) * a.block_rows + q] * blocked_alignment;
        for (index_t k = entry; k < entry + length; ++k)
          if (a.col_offset[k] != a.block_cols)
            sums[q] += static_cast<double>(a.values[k]) *
                       static_cast<double>(x[a.block_col[block] + a.col_offset[k]]);
        entry += length;
      }
    }
    for (index_t q = 0; q < a.block_rows && first_row + q < a.rows; ++q)
      detail::store_scaled(y[first_row + q], sums[q], alpha, beta);
  }
}

#define SPMV_INSTANTIATE_BLOCKED(T)                                                  \
  template FormatFootprint blocked_footprint(const Csr<T>&, const BlockedOptions&);  \
  template Blocked<T> blocked_from_csr(const Csr<T>&, const BlockedOptions&);        \
  template void multiply(const Blocked<T>&, const T*, T*, T, T);
SPMV_INSTANTIATE_BLOCKED(float)
SPMV_INSTANTIATE_BLOCKED(double)
#undef SPMV_INSTANTIATE_BLOCKED

}  // namespace spmv
