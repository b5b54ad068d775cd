// Basic types shared by every part of the library.
#pragma once

#include <cstdint>
#include <limits>

namespace spmv {

// Row and column indices, row pointers and non-zero counts are 32-bit.
// Matrices that need more are refused (see SizeError).
using index_t = std::int32_t;

inline constexpr std::int64_t max_index = std::numeric_limits<index_t>::max();

// Layout of a dense matrix (the B and C operands of SpMM).
enum class Layout { row_major, col_major };

// Where a product runs. `reference` is the serial test oracle.
enum class Backend { reference, cpu, cuda, cusparse };

const char* to_string(Layout layout);
// "row-major" or "row", "col-major" or "col"; throws InvalidArgument.
Layout layout_from_string(const char* name);
const char* to_string(Backend backend);
Backend backend_from_string(const char* name);  // throws InvalidArgument

}  // namespace spmv
