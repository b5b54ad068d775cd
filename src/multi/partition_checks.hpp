// Internal: the checks every partition method shares (partition.cpp).
#pragma once

#include "spmv/types.hpp"

namespace spmv::detail {

// Throws InvalidArgument for parts < 1 and for parts > rows (every part
// needs a row), naming both numbers.
void check_part_count(index_t rows, int parts);

}  // namespace spmv::detail
