// The SELL-C-sigma option check, footprint and refusal, computed from the
// slot and chunk counts: one fact shared by the host builder (sell.cpp) and
// the device builder (src/cuda/sell_device_build.cu), so both refuse alike.
#pragma once

#include <cstddef>
#include <cstdint>

#include "spmv/formats/sell.hpp"

namespace spmv::detail {

// InvalidArgument for chunk_rows < 1 or a sigma neither 1 nor a multiple of chunk_rows.
void check_sell_options(const SellOptions& options);

FormatFootprint sell_footprint_of(index_t rows, index_t nnz, std::size_t value_bytes, std::int64_t slots,
                                  std::size_t chunks);

// FormatLimitError (or SizeError) as detail::check_footprint words it;
// `longest` is the longest row, for the message.
void check_sell_limit(const SellOptions& options, index_t rows, index_t nnz, std::size_t value_bytes,
                      std::int64_t slots, std::size_t chunks, index_t longest);

}  // namespace spmv::detail
