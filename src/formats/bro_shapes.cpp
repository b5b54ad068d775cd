// The BRO formats' checks, byte models and metrics from their shapes (see
// bro_shapes.hpp).
#include "formats/bro_shapes.hpp"

#include <algorithm>
#include <string>

#include "formats/format_common.hpp"
#include "spmv/error.hpp"

namespace spmv::detail {

namespace {

double mean_row_length(index_t rows, std::int64_t nnz) { return rows ? double(nnz) / rows : 0.0; }

// Bytes of BRO-COO's compressed row indices: widths, symbols, base rows and
// symbol offsets (intervals + 1 of them).
std::size_t compressed_row_bytes(const BroCooShape& shape) {
  const auto symbol_offsets = static_cast<std::size_t>(shape.intervals) + 1;
  return static_cast<std::size_t>(shape.widths) + static_cast<std::size_t>(shape.symbols) * sizeof(std::uint32_t) +
         (2 * symbol_offsets - 1) * sizeof(index_t);
}

}  // namespace

template <class T>
BroEllShape bro_ell_shape(const BroEll<T>& a) {
  BroEllShape shape;
  shape.rows = a.rows;
  shape.cols = a.cols;
  shape.nnz = a.nnz;
  shape.longest_row = a.longest_row;
  shape.slice_height = a.slice_height;
  shape.slices = a.slices();
  shape.slice_columns = static_cast<std::int64_t>(a.widths.size());
  shape.symbols = static_cast<std::int64_t>(a.symbols.size());
  shape.value_codes = a.uses_value_codes();
  shape.code_symbols = static_cast<std::int64_t>(a.code_symbols.size());
  shape.table_entries = static_cast<std::int64_t>(a.value_table.size());
  shape.value_bytes = sizeof(T);
  return shape;
}

void check_bro_ell_options(const BroEllOptions& options) {
  const index_t h = options.slice_height;
  if (h < 32 || h > 1024 || h % 32 != 0)
    throw InvalidArgument("BRO-ELL: slice_height=" + std::to_string(h) +
                          " is not a multiple of 32 in [32, 1024] (one thread block)");
  const index_t t = options.threads_per_row;
  if (t < 1 || t > 32 || (t & (t - 1)) != 0)
    throw InvalidArgument("BRO-ELL: threads_per_row=" + std::to_string(t) + " is not a power of two in [1, 32]");
}

std::size_t bro_ell_index_bytes(std::int64_t slices, std::int64_t slice_columns, std::int64_t symbols) {
  return static_cast<std::size_t>(symbols) * sizeof(std::uint32_t) + static_cast<std::size_t>(slice_columns) +
         2 * (static_cast<std::size_t>(slices) + 1) * sizeof(index_t);
}

std::size_t bro_ell_code_bytes(std::int64_t slices, std::int64_t code_symbols, std::size_t table_bytes) {
  return static_cast<std::size_t>(code_symbols) * sizeof(std::uint32_t) +
         (static_cast<std::size_t>(slices) + 1) * sizeof(index_t) + table_bytes;
}

std::size_t bro_value_table_limit(BroValueCodes codes, std::size_t value_bytes) {
  return codes == BroValueCodes::always
             ? bro_max_value_table_entries
             : std::min(bro_max_value_table_entries, bro_default_value_table_max_bytes / value_bytes);
}

void throw_bro_value_table_full() {
  throw FormatLimitError("BRO-ELL value codes hold at most " + std::to_string(bro_max_value_table_entries) +
                         " distinct values, and the matrix has more: use value_codes=0 instead");
}

bool bro_value_codes_chosen(BroValueCodes codes, const BroEllShape& shape) {
  const std::size_t code_bytes =
      bro_ell_code_bytes(shape.slices, shape.code_symbols, static_cast<std::size_t>(shape.table_entries) * shape.value_bytes);
  const std::size_t value_bytes = static_cast<std::size_t>(shape.nnz) * shape.value_bytes;
  return codes == BroValueCodes::always || code_bytes < value_bytes;
}

FormatFootprint bro_ell_footprint(const BroEllShape& shape) {
  FormatFootprint f;
  f.nnz = shape.nnz;
  f.stored_entries = shape.stored_entries();
  f.bytes = bro_ell_index_bytes(shape.slices, shape.slice_columns, shape.symbols) +
            (shape.value_codes ? bro_ell_code_bytes(shape.slices, shape.code_symbols,
                                                    static_cast<std::size_t>(shape.table_entries) * shape.value_bytes)
                               : static_cast<std::size_t>(f.stored_entries) * shape.value_bytes);
  f.csr_bytes = csr_bytes(shape.rows, shape.nnz, shape.value_bytes);
  return f;
}

void check_bro_ell_limit(const BroEllShape& shape, double max_padding) {
  check_footprint("BRO-ELL", bro_ell_footprint(shape), max_padding,
                  row_length_summary(shape.longest_row, mean_row_length(shape.rows, shape.nnz)),
                  "bro-hyb or more threads_per_row");
}

std::size_t bro_ell_matrix_bytes(const BroEllShape& shape) {
  return bro_ell_index_bytes(shape.slices, shape.slice_columns, shape.symbols) +
         (shape.value_codes ? bro_ell_code_bytes(shape.slices, shape.code_symbols,
                                                 static_cast<std::size_t>(shape.table_entries) * shape.value_bytes)
                            : static_cast<std::size_t>(shape.nnz) * shape.value_bytes);
}

CompressionMetrics bro_ell_metrics(const BroEllShape& shape) {
  const std::size_t compressed = bro_ell_index_bytes(shape.slices, shape.slice_columns, shape.symbols);
  CompressionMetrics m;
  m.against_uncompressed = {static_cast<std::size_t>(shape.rows) * shape.longest_row * sizeof(index_t), compressed};
  m.against_csr = {(static_cast<std::size_t>(shape.nnz) + shape.rows + 1) * sizeof(index_t), compressed};
  m.matrix_bytes = bro_ell_matrix_bytes(shape);
  m.vector_bytes = (static_cast<std::size_t>(shape.rows) + shape.cols) * shape.value_bytes;
  m.nnz = shape.nnz;
  return m;
}

template <class T>
BroCooShape bro_coo_shape(const BroCoo<T>& a) {
  BroCooShape shape;
  shape.rows = a.rows;
  shape.cols = a.cols;
  shape.nnz = a.nnz();
  shape.intervals = a.intervals();
  shape.widths = static_cast<std::int64_t>(a.widths.size());
  shape.symbols = static_cast<std::int64_t>(a.symbols.size());
  shape.value_bytes = sizeof(T);
  return shape;
}

void check_bro_coo_interval(index_t interval) {
  if (interval <= 0 || interval % bro_coo_lanes != 0)
    throw InvalidArgument("BRO-COO: interval must be a positive multiple of " + std::to_string(bro_coo_lanes) +
                          ", got " + std::to_string(interval));
}

void check_bro_coo_symbols(std::int64_t symbols) {
  if (symbols > max_index)
    throw SizeError("BRO-COO: " + std::to_string(symbols) + " symbols exceed 32-bit offsets");
}

FormatFootprint bro_coo_footprint(const BroCooShape& shape) {
  FormatFootprint f;
  f.nnz = shape.nnz;
  f.stored_entries = shape.nnz;
  f.bytes = compressed_row_bytes(shape) + static_cast<std::size_t>(shape.nnz) * (sizeof(index_t) + shape.value_bytes);
  f.csr_bytes = csr_bytes(shape.rows, shape.nnz, shape.value_bytes);
  return f;
}

CompressionMetrics bro_coo_metrics(const BroCooShape& shape) {
  const std::size_t compressed_rows = compressed_row_bytes(shape);
  const std::size_t column_bytes = static_cast<std::size_t>(shape.nnz) * sizeof(index_t);
  CompressionMetrics metrics;
  metrics.against_uncompressed = {static_cast<std::size_t>(shape.nnz) * sizeof(index_t), compressed_rows};
  metrics.against_csr = {(static_cast<std::size_t>(shape.rows) + 1) * sizeof(index_t) + column_bytes,
                         compressed_rows + column_bytes};
  metrics.matrix_bytes = compressed_rows + column_bytes + static_cast<std::size_t>(shape.nnz) * shape.value_bytes;
  metrics.vector_bytes = (static_cast<std::size_t>(shape.rows) + shape.cols) * shape.value_bytes;
  metrics.nnz = shape.nnz;
  return metrics;
}

FormatFootprint bro_hyb_footprint(const BroEllShape& ell, const BroCooShape& coo) {
  const FormatFootprint ell_part = bro_ell_footprint(ell);
  const FormatFootprint coo_part = bro_coo_footprint(coo);
  FormatFootprint f;
  f.nnz = ell.nnz + coo.nnz;
  f.stored_entries = ell_part.stored_entries + coo_part.stored_entries;
  f.bytes = ell_part.bytes + coo_part.bytes;
  f.csr_bytes = csr_bytes(ell.rows, f.nnz, ell.value_bytes);
  return f;
}

void check_bro_hyb_limit(const FormatFootprint& footprint, index_t ell_width, index_t rows, double max_padding) {
  check_footprint("BRO-HYB", footprint, max_padding,
                  "BRO-ELL part of width " + std::to_string(ell_width) + " for " + std::to_string(rows) +
                      " rows with mean length " + one_decimal(mean_row_length(rows, footprint.nnz)),
                  "a smaller ell_width, bro-coo or csr-vector");
}

CompressionMetrics bro_hyb_metrics(const BroEllShape& ell_shape, const BroCooShape& coo_shape) {
  const CompressionMetrics ell = bro_ell_metrics(ell_shape);
  const CompressionMetrics coo = bro_coo_metrics(coo_shape);
  const std::size_t coo_columns = static_cast<std::size_t>(coo_shape.nnz) * sizeof(index_t);
  const std::size_t compressed = ell.against_uncompressed.compressed_index_bytes +
                                 coo.against_uncompressed.compressed_index_bytes + coo_columns;
  CompressionMetrics metrics;
  metrics.nnz = ell.nnz + coo.nnz;
  metrics.against_uncompressed = {
      ell.against_uncompressed.original_index_bytes + coo.against_uncompressed.original_index_bytes + coo_columns,
      compressed};
  metrics.against_csr = {(static_cast<std::size_t>(metrics.nnz) + ell_shape.rows + 1) * sizeof(index_t), compressed};
  metrics.matrix_bytes = ell.matrix_bytes + coo.matrix_bytes;
  metrics.vector_bytes = ell.vector_bytes;
  return metrics;
}

template BroEllShape bro_ell_shape(const BroEll<float>&);
template BroEllShape bro_ell_shape(const BroEll<double>&);
template BroCooShape bro_coo_shape(const BroCoo<float>&);
template BroCooShape bro_coo_shape(const BroCoo<double>&);

}  // namespace spmv::detail
