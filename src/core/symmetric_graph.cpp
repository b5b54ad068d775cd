// The symmetric graph of a square matrix (symmetric_graph.hpp).
#include "core/symmetric_graph.hpp"

#include <algorithm>
#include <iterator>

namespace spmv::detail {

template <class T>
SymmetricGraph symmetric_graph(const Csr<T>& a) {
  const index_t n = a.rows;
  // The pattern of A^T by counting: rows of A are visited in increasing
  // order, so each row of A^T comes out sorted.
  std::vector<index_t> t_offsets(static_cast<std::size_t>(n) + 1, 0);
  for (index_t column : a.col_idx) ++t_offsets[column + 1];
  for (index_t v = 0; v < n; ++v) t_offsets[v + 1] += t_offsets[v];
  std::vector<index_t> t_rows(a.col_idx.size());
  std::vector<index_t> fill(t_offsets.begin(), t_offsets.end() - 1);
  for (index_t row = 0; row < n; ++row)
    for (index_t k = a.row_ptr[row]; k < a.row_ptr[row + 1]; ++k) t_rows[fill[a.col_idx[k]]++] = row;

  SymmetricGraph g;
  g.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
  g.neighbours.reserve(2 * a.col_idx.size());
  for (index_t v = 0; v < n; ++v) {
    const index_t* row = a.col_idx.data() + a.row_ptr[v];
    const index_t* row_end = a.col_idx.data() + a.row_ptr[v + 1];
    const index_t* column = t_rows.data() + t_offsets[v];
    const index_t* column_end = t_rows.data() + t_offsets[v + 1];
    const std::size_t before = g.neighbours.size();
    std::set_union(row, row_end, column, column_end, std::back_inserter(g.neighbours));
    g.neighbours.erase(std::remove(g.neighbours.begin() + static_cast<std::ptrdiff_t>(before),
                                   g.neighbours.end(), v),
                       g.neighbours.end());
    g.offsets[v + 1] = static_cast<index_t>(g.neighbours.size());
  }
  return g;
}

template SymmetricGraph symmetric_graph(const Csr<float>&);
template SymmetricGraph symmetric_graph(const Csr<double>&);

}  // namespace spmv::detail
