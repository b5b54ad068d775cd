// BRO-ELL (Tang, Tan, Ray, Wong, Chen, Kuo, Goh, Turner & Wong, SC 2013, Section 3.1):
// ELLPACK with its column indices delta-encoded and bit-packed.
//
// Streams. Every row is one stream, or with threads_per_row = T > 1 (beyond
// the paper, for long rows) T streams: stream s of row r holds the row's
// entries s, s + T, s + 2T, ...; the T streams of a row are adjacent
// (stream r * T + s), so that T adjacent threads of a warp share a row.
//
// Delta encoding. A stream's first field is its first column + 1, each next
// field its column minus the stream's previous column (>= 1, since a Csr
// row's columns increase strictly). 0 marks padding, so no row-length array
// is needed: a decoder adds each field to a column that starts at -1 and
// skips the entry when the field is 0.
//
// Slices. Streams are cut into slices of h = slice_height streams (the
// kernel's block size; the last slice is completed with empty streams).
// Slice i has l_i columns (its longest stream) and one bit width per
// column, b_j = the bits of the widest field of column j in the slice, so
// every stream of the slice has sum_j b_j bits and the same number of
// 32-bit symbols. Symbol m of stream t of slice i is at
// symbols[symbol_offset[i] + m * h + t] (multiplexed: a warp reading its
// m-th symbols reads adjacent words).
//
// Values are stored as sliced ELL, column-major within a slice: the value of
// column j of stream t of slice i at (width_offset[i] + j) * h + t, 0 in
// padding. width_offset (prefix sums of l_i) thus serves as the paper's
// num_col (l_i = width_offset[i + 1] - width_offset[i]), as the offset into
// the widths and as the offset into the values.
//
// Value codes (beyond the paper, exact): when the matrix has at most
// bro_max_value_table_entries distinct values, each entry may instead hold a
// code of value_code_bits bits into value_table. The codes form a second set
// of streams, multiplexed like the index streams (code symbol m of stream t
// of slice i at code_symbols[code_symbol_offset[i] + m * h + t]); every
// field has the same width, ceil(log2(distinct values)) bits. They are kept
// apart from the index streams so that the index streams, and the paper's
// space savings measured on them, are the same with and without codes.
#pragma once

#include <cstdint>
#include <vector>

#include "spmv/formats/bro_metrics.hpp"
#include "spmv/formats/footprint.hpp"
#include "spmv/matrix.hpp"

namespace spmv {

// Distinct values a value table may hold (codes of at most 16 bits).
inline constexpr std::size_t bro_max_value_table_entries = std::size_t(1) << 16;
// Largest table used when the options leave the choice open: a table this
// small stays in an SM's L1 cache beside x (H100/H200: up to 256 KiB of L1
// per SM), so a lookup costs no DRAM traffic. An assumption of the design,
// not yet measured.
inline constexpr std::size_t bro_default_value_table_max_bytes = std::size_t(64) << 10;

template <class T>
struct BroEll {
  index_t rows = 0;
  index_t cols = 0;
  index_t nnz = 0;
  index_t longest_row = 0;
  index_t slice_height = 256;   // h: streams per slice
  index_t threads_per_row = 1;  // T: streams per row
  std::vector<index_t> width_offset;         // slices + 1 prefix sums of l_i
  std::vector<std::uint8_t> widths;          // b_j of each slice column, width_offset.back() of them
  std::vector<index_t> symbol_offset;        // slices + 1: first symbol of each slice
  std::vector<std::uint32_t> symbols;        // the multiplexed index streams
  std::vector<T> values;                     // width_offset.back() * h slots; empty with value codes
  std::vector<T> value_table;                // the distinct values; empty without value codes
  int value_code_bits = 0;                   // 0 when all entries share one value
  std::vector<index_t> code_symbol_offset;   // slices + 1; empty without value codes
  std::vector<std::uint32_t> code_symbols;   // the multiplexed code streams

  index_t slices() const { return static_cast<index_t>(width_offset.size()) - 1; }
  index_t slice_columns(index_t slice) const { return width_offset[slice + 1] - width_offset[slice]; }
  bool uses_value_codes() const { return !value_table.empty(); }
};

enum class BroValueCodes {
  when_smaller,  // codes when a product reads fewer bytes with them (codes, offsets and table)
                 // than with the entries' values (see bro_ell_matrix_bytes), and the table
                 // is at most bro_default_value_table_max_bytes
  never,
  always,  // FormatLimitError when the matrix has more distinct values than a table holds
};

struct BroEllOptions {
  index_t slice_height = 256;  // a multiple of 32 in [32, 1024] (a thread block)
  index_t threads_per_row = 1;  // a power of two in [1, 32]
  BroValueCodes value_codes = BroValueCodes::when_smaller;
  double max_padding = default_max_padding;
};

// The format's bytes (all its arrays, padding included) before building it;
// as costly as encoding without packing (one pass over the entries, plus
// one over the values for value codes). Throws InvalidArgument for bad options.
template <class T>
FormatFootprint bro_ell_footprint(const Csr<T>& a, const BroEllOptions& options = {});

// Throws InvalidArgument for bad options, FormatLimitError when the padding
// exceeds options.max_padding (a power-law matrix: use bro-hyb) or value
// codes are demanded of a matrix with too many distinct values.
template <class T>
BroEll<T> bro_ell_from_csr(const Csr<T>& a, const BroEllOptions& options = {});

// y = alpha * A * x + beta * y, decoding the streams; y is not read when beta == 0.
template <class T>
void multiply(const BroEll<T>& a, const T* x, T* y, T alpha, T beta);

// The matrix back, decoded from the streams (exact).
template <class T>
Csr<T> to_csr(const BroEll<T>& a);

// Bytes one product reads of A: the index and code symbols, widths, slice
// offsets and value table all once, and of the plain values only the nnz
// that hold entries (a decoder skips the padding's values).
template <class T>
std::size_t bro_ell_matrix_bytes(const BroEll<T>& a);

// eta and kappa of the index data (symbols, widths and slice offsets)
// against ELLPACK's rows x longest_row int32 column indices (the paper's
// O) and against CSR's col_idx + row_ptr.
template <class T>
CompressionMetrics bro_ell_metrics(const BroEll<T>& a);

}  // namespace spmv
