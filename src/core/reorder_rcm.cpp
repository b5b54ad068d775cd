// Reverse Cuthill-McKee on the pattern of A + A^T (diagonal ignored).
//
// Per connected component: a pseudo-peripheral start node by the George-Liu
// iteration (start at a node of minimum degree; repeatedly restart from a
// minimum-degree node of the farthest level while that lengthens the level
// structure), then a breadth-first numbering that visits each node's
// unnumbered neighbours by increasing degree (ties by index, so the result
// is deterministic). The concatenated numbering is reversed at the end.
// Time O(nnz log(max degree)) plus the George-Liu searches; memory O(nnz).
#include <algorithm>
#include <iterator>

#include "core/reorder_support.hpp"
#include "spmv/reorder.hpp"

namespace spmv {

namespace {

// Adjacency lists of A + A^T without the diagonal, each sorted and unique.
struct SymmetricGraph {
  std::vector<index_t> offsets;
  std::vector<index_t> neighbours;

  index_t nodes() const { return static_cast<index_t>(offsets.size()) - 1; }
  index_t degree(index_t v) const { return offsets[v + 1] - offsets[v]; }
  const index_t* begin(index_t v) const { return neighbours.data() + offsets[v]; }
  const index_t* end(index_t v) const { return neighbours.data() + offsets[v + 1]; }
};

// Merges row v of A with row v of A^T (both sorted) for every v.
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

// Breadth-first level structures rooted at one node, reusing its marks
// between searches (a search only marks with its own stamp).
class LevelSearch {
 public:
  explicit LevelSearch(const SymmetricGraph& g) : g_(g), mark_(g.nodes(), 0) {}

  // Visits the component of `root`; afterwards nodes() lists it level by
  // level and last_level() the farthest level.
  void run(index_t root) {
    ++stamp_;
    nodes_.clear();
    nodes_.push_back(root);
    mark_[root] = stamp_;
    std::size_t level_begin = 0;
    levels_ = 0;
    while (level_begin < nodes_.size()) {
      const std::size_t level_end = nodes_.size();
      last_level_begin_ = level_begin;
      ++levels_;
      for (std::size_t i = level_begin; i < level_end; ++i)
        for (const index_t* u = g_.begin(nodes_[i]); u != g_.end(nodes_[i]); ++u)
          if (mark_[*u] != stamp_) {
            mark_[*u] = stamp_;
            nodes_.push_back(*u);
          }
      level_begin = level_end;
    }
  }

  const std::vector<index_t>& nodes() const { return nodes_; }
  index_t levels() const { return levels_; }
  // The node of minimum degree (lowest index among equals) in `first`..`last`.
  index_t min_degree_node(std::size_t first, std::size_t last) const {
    index_t best = nodes_[first];
    for (std::size_t i = first + 1; i < last; ++i) {
      const index_t v = nodes_[i];
      if (g_.degree(v) < g_.degree(best) || (g_.degree(v) == g_.degree(best) && v < best)) best = v;
    }
    return best;
  }
  index_t min_degree_in_last_level() const {
    return min_degree_node(last_level_begin_, nodes_.size());
  }
  index_t min_degree_in_component() const { return min_degree_node(0, nodes_.size()); }

 private:
  const SymmetricGraph& g_;
  std::vector<unsigned> mark_;
  unsigned stamp_ = 0;
  std::vector<index_t> nodes_;
  std::size_t last_level_begin_ = 0;
  index_t levels_ = 0;
};

// George-Liu: a node of (nearly) maximal eccentricity in the component of `any`.
index_t pseudo_peripheral_node(LevelSearch& search, index_t any) {
  search.run(any);
  index_t root = search.min_degree_in_component();
  search.run(root);
  while (true) {
    const index_t candidate = search.min_degree_in_last_level();
    const index_t levels = search.levels();
    search.run(candidate);
    if (search.levels() <= levels) return root;
    root = candidate;
  }
}

}  // namespace

template <class T>
std::vector<index_t> reverse_cuthill_mckee(const Csr<T>& a) {
  detail::require_square(a.rows, a.cols, "rcm");
  const SymmetricGraph g = symmetric_graph(a);
  const index_t n = g.nodes();
  LevelSearch search(g);
  std::vector<bool> numbered(static_cast<std::size_t>(n), false);
  std::vector<index_t> order;
  order.reserve(static_cast<std::size_t>(n));
  std::vector<index_t> unnumbered_neighbours;
  const auto by_degree = [&g](index_t u, index_t v) {
    return g.degree(u) != g.degree(v) ? g.degree(u) < g.degree(v) : u < v;
  };
  for (index_t any = 0; any < n; ++any) {
    if (numbered[any]) continue;
    const index_t root = pseudo_peripheral_node(search, any);
    std::size_t next = order.size();
    order.push_back(root);
    numbered[root] = true;
    for (; next < order.size(); ++next) {  // `order` is the breadth-first queue
      unnumbered_neighbours.clear();
      for (const index_t* u = g.begin(order[next]); u != g.end(order[next]); ++u)
        if (!numbered[*u]) {
          numbered[*u] = true;
          unnumbered_neighbours.push_back(*u);
        }
      std::sort(unnumbered_neighbours.begin(), unnumbered_neighbours.end(), by_degree);
      order.insert(order.end(), unnumbered_neighbours.begin(), unnumbered_neighbours.end());
    }
  }
  std::reverse(order.begin(), order.end());
  return order;
}

template std::vector<index_t> reverse_cuthill_mckee(const Csr<float>&);
template std::vector<index_t> reverse_cuthill_mckee(const Csr<double>&);

}  // namespace spmv
