// BRO-COO: the interval encoder (widths, then the multiplexed lane streams),
// the decoder, footprint, metrics and the serial reference product.
#include "spmv/formats/bro_coo.hpp"

#include <algorithm>
#include <string>
#include <type_traits>

#include "formats/bro_shapes.hpp"
#include "formats/bro_symbols.hpp"
#include "formats/format_common.hpp"
#include "spmv/error.hpp"

namespace spmv {

static_assert(std::is_same_v<detail::bro_symbol_t, std::uint32_t>, "BroCoo stores 32-bit symbols");

namespace {

// The row of every entry, in CSR order.
template <class T>
std::vector<index_t> entry_rows(const Csr<T>& a) {
  std::vector<index_t> rows(a.nnz());
#pragma omp parallel for schedule(static)
  for (index_t r = 0; r < a.rows; ++r)
    std::fill(rows.begin() + a.row_ptr[r], rows.begin() + a.row_ptr[r + 1], r);
  return rows;
}

// The lane grid of one interval, entries [begin, end): slot (s, i) is entry
// begin + 32 s + i, or past the end, which repeats the last entry's row.
struct IntervalGrid {
  std::int64_t begin;
  std::int64_t end;

  index_t steps() const {
    return static_cast<index_t>((end - begin + bro_coo_lanes - 1) / bro_coo_lanes);
  }
  std::int64_t entry(index_t step, index_t lane) const {
    return begin + std::int64_t(step) * bro_coo_lanes + lane;
  }
  index_t row(const std::vector<index_t>& rows, index_t step, index_t lane) const {
    return rows[std::min(entry(step, lane), end - 1)];
  }
};

// Interval w of nnz entries cut into intervals of `interval`.
IntervalGrid interval_grid(std::int64_t nnz, index_t interval, index_t w) {
  const std::int64_t begin = std::int64_t(w) * interval;
  return {begin, std::min(nnz, begin + interval)};
}

// Writes the grid's step widths to `widths` (the widest lane delta of each
// step) and returns the bits of one lane stream.
std::int64_t encode_widths(const IntervalGrid& grid, const std::vector<index_t>& rows,
                           std::uint8_t* widths) {
  index_t previous[bro_coo_lanes];
  std::fill(previous, previous + bro_coo_lanes, rows[grid.begin]);
  std::int64_t bits = 0;
  for (index_t s = 0; s < grid.steps(); ++s) {
    std::uint32_t any_bits = 0;  // the OR of the deltas has the width of the largest
    for (index_t i = 0; i < bro_coo_lanes; ++i) {
      const index_t row = grid.row(rows, s, i);
      any_bits |= static_cast<std::uint32_t>(row - previous[i]);
      previous[i] = row;
    }
    widths[s] = static_cast<std::uint8_t>(detail::bits_needed(any_bits));
    bits += widths[s];
  }
  return bits;
}

// Widths of every interval and the symbol offsets (not the symbols).
struct EncodedWidths {
  std::vector<std::uint8_t> widths;
  std::vector<index_t> symbol_offset;
};

EncodedWidths encode_all_widths(const std::vector<index_t>& rows, index_t interval) {
  const std::int64_t nnz = static_cast<std::int64_t>(rows.size());
  const index_t intervals = static_cast<index_t>((nnz + interval - 1) / interval);
  const index_t steps_per_interval = interval / bro_coo_lanes;
  EncodedWidths encoded;
  encoded.widths.resize(static_cast<std::size_t>((nnz + bro_coo_lanes - 1) / bro_coo_lanes));
  std::vector<std::int64_t> interval_symbols(intervals);
#pragma omp parallel for schedule(static)
  for (index_t w = 0; w < intervals; ++w) {
    const std::int64_t lane_bits =
        encode_widths(interval_grid(nnz, interval, w), rows,
                      encoded.widths.data() + std::size_t(w) * steps_per_interval);
    interval_symbols[w] = bro_coo_lanes * detail::symbols_for_bits(lane_bits);
  }
  encoded.symbol_offset.resize(static_cast<std::size_t>(intervals) + 1);
  std::int64_t total = 0;
  for (index_t w = 0; w < intervals; ++w) {
    encoded.symbol_offset[w] = static_cast<index_t>(total);
    total += interval_symbols[w];
    detail::check_bro_coo_symbols(total);
  }
  encoded.symbol_offset[intervals] = static_cast<index_t>(total);
  return encoded;
}

// Calls visit(k, row) for every entry k of `a`, decoding the rows as the
// kernel does: each lane's stream, step by step.
template <class T, class Visit>
void for_each_entry(const BroCoo<T>& a, Visit visit) {
  const index_t steps_per_interval = a.steps_per_interval();
  for (index_t w = 0; w < a.intervals(); ++w) {
    const IntervalGrid grid = interval_grid(a.nnz(), a.interval, w);
    const std::uint8_t* widths = a.widths.data() + std::size_t(w) * steps_per_interval;
    for (index_t i = 0; i < bro_coo_lanes; ++i) {
      detail::SymbolReader reader(a.symbols.data() + a.symbol_offset[w] + i, bro_coo_lanes);
      index_t row = a.base_row[w];
      for (index_t s = 0; s < grid.steps(); ++s) {
        row += static_cast<index_t>(reader.get(widths[s]));
        if (grid.entry(s, i) < grid.end) visit(static_cast<index_t>(grid.entry(s, i)), row);
      }
    }
  }
}

}  // namespace

template <class T>
FormatFootprint bro_coo_footprint(const Csr<T>& a, const BroCooOptions& options) {
  detail::check_bro_coo_interval(options.interval);
  const EncodedWidths encoded = encode_all_widths(entry_rows(a), options.interval);
  detail::BroCooShape shape;
  shape.rows = a.rows;
  shape.cols = a.cols;
  shape.nnz = a.nnz();
  shape.intervals = static_cast<std::int64_t>(encoded.symbol_offset.size()) - 1;
  shape.widths = static_cast<std::int64_t>(encoded.widths.size());
  shape.symbols = encoded.symbol_offset.back();
  shape.value_bytes = sizeof(T);
  return detail::bro_coo_footprint(shape);
}

template <class T>
BroCoo<T> bro_coo_from_csr(const Csr<T>& a, const BroCooOptions& options) {
  detail::check_bro_coo_interval(options.interval);
  const std::vector<index_t> rows = entry_rows(a);
  EncodedWidths encoded = encode_all_widths(rows, options.interval);
  BroCoo<T> bro;
  bro.rows = a.rows;
  bro.cols = a.cols;
  bro.interval = options.interval;
  bro.widths = std::move(encoded.widths);
  bro.symbol_offset = std::move(encoded.symbol_offset);
  bro.symbols.resize(static_cast<std::size_t>(bro.symbol_offset.back()));
  bro.base_row.resize(bro.symbol_offset.size() - 1);
  const index_t steps_per_interval = bro.steps_per_interval();
#pragma omp parallel for schedule(static)
  for (index_t w = 0; w < bro.intervals(); ++w) {
    const IntervalGrid grid = interval_grid(a.nnz(), bro.interval, w);
    const std::uint8_t* widths = bro.widths.data() + std::size_t(w) * steps_per_interval;
    bro.base_row[w] = rows[grid.begin];
    for (index_t i = 0; i < bro_coo_lanes; ++i) {
      detail::SymbolWriter writer;
      index_t previous = bro.base_row[w];
      for (index_t s = 0; s < grid.steps(); ++s) {
        const index_t row = grid.row(rows, s, i);
        writer.put(static_cast<std::uint32_t>(row - previous), widths[s]);
        previous = row;
      }
      const std::vector<detail::bro_symbol_t> stream = writer.finish();
      for (std::size_t m = 0; m < stream.size(); ++m)
        bro.symbols[bro.symbol_offset[w] + m * bro_coo_lanes + i] = stream[m];
    }
  }
  bro.col_idx = a.col_idx;
  bro.values = a.values;
  return bro;
}

template <class T>
Coo<T> to_coo(const BroCoo<T>& a) {
  Coo<T> coo;
  coo.rows = a.rows;
  coo.cols = a.cols;
  coo.row_idx.resize(a.nnz());
  for_each_entry(a, [&](index_t k, index_t row) { coo.row_idx[k] = row; });
  coo.col_idx = a.col_idx;
  coo.values = a.values;
  return coo;
}

template <class T>
CompressionMetrics bro_coo_metrics(const BroCoo<T>& a) {
  return detail::bro_coo_metrics(detail::bro_coo_shape(a));
}

template <class T>
void multiply(const BroCoo<T>& a, const T* x, T* y, T alpha, T beta) {
  std::vector<double> sums(a.rows, 0.0);
  for_each_entry(a, [&](index_t k, index_t row) {
    sums[row] += static_cast<double>(a.values[k]) * static_cast<double>(x[a.col_idx[k]]);
  });
  for (index_t r = 0; r < a.rows; ++r) detail::store_scaled(y[r], sums[r], alpha, beta);
}

#define SPMV_INSTANTIATE_BRO_COO(T)                                                \
  template FormatFootprint bro_coo_footprint(const Csr<T>&, const BroCooOptions&); \
  template BroCoo<T> bro_coo_from_csr(const Csr<T>&, const BroCooOptions&);        \
  template Coo<T> to_coo(const BroCoo<T>&);                                        \
  template CompressionMetrics bro_coo_metrics(const BroCoo<T>&);                   \
  template void multiply(const BroCoo<T>&, const T*, T*, T, T);
SPMV_INSTANTIATE_BRO_COO(float)
SPMV_INSTANTIATE_BRO_COO(double)
#undef SPMV_INSTANTIATE_BRO_COO

}  // namespace spmv
