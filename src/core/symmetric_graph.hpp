// Internal: the graph of a square matrix's pattern made symmetric, A + A^T
// without the diagonal, in compressed adjacency lists (the form RCM walks
// and METIS takes).
#pragma once

#include <vector>

#include "spmv/matrix.hpp"

namespace spmv::detail {

// Adjacency lists of A + A^T without the diagonal, each sorted and unique.
struct SymmetricGraph {
  std::vector<index_t> offsets;
  std::vector<index_t> neighbours;

  index_t nodes() const { return static_cast<index_t>(offsets.size()) - 1; }
  index_t degree(index_t v) const { return offsets[v + 1] - offsets[v]; }
  const index_t* begin(index_t v) const { return neighbours.data() + offsets[v]; }
  const index_t* end(index_t v) const { return neighbours.data() + offsets[v + 1]; }
};

// Merges row v of A with row v of A^T (both sorted) for every v; `a` square.
template <class T>
SymmetricGraph symmetric_graph(const Csr<T>& a);

}  // namespace spmv::detail
