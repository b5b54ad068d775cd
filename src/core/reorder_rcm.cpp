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

#include "core/reorder_support.hpp"
#include "core/symmetric_graph.hpp"
#include "spmv/reorder.hpp"

namespace spmv {

namespace {

// Breadth-first level structures rooted at one node, reusing its marks
// between searches (a search only marks with its own stamp).
class LevelSearch {
 public:
  explicit LevelSearch(const detail::SymmetricGraph& g) : g_(g), mark_(g.nodes(), 0) {}

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
  const detail::SymmetricGraph& g_;
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
  const detail::SymmetricGraph g = detail::symmetric_graph(a);
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
