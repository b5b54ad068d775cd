// What a storage format would cost, computed before it is built.
//
// Every builder in this directory first computes its footprint (a
// `<format>_footprint` function, also public so that a planner can compare
// formats without building them) and refuses with FormatLimitError when the
// footprint exceeds `max_padding` times the bytes of the same matrix in CSR.
#pragma once

#include <cstddef>
#include <cstdint>

#include "spmv/types.hpp"

namespace spmv {

// Default limit of a format's bytes, as a multiple of the CSR bytes.
inline constexpr double default_max_padding = 3.0;
// A format this small is never refused: the limit guards memory, and on tiny
// matrices it would only refuse the row alignment (a 1 x 1 ELL holds 32 slots).
inline constexpr std::size_t format_limit_floor_bytes = std::size_t(64) << 10;

// Column index stored in padding slots of the ELL-like formats.
inline constexpr index_t padding_column = -1;

// Bytes of a CSR matrix: row pointers, column indices and values.
inline std::size_t csr_bytes(index_t rows, std::int64_t nnz, std::size_t value_bytes) {
  return (static_cast<std::size_t>(rows) + 1) * sizeof(index_t) +
         static_cast<std::size_t>(nnz) * (sizeof(index_t) + value_bytes);
}

// Bytes a CSR product must touch at least: the CSR arrays (int32 indices),
// x and y once each. The byte model of the selector and the suite.
inline std::size_t csr_product_bytes(std::int64_t rows, std::int64_t cols, std::int64_t nnz,
                                     std::size_t value_bytes) {
  return csr_bytes(static_cast<index_t>(rows), nnz, value_bytes) +
         static_cast<std::size_t>(rows + cols) * value_bytes;
}

struct FormatFootprint {
  std::size_t bytes = 0;            // all arrays of the format, padding included
  std::size_t csr_bytes = 0;        // the same matrix in CSR
  std::int64_t stored_entries = 0;  // value slots, padding included
  std::int64_t nnz = 0;             // entries of the matrix

  // bytes / csr_bytes (1 for a matrix with nothing to store).
  double padding_ratio() const {
    return csr_bytes == 0 ? 1.0 : static_cast<double>(bytes) / static_cast<double>(csr_bytes);
  }
  // The refusal rule of the builders.
  bool within_limit(double max_padding) const {
    return bytes <= format_limit_floor_bytes || padding_ratio() <= max_padding;
  }
  // stored_entries / nnz: the fill-in (1 when nnz = 0).
  double fill_ratio() const {
    return nnz == 0 ? 1.0 : static_cast<double>(stored_entries) / static_cast<double>(nnz);
  }
};

}  // namespace spmv
