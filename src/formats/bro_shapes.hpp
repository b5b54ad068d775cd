// The BRO formats described by the sizes of their arrays alone: option
// checks, byte models, footprints, refusals and compression metrics, shared
// by the host builders (src/formats/bro_*.cpp) and the device builds
// (src/cuda/bro_*_device_build.cu), so that both refuse, count and report
// alike from one set of formulas.
#pragma once

#include <cstddef>
#include <cstdint>

#include "spmv/formats/bro_coo.hpp"
#include "spmv/formats/bro_ell.hpp"
#include "spmv/formats/bro_metrics.hpp"
#include "spmv/formats/footprint.hpp"

namespace spmv::detail {

// Everything about a BroEll but its contents.
struct BroEllShape {
  index_t rows = 0;
  index_t cols = 0;
  std::int64_t nnz = 0;
  index_t longest_row = 0;
  index_t slice_height = 0;
  std::int64_t slices = 0;
  std::int64_t slice_columns = 0;  // width_offset.back(): as many widths
  std::int64_t symbols = 0;
  bool value_codes = false;
  std::int64_t code_symbols = 0;
  std::int64_t table_entries = 0;
  std::size_t value_bytes = 0;  // sizeof(T)

  std::int64_t stored_entries() const { return slice_columns * slice_height; }
};

template <class T>
BroEllShape bro_ell_shape(const BroEll<T>& a);

// InvalidArgument unless slice_height is a multiple of 32 in [32, 1024] and
// threads_per_row a power of two in [1, 32].
void check_bro_ell_options(const BroEllOptions& options);

// Bytes of the index data: symbols, one width per slice column, and the
// two offset arrays of slices + 1 entries.
std::size_t bro_ell_index_bytes(std::int64_t slices, std::int64_t slice_columns, std::int64_t symbols);
// Bytes of value codes: code symbols, their offsets and the table.
std::size_t bro_ell_code_bytes(std::int64_t slices, std::int64_t code_symbols, std::size_t table_bytes);

// Distinct values the value table may hold under `codes`.
std::size_t bro_value_table_limit(BroValueCodes codes, std::size_t value_bytes);
// FormatLimitError: value codes demanded of a matrix with more distinct
// values than a table holds.
[[noreturn]] void throw_bro_value_table_full();
// Whether `shape` (its code sizes filled in) stores codes under `codes`: a
// product reads every code but only the values of entries, so a padded
// matrix may store fewer bytes as codes and still read more.
bool bro_value_codes_chosen(BroValueCodes codes, const BroEllShape& shape);

FormatFootprint bro_ell_footprint(const BroEllShape& shape);
// check_footprint of BRO-ELL: FormatLimitError beyond max_padding.
void check_bro_ell_limit(const BroEllShape& shape, double max_padding);
std::size_t bro_ell_matrix_bytes(const BroEllShape& shape);
CompressionMetrics bro_ell_metrics(const BroEllShape& shape);

// Everything about a BroCoo but its contents.
struct BroCooShape {
  index_t rows = 0;
  index_t cols = 0;
  std::int64_t nnz = 0;
  std::int64_t intervals = 0;
  std::int64_t widths = 0;  // steps of 32 entries
  std::int64_t symbols = 0;
  std::size_t value_bytes = 0;
};

template <class T>
BroCooShape bro_coo_shape(const BroCoo<T>& a);

// InvalidArgument unless interval is a positive multiple of bro_coo_lanes.
void check_bro_coo_interval(index_t interval);
// SizeError when `symbols` exceed 32-bit offsets.
void check_bro_coo_symbols(std::int64_t symbols);
FormatFootprint bro_coo_footprint(const BroCooShape& shape);
CompressionMetrics bro_coo_metrics(const BroCooShape& shape);

// BRO-HYB from its parts' shapes (`a`'s rows and non-zeros in `ell`'s and
// `coo`'s together).
FormatFootprint bro_hyb_footprint(const BroEllShape& ell, const BroCooShape& coo);
// check_footprint of BRO-HYB with ELL width `ell_width`.
void check_bro_hyb_limit(const FormatFootprint& footprint, index_t ell_width, index_t rows, double max_padding);
CompressionMetrics bro_hyb_metrics(const BroEllShape& ell, const BroCooShape& coo);

}  // namespace spmv::detail
