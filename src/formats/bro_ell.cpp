// BRO-ELL: the layout (slice columns, bit widths, symbol counts, value
// table) planned in one pass over the entries, packing in a second, and the
// decoder shared by the reference product and the round trip.
//
// Both passes run over slices in parallel; each slice writes only its own
// ranges of the output arrays, and a stream's symbols go from its writer
// straight to their multiplexed places (the arrays start zeroed, and zero
// bits are padding, so a stream's unwritten tail needs no work).
#include "spmv/formats/bro_ell.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "formats/bro_shapes.hpp"
#include "formats/bro_symbols.hpp"
#include "formats/format_common.hpp"
#include "spmv/error.hpp"

namespace spmv {

namespace {

using detail::bro_symbol_t;
using detail::SymbolReader;
using detail::SymbolWriter;
static_assert(std::is_same_v<bro_symbol_t, std::uint32_t>, "BroEll stores 32-bit symbols");

// The entries of one stream in the Csr arrays: first, first + step, ... < end.
struct StreamEntries {
  index_t first = 0;
  index_t end = 0;
  index_t step = 1;
  index_t length() const { return first < end ? (end - first + step - 1) / step : 0; }
};

// Stream `stream` is part stream % T of row stream / T; streams past the
// last row (completing the last slice) are empty.
template <class T>
StreamEntries stream_entries(const Csr<T>& a, index_t threads_per_row, std::int64_t stream) {
  const std::int64_t row = stream / threads_per_row;
  if (row >= a.rows) return {};
  return {a.row_ptr[row] + static_cast<index_t>(stream % threads_per_row), a.row_ptr[row + 1], threads_per_row};
}

// Exact value codes: every distinct bit pattern among the values gets a
// code, in order of first appearance (so -0.0 and 0.0, or two NaNs, stay
// apart and a round trip is bitwise exact). Open addressing on the pattern.
template <class T>
class ValueTable {
 public:
  // Codes for `values`; false (and an unusable table) when they hold more
  // than `max_entries` distinct values.
  bool build(const std::vector<T>& values, std::size_t max_entries) {
    // At least four slots per possible entry keep the probe sequences short.
    slot_bits_ = 1;
    while ((std::size_t(1) << slot_bits_) < 4 * std::min(max_entries, values.size())) ++slot_bits_;
    keys_.assign(std::size_t(1) << slot_bits_, 0);
    codes_.assign(std::size_t(1) << slot_bits_, -1);
    table_.clear();
    for (const T value : values) {
      const std::size_t slot = slot_of(pattern(value));
      if (codes_[slot] >= 0) continue;
      if (table_.size() == max_entries) return false;
      keys_[slot] = pattern(value);
      codes_[slot] = static_cast<std::int32_t>(table_.size());
      table_.push_back(value);
    }
    return true;
  }
  std::uint32_t code_of(T value) const { return static_cast<std::uint32_t>(codes_[slot_of(pattern(value))]); }
  const std::vector<T>& table() const { return table_; }
  // Bits of a code: 0 when all entries share one value.
  int code_bits() const {
    return table_.size() <= 1 ? 0 : detail::bits_needed(static_cast<std::uint32_t>(table_.size() - 1));
  }

 private:
  static std::uint64_t pattern(T value) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof value);
    return bits;
  }
  // The slot holding `key`, or the empty slot where it belongs (Fibonacci hashing, linear probing).
  std::size_t slot_of(std::uint64_t key) const {
    const std::size_t mask = (std::size_t(1) << slot_bits_) - 1;
    std::size_t slot = static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ull) >> (64 - slot_bits_));
    while (codes_[slot] >= 0 && keys_[slot] != key) slot = (slot + 1) & mask;
    return slot;
  }

  int slot_bits_ = 0;
  std::vector<std::uint64_t> keys_;
  std::vector<std::int32_t> codes_;
  std::vector<T> table_;
};

// Everything about the format but its packed contents, in 64-bit offsets
// (it is planned before the size checks).
template <class T>
struct StreamLayout {
  std::int64_t slices = 0;
  std::vector<std::int64_t> width_offset{0};
  std::vector<std::uint8_t> widths;
  std::vector<std::int64_t> symbol_offset{0};
  ValueTable<T> value_table;
  bool value_codes = false;
  std::vector<std::int64_t> code_symbol_offset{0};

  std::int64_t stored_entries(index_t slice_height) const { return width_offset.back() * slice_height; }
};

// The layout's sizes (longest_row left 0: no refusal or footprint needs it).
template <class T>
detail::BroEllShape layout_shape(const Csr<T>& a, index_t slice_height, const StreamLayout<T>& layout) {
  detail::BroEllShape shape;
  shape.rows = a.rows;
  shape.cols = a.cols;
  shape.nnz = a.nnz();
  shape.slice_height = slice_height;
  shape.slices = layout.slices;
  shape.slice_columns = layout.width_offset.back();
  shape.symbols = layout.symbol_offset.back();
  shape.value_codes = layout.value_codes;
  shape.code_symbols = layout.code_symbol_offset.back();
  shape.table_entries = static_cast<std::int64_t>(layout.value_table.table().size());
  shape.value_bytes = sizeof(T);
  return shape;
}

// Columns of each slice (its longest stream) and the bit width of each slice
// column (the widest field in it; the width of a bitwise OR of fields is
// that of the widest).
template <class T>
void plan_widths(const Csr<T>& a, const BroEllOptions& options, StreamLayout<T>& layout) {
  const index_t h = options.slice_height;
  const index_t t = options.threads_per_row;
  std::vector<std::int64_t> columns(layout.slices);
#pragma omp parallel for schedule(static)
  for (std::int64_t slice = 0; slice < layout.slices; ++slice) {
    index_t longest = 0;
    for (index_t lane = 0; lane < h; ++lane)
      longest = std::max(longest, stream_entries(a, t, slice * h + lane).length());
    columns[slice] = longest;
  }
  layout.width_offset.resize(layout.slices + 1);
  for (std::int64_t slice = 0; slice < layout.slices; ++slice)
    layout.width_offset[slice + 1] = layout.width_offset[slice] + columns[slice];
  layout.widths.assign(static_cast<std::size_t>(layout.width_offset.back()), 0);
#pragma omp parallel for schedule(dynamic, 4)
  for (std::int64_t slice = 0; slice < layout.slices; ++slice) {
    std::vector<std::uint32_t> fields_or(static_cast<std::size_t>(columns[slice]), 0);
    for (index_t lane = 0; lane < h; ++lane) {
      const StreamEntries s = stream_entries(a, t, slice * h + lane);
      index_t previous = -1;
      std::size_t j = 0;
      for (index_t e = s.first; e < s.end; e += s.step, ++j) {
        fields_or[j] |= static_cast<std::uint32_t>(a.col_idx[e] - previous);
        previous = a.col_idx[e];
      }
    }
    for (std::size_t j = 0; j < fields_or.size(); ++j)
      layout.widths[layout.width_offset[slice] + j] = static_cast<std::uint8_t>(detail::bits_needed(fields_or[j]));
  }
}

// Symbols per slice: each stream holds sum_j b_j bits (index) or
// l_i * code bits (codes), h streams per slice.
template <class T>
void plan_symbols(index_t slice_height, StreamLayout<T>& layout) {
  layout.symbol_offset.resize(layout.slices + 1);
  for (std::int64_t slice = 0; slice < layout.slices; ++slice) {
    std::int64_t bits = 0;
    for (std::int64_t j = layout.width_offset[slice]; j < layout.width_offset[slice + 1]; ++j)
      bits += layout.widths[j];
    layout.symbol_offset[slice + 1] = layout.symbol_offset[slice] + detail::symbols_for_bits(bits) * slice_height;
  }
}

template <class T>
void plan_code_symbols(index_t slice_height, StreamLayout<T>& layout) {
  const int code_bits = layout.value_table.code_bits();
  layout.code_symbol_offset.resize(layout.slices + 1);
  for (std::int64_t slice = 0; slice < layout.slices; ++slice) {
    const std::int64_t columns = layout.width_offset[slice + 1] - layout.width_offset[slice];
    layout.code_symbol_offset[slice + 1] =
        layout.code_symbol_offset[slice] + detail::symbols_for_bits(columns * code_bits) * slice_height;
  }
}

// Whether the entries are stored as codes (see BroValueCodes).
template <class T>
void plan_value_codes(const Csr<T>& a, const BroEllOptions& options, StreamLayout<T>& layout) {
  if (options.value_codes == BroValueCodes::never || a.nnz() == 0) return;
  if (!layout.value_table.build(a.values, detail::bro_value_table_limit(options.value_codes, sizeof(T)))) {
    if (options.value_codes == BroValueCodes::always) detail::throw_bro_value_table_full();
    return;
  }
  plan_code_symbols(options.slice_height, layout);
  layout.value_codes =
      detail::bro_value_codes_chosen(options.value_codes, layout_shape(a, options.slice_height, layout));
}

template <class T>
StreamLayout<T> plan_layout(const Csr<T>& a, const BroEllOptions& options) {
  detail::check_bro_ell_options(options);
  StreamLayout<T> layout;
  const std::int64_t streams = static_cast<std::int64_t>(a.rows) * options.threads_per_row;
  layout.slices = (streams + options.slice_height - 1) / options.slice_height;
  plan_widths(a, options, layout);
  plan_symbols(options.slice_height, layout);
  plan_value_codes(a, options, layout);
  return layout;
}

std::vector<index_t> narrowed(const std::vector<std::int64_t>& offsets) {
  return std::vector<index_t>(offsets.begin(), offsets.end());
}

// Puts a finished stream at its multiplexed places: symbol m at first + m * stride.
void scatter(const std::vector<bro_symbol_t>& stream, bro_symbol_t* first, index_t stride) {
  for (std::size_t m = 0; m < stream.size(); ++m) first[m * stride] = stream[m];
}

// Encodes every stream of `a` into `bro` (its arrays sized and zeroed).
template <class T>
void pack(const Csr<T>& a, const StreamLayout<T>& layout, BroEll<T>& bro) {
  const index_t h = bro.slice_height;
  const int code_bits = bro.value_code_bits;
#pragma omp parallel for schedule(dynamic, 4)
  for (std::int64_t slice = 0; slice < layout.slices; ++slice) {
    const std::uint8_t* widths = bro.widths.data() + bro.width_offset[slice];
    for (index_t lane = 0; lane < h; ++lane) {
      const StreamEntries s = stream_entries(a, bro.threads_per_row, slice * h + lane);
      if (s.length() == 0) continue;
      SymbolWriter index;
      SymbolWriter codes;
      std::size_t slot = static_cast<std::size_t>(bro.width_offset[slice]) * h + lane;
      index_t previous = -1;
      for (index_t e = s.first, j = 0; e < s.end; e += s.step, ++j, slot += h) {
        index.put(static_cast<std::uint32_t>(a.col_idx[e] - previous), widths[j]);
        previous = a.col_idx[e];
        if (layout.value_codes)
          codes.put(layout.value_table.code_of(a.values[e]), code_bits);
        else
          bro.values[slot] = a.values[e];
      }
      scatter(index.finish(), bro.symbols.data() + bro.symbol_offset[slice] + lane, h);
      if (layout.value_codes) scatter(codes.finish(), bro.code_symbols.data() + bro.code_symbol_offset[slice] + lane, h);
    }
  }
}

// A reader of stream `lane` of `slice` in multiplexed `symbols` (which a
// reader of zero-width fields never touches, so they may be empty).
SymbolReader stream_reader(const std::vector<std::uint32_t>& symbols, const std::vector<index_t>& offsets,
                           index_t slice, index_t lane, index_t stride) {
  return SymbolReader(symbols.empty() ? symbols.data() : symbols.data() + offsets[slice] + lane, stride);
}

// Decodes every entry: visit(row, position in the row, column, value).
template <class T, class Visit>
void for_each_entry(const BroEll<T>& a, Visit visit) {
  const index_t h = a.slice_height;
  const index_t t = a.threads_per_row;
  for (index_t slice = 0; slice < a.slices(); ++slice) {
    const std::uint8_t* widths = a.widths.data() + a.width_offset[slice];
    for (index_t lane = 0; lane < h; ++lane) {
      const std::int64_t stream = static_cast<std::int64_t>(slice) * h + lane;
      if (stream / t >= a.rows) break;
      const auto row = static_cast<index_t>(stream / t);
      SymbolReader index = stream_reader(a.symbols, a.symbol_offset, slice, lane, h);
      SymbolReader codes = stream_reader(a.code_symbols, a.code_symbol_offset, slice, lane, h);
      index_t column = -1;
      for (index_t j = 0; j < a.slice_columns(slice); ++j) {
        const std::uint32_t delta = index.get(widths[j]);
        const std::uint32_t code = a.uses_value_codes() ? codes.get(a.value_code_bits) : 0;
        if (delta == 0) continue;  // padding
        column += static_cast<index_t>(delta);
        const T value = a.uses_value_codes()
                            ? a.value_table[code]
                            : a.values[(static_cast<std::size_t>(a.width_offset[slice]) + j) * h + lane];
        visit(row, static_cast<index_t>(stream % t) + j * t, column, value);
      }
    }
  }
}

}  // namespace

template <class T>
FormatFootprint bro_ell_footprint(const Csr<T>& a, const BroEllOptions& options) {
  return detail::bro_ell_footprint(layout_shape(a, options.slice_height, plan_layout(a, options)));
}

template <class T>
BroEll<T> bro_ell_from_csr(const Csr<T>& a, const BroEllOptions& options) {
  const StreamLayout<T> layout = plan_layout(a, options);
  const std::vector<index_t> lengths = detail::row_lengths(a);
  BroEll<T> bro;
  bro.rows = a.rows;
  bro.cols = a.cols;
  bro.nnz = a.nnz();
  bro.longest_row = lengths.empty() ? 0 : *std::max_element(lengths.begin(), lengths.end());
  bro.slice_height = options.slice_height;
  bro.threads_per_row = options.threads_per_row;
  detail::BroEllShape shape = layout_shape(a, options.slice_height, layout);
  shape.longest_row = bro.longest_row;
  detail::check_bro_ell_limit(shape, options.max_padding);
  bro.width_offset = narrowed(layout.width_offset);
  bro.widths = layout.widths;
  bro.symbol_offset = narrowed(layout.symbol_offset);
  bro.symbols.assign(static_cast<std::size_t>(layout.symbol_offset.back()), 0);
  if (layout.value_codes) {
    bro.value_table = layout.value_table.table();
    bro.value_code_bits = layout.value_table.code_bits();
    bro.code_symbol_offset = narrowed(layout.code_symbol_offset);
    bro.code_symbols.assign(static_cast<std::size_t>(layout.code_symbol_offset.back()), 0);
  } else {
    bro.values.assign(static_cast<std::size_t>(layout.stored_entries(options.slice_height)), T(0));
  }
  pack(a, layout, bro);
  return bro;
}

template <class T>
void multiply(const BroEll<T>& a, const T* x, T* y, T alpha, T beta) {
  std::vector<double> sums(a.rows, 0.0);
  for_each_entry(a, [&](index_t row, index_t, index_t column, T value) {
    sums[row] += static_cast<double>(value) * static_cast<double>(x[column]);
  });
  for (index_t r = 0; r < a.rows; ++r) detail::store_scaled(y[r], sums[r], alpha, beta);
}

template <class T>
Csr<T> to_csr(const BroEll<T>& a) {
  Csr<T> csr;
  csr.rows = a.rows;
  csr.cols = a.cols;
  csr.row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  for_each_entry(a, [&](index_t row, index_t, index_t, T) { ++csr.row_ptr[row + 1]; });
  for (index_t r = 0; r < a.rows; ++r) csr.row_ptr[r + 1] += csr.row_ptr[r];
  csr.col_idx.resize(csr.row_ptr.back());
  csr.values.resize(csr.row_ptr.back());
  for_each_entry(a, [&](index_t row, index_t position, index_t column, T value) {
    csr.col_idx[csr.row_ptr[row] + position] = column;
    csr.values[csr.row_ptr[row] + position] = value;
  });
  return csr;
}

template <class T>
std::size_t bro_ell_matrix_bytes(const BroEll<T>& a) {
  return detail::bro_ell_matrix_bytes(detail::bro_ell_shape(a));
}

template <class T>
CompressionMetrics bro_ell_metrics(const BroEll<T>& a) {
  return detail::bro_ell_metrics(detail::bro_ell_shape(a));
}

#define SPMV_INSTANTIATE_BRO_ELL(T)                                                \
  template FormatFootprint bro_ell_footprint(const Csr<T>&, const BroEllOptions&); \
  template BroEll<T> bro_ell_from_csr(const Csr<T>&, const BroEllOptions&);        \
  template void multiply(const BroEll<T>&, const T*, T*, T, T);                    \
  template Csr<T> to_csr(const BroEll<T>&);                                        \
  template std::size_t bro_ell_matrix_bytes(const BroEll<T>&);                     \
  template CompressionMetrics bro_ell_metrics(const BroEll<T>&);
SPMV_INSTANTIATE_BRO_ELL(float)
SPMV_INSTANTIATE_BRO_ELL(double)
#undef SPMV_INSTANTIATE_BRO_ELL

}  // namespace spmv
