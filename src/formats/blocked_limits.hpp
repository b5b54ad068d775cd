// The blocked format's option check, footprint and refusal, computed from
// the inspection's counts: one fact shared by the host builder (blocked.cpp)
// and the device builder (src/cuda/blocked_device_build.cu), so both refuse alike.
#pragma once

#include <cstddef>
#include <cstdint>

#include "spmv/formats/blocked.hpp"

namespace spmv::detail {

// InvalidArgument unless block_rows >= 1 and block_cols is a multiple of
// blocked_alignment in [blocked_alignment, blocked_max_block_cols].
void check_blocked_options(const BlockedOptions& options);

// `stored_entries`: the padded segments' entries; `blocks`: the inspection's blocks.
FormatFootprint blocked_footprint_of(const BlockedOptions& options, index_t rows, index_t nnz,
                                     std::size_t value_bytes, std::int64_t stored_entries, std::size_t blocks);

// FormatLimitError (or SizeError) as detail::check_footprint words it.
void check_blocked_limit(const BlockedOptions& options, index_t rows, index_t nnz, std::size_t value_bytes,
                         std::int64_t stored_entries, std::size_t blocks);

}  // namespace spmv::detail
