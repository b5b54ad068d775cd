// Reorderings of a sparse matrix: Reverse Cuthill-McKee, AMD (SuiteSparse) and
// the BRO-aware row reordering (BAR) of Tang et al. 2013, Algorithm 2.
//
// Convention used everywhere in this library: a permutation is an ORDER,
// `order[new_position] = old_index` (the old row/column that ends up at
// position new_position). An empty order means the identity. The reordered
// matrix is A' = P A Q^T with A'(i, j) = A(row_order[i], column_order[j]);
// then y = A x is recovered as y[row_order[i]] = (A' x')[i] with
// x'[j] = x[column_order[j]]. permute() in matrix.hpp takes the inverse maps
// (old -> new): use inverse_permutation().
//
// plan() applies a reordering inside the operator (PlanOptions::reordering),
// so that the caller's x and y stay in the original order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spmv/matrix.hpp"
#include "spmv/types.hpp"

namespace spmv {

enum class Reordering {
  none,
  rcm,        // Reverse Cuthill-McKee on A + A^T, symmetric (rows and columns)
  amd,        // SuiteSparse AMD on A + A^T, symmetric (rows and columns)
  bro_aware,  // BAR: rows only, columns (and so x) keep their order
};

const char* to_string(Reordering reordering);  // "none", "rcm", "amd", "bar"
// Takes the names to_string gives; throws InvalidArgument on anything else.
Reordering reordering_from_string(const std::string& name);

// The row and column orders of one reordering of a matrix.
struct MatrixOrdering {
  Reordering method = Reordering::none;
  std::vector<index_t> row_order;     // empty: rows keep their order
  std::vector<index_t> column_order;  // empty: columns keep their order
  double seconds = 0;                 // time taken to compute the orders
};

// Parameters of BAR's cost model (Tang et al. 2013, equations 1-3) and of
// our bound on the greedy search.
struct BroAwareOptions {
  index_t slice_height = 256;  // h: streams per BRO-ELL slice (its thread block)
  // T: streams per row of the BRO-ELL kernel the order is made for (its
  // threads_per_row). A slice then holds h/T rows; entry k of a row belongs
  // to stream k mod T at slice column k/T, and its delta is taken from entry
  // k - T. A power of two from 1 to 32 that divides h.
  index_t threads_per_row = 1;
  index_t warp_size = 32;      // w
  int symbol_bits = 32;        // alpha: bits per symbol of the compressed stream
  int cache_line_bytes = 128;  // granularity of the x accesses that c() counts
  // How many partitions the greedy evaluates for each row (the paper
  // evaluates all m/h, which is quadratic in m): of the non-full ones, half
  // those whose seed row lengths are nearest the row's and half those whose
  // seeds' first columns are nearest the row's first column. At least 1.
  index_t candidates = 8;
};

// Throws InvalidArgument naming the shape unless `a` is square.
template <class T>
std::vector<index_t> reverse_cuthill_mckee(const Csr<T>& a);
// Throws InvalidArgument naming the shape unless `a` is square, Unavailable
// when this build has no SuiteSparse AMD.
template <class T>
std::vector<index_t> approximate_minimum_degree(const Csr<T>& a);
// A row order; any shape. Returns the identity order when the greedy's
// partition would cost more than the rows in their original order.
template <class T>
std::vector<index_t> bro_aware_row_order(const Csr<T>& a, const BroAwareOptions& options = {});

// BAR's cost Phi (equation 1) of BRO-ELL slices of h/T consecutive rows of A
// (h streams) taken in `row_order` (empty: the original order); the x cache
// lines are those of an x of the matrix's value type. The last slice may
// hold fewer rows.
template <class T>
double bro_ell_cost(const Csr<T>& a, const std::vector<index_t>& row_order,
                    const BroAwareOptions& options = {});

// Computes the orders of `method` (none: both empty) and times it.
template <class T>
MatrixOrdering compute_ordering(const Csr<T>& a, Reordering method,
                                const BroAwareOptions& options = {});

// A' = P A Q^T for the orders of `ordering`.
template <class T>
Csr<T> reorder(const Csr<T>& a, const MatrixOrdering& ordering);

// True when `order` holds each of 0..n-1 exactly once.
bool is_permutation(const std::vector<index_t>& order, index_t n);
// The old -> new map of an order (what permute() takes). Throws
// InvalidArgument unless `order` is a permutation of 0..size-1.
std::vector<index_t> inverse_permutation(const std::vector<index_t>& order);

// Envelope profile: the sum over rows i of i - (first column of row i), over
// rows whose first column lies left of the diagonal. With the bandwidth
// (stats.hpp) it is what RCM reduces.
template <class T>
std::int64_t envelope_profile(const Csr<T>& a);

}  // namespace spmv
