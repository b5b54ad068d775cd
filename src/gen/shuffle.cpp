// Random row order for the generators' `shuffle` parameter.
#include <numeric>
#include <utility>
#include <vector>

#include "gen/random_source.hpp"
#include "spmv/gen.hpp"
#include "spmv/reorder.hpp"

namespace spmv {

Csr<double> shuffle_rows(const Csr<double>& a, std::uint64_t seed) {
  MatrixOrdering ordering;
  ordering.row_order.resize(static_cast<std::size_t>(a.rows));
  std::iota(ordering.row_order.begin(), ordering.row_order.end(), index_t{0});
  // Fisher-Yates on the generators' portable PRNG: the same order everywhere.
  gen_detail::Rng rng(seed, 0);
  for (index_t i = a.rows - 1; i > 0; --i) std::swap(ordering.row_order[i], ordering.row_order[rng.below(i + 1)]);
  return reorder(a, ordering);
}

}  // namespace spmv
