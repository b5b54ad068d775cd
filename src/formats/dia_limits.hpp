// The DIA footprint and refusal, computed from the number of occupied
// diagonals: one fact shared by the host builder (dia.cpp) and the device
// builder (src/cuda/dia_device_build.cu), so both refuse alike.
#pragma once

#include <cstddef>

#include "spmv/formats/footprint.hpp"
#include "spmv/types.hpp"

namespace spmv::detail {

FormatFootprint dia_footprint_of(index_t rows, index_t nnz, std::size_t value_bytes, std::size_t diagonals);

// FormatLimitError (or SizeError) as detail::check_footprint words it.
void check_dia_limit(index_t rows, index_t nnz, std::size_t value_bytes, std::size_t diagonals,
                     double max_padding);

// The most occupied diagonals check_dia_limit accepts for a rows x cols
// matrix (at most rows + cols - 1, all there can be): the device build
// collects the diagonals in a set of about twice this size.
std::size_t dia_most_diagonals(index_t rows, index_t cols, index_t nnz, std::size_t value_bytes,
                               double max_padding);

}  // namespace spmv::detail
