// How many threads the library's host passes over a matrix (validation, the
// selector's analysis) use. Waking a team of threads costs tens of
// microseconds, more than a loop over a few thousand items; and on a shared
// host, a thread that has slept can take milliseconds to wake (a virtual
// machine whose cores were lent elsewhere). So a pass of fewer than
// `parallel_from` items runs on the calling thread, and a larger one takes one
// thread per `grain` items, up to the OpenMP limit.
#pragma once

#include <algorithm>
#include <cstdint>

#include <omp.h>

namespace spmv::detail {

inline constexpr std::int64_t parallel_from = std::int64_t{1} << 16;

inline int threads_for(std::int64_t items, std::int64_t grain = parallel_from) {
  return static_cast<int>(std::clamp<std::int64_t>(items / grain, 1, omp_get_max_threads()));
}

}  // namespace spmv::detail
