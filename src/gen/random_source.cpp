// Distinct-column sampling for the random generators.
#include "gen/random_source.hpp"

#include <algorithm>

namespace spmv::gen_detail {

void sample_distinct_sorted(Rng& rng, index_t k, index_t n, index_t* out) {
  if (static_cast<std::int64_t>(k) * 4 > n) {
    // Dense enough to scan every candidate: selection sampling (Knuth's
    // Algorithm S) takes each of the n values with probability
    // still-needed / still-available, which yields a sorted uniform k-subset.
    index_t taken = 0;
    for (index_t candidate = 0; candidate < n && taken < k; ++candidate)
      if (rng.below(n - candidate) < k - taken) out[taken++] = candidate;
    return;
  }
  // Sparse: draw the missing values, sort, drop repeats, until k remain. The
  // first k distinct values of an i.i.d. uniform sequence form a uniform
  // k-subset; with k <= n/4 few rounds are needed.
  index_t distinct = 0;
  while (distinct < k) {
    for (index_t i = distinct; i < k; ++i) out[i] = rng.below(n);
    std::sort(out, out + k);
    distinct = static_cast<index_t>(std::unique(out, out + k) - out);
  }
}

}  // namespace spmv::gen_detail
