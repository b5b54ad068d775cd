// How large a matrix a file may describe: the dimension limit of ReadOptions
// (see io.hpp), resolved against the length of the file being read.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "spmv/io.hpp"

namespace spmv::io {

// Rows or columns allowed to a file of `input_bytes` bytes (of text, after
// decompression) under `options`.
inline std::int64_t dimension_limit(const ReadOptions& options, std::uint64_t input_bytes) {
  if (options.max_dimension > 0) return options.max_dimension;
  return std::max<std::int64_t>(ReadOptions::dimension_floor, static_cast<std::int64_t>(input_bytes));
}

// "row count 2000000000 is more than a file of 40 bytes may declare (...)".
inline std::string dimension_refusal(const std::string& quantity, std::int64_t value, std::int64_t limit,
                                     std::uint64_t input_bytes) {
  return quantity + " " + std::to_string(value) + " is more than a file of " + std::to_string(input_bytes) +
         " bytes may declare (limit " + std::to_string(limit) + ": the larger of " +
         std::to_string(ReadOptions::dimension_floor) +
         " and the file's length, unless ReadOptions::max_dimension says otherwise)";
}

}  // namespace spmv::io
