// Internal helpers of the reorderings (src/core/reorder_*.cpp).
#pragma once

#include "spmv/matrix.hpp"

namespace spmv::detail {

// Throws InvalidArgument naming `method` and the shape unless rows == cols:
// a symmetric permutation needs a square matrix.
void require_square(index_t rows, index_t cols, const char* method);

}  // namespace spmv::detail
