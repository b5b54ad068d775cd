// The parts of reorder.hpp shared by every method: names, permutation
// checks, applying an ordering, and the envelope profile.
#include <algorithm>
#include <chrono>

#include "core/reorder_support.hpp"
#include "spmv/error.hpp"
#include "spmv/reorder.hpp"

namespace spmv {

namespace {
constexpr Reordering all_reorderings[] = {Reordering::none, Reordering::rcm, Reordering::amd,
                                          Reordering::bro_aware};
}

const char* to_string(Reordering reordering) {
  switch (reordering) {
    case Reordering::none: return "none";
    case Reordering::rcm: return "rcm";
    case Reordering::amd: return "amd";
    case Reordering::bro_aware: return "bar";
  }
  return "?";
}

Reordering reordering_from_string(const std::string& name) {
  for (Reordering r : all_reorderings)
    if (name == to_string(r)) return r;
  throw InvalidArgument("unknown reordering '" + name + "' (expected none, rcm, amd or bar)");
}

bool is_permutation(const std::vector<index_t>& order, index_t n) {
  if (order.size() != static_cast<std::size_t>(n)) return false;
  std::vector<bool> seen(order.size(), false);
  for (index_t old_index : order) {
    if (old_index < 0 || old_index >= n || seen[old_index]) return false;
    seen[old_index] = true;
  }
  return true;
}

std::vector<index_t> inverse_permutation(const std::vector<index_t>& order) {
  const auto n = static_cast<index_t>(order.size());
  if (!is_permutation(order, n))
    throw InvalidArgument("inverse_permutation: the order of " + std::to_string(n) +
                          " entries is not a permutation of 0.." + std::to_string(n - 1));
  std::vector<index_t> new_position_of(order.size());
  for (index_t position = 0; position < n; ++position) new_position_of[order[position]] = position;
  return new_position_of;
}

namespace detail {
void require_square(index_t rows, index_t cols, const char* method) {
  if (rows != cols)
    throw InvalidArgument(std::string(method) + " reordering needs a square matrix (got " +
                          std::to_string(rows) + " x " + std::to_string(cols) +
                          "); bar reorders the rows of any shape");
}
}  // namespace detail

template <class T>
MatrixOrdering compute_ordering(const Csr<T>& a, Reordering method, const BroAwareOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  MatrixOrdering ordering;
  ordering.method = method;
  switch (method) {
    case Reordering::none: break;
    case Reordering::rcm:
      ordering.row_order = reverse_cuthill_mckee(a);
      ordering.column_order = ordering.row_order;
      break;
    case Reordering::amd:
      ordering.row_order = approximate_minimum_degree(a);
      ordering.column_order = ordering.row_order;
      break;
    case Reordering::bro_aware: ordering.row_order = bro_aware_row_order(a, options); break;
  }
  ordering.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return ordering;
}

template <class T>
Csr<T> reorder(const Csr<T>& a, const MatrixOrdering& ordering) {
  const auto inverse_or_identity = [](const std::vector<index_t>& order) {
    return order.empty() ? order : inverse_permutation(order);
  };
  return permute(a, inverse_or_identity(ordering.row_order),
                 inverse_or_identity(ordering.column_order));
}

template <class T>
std::int64_t envelope_profile(const Csr<T>& a) {
  std::int64_t profile = 0;
  for (index_t row = 0; row < a.rows; ++row)
    if (a.row_length(row) > 0) profile += std::max<index_t>(0, row - a.col_idx[a.row_ptr[row]]);
  return profile;
}

#define SPMV_INSTANTIATE(T)                                                                    \
  template MatrixOrdering compute_ordering(const Csr<T>&, Reordering, const BroAwareOptions&); \
  template Csr<T> reorder(const Csr<T>&, const MatrixOrdering&);                               \
  template std::int64_t envelope_profile(const Csr<T>&);
SPMV_INSTANTIATE(float)
SPMV_INSTANTIATE(double)
#undef SPMV_INSTANTIATE

}  // namespace spmv
