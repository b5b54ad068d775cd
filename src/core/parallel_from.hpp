// The size below which the library's host passes over a matrix (validation,
// the selector's analysis) run on the calling thread, through an OpenMP `if`
// clause: waking a team of threads costs tens of microseconds, more than such
// a loop, and a plan runs these passes on matrices of a few thousand entries.
#pragma once

#include <cstdint>

namespace spmv::detail {

inline constexpr std::int64_t parallel_from = std::int64_t{1} << 16;

}  // namespace spmv::detail
