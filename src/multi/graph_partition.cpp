// The graph partition (distributed.hpp): METIS k-way on the graph of A + A^T.
//
// Why k-way rather than recursive bisection, also for 2 parts: only
// METIS_PartGraphKway minimises the total communication volume
// (METIS_OBJTYPE_VOL), which is what the halo exchange sends: each row's x
// entry once to every other part holding a neighbour of it. Recursive
// bisection minimises the edge cut, which counts an x entry once per edge.
//
// METIS gives each row a part; the rows are then ordered part by part, each
// part's rows in their order in A, and that order (Partition::row_order)
// makes every part one block of P A P^T.
#include <algorithm>
#include <string>

#include "core/symmetric_graph.hpp"
#include "multi/partition_checks.hpp"
#include "spmv/distributed.hpp"
#include "spmv/error.hpp"

#ifdef SPMV_HAVE_METIS
#include <metis.h>

#include <type_traits>
#endif

namespace spmv {

namespace {

#ifdef SPMV_HAVE_METIS
static_assert(std::is_same_v<idx_t, index_t>, "METIS must be built with 32-bit indices (IDXTYPEWIDTH 32)");

const char* metis_status_name(int status) {
  switch (status) {
    case METIS_ERROR_INPUT: return "METIS_ERROR_INPUT";
    case METIS_ERROR_MEMORY: return "METIS_ERROR_MEMORY";
    default: return "METIS_ERROR";
  }
}

// The part of each vertex, from METIS (parts >= 2, the graph with an edge;
// METIS takes its arrays as non-const).
std::vector<index_t> metis_kway_parts(detail::SymmetricGraph& graph, std::vector<idx_t>& vertex_weights, int parts) {
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_OBJTYPE] = METIS_OBJTYPE_VOL;
  options[METIS_OPTION_NUMBERING] = 0;
  options[METIS_OPTION_SEED] = 1;  // the same partition on every run and every MPI rank
  idx_t vertices = graph.nodes(), constraints = 1, part_count = parts, objective = 0;
  std::vector<idx_t> part_of(static_cast<std::size_t>(vertices));
  const int status = METIS_PartGraphKway(&vertices, &constraints, graph.offsets.data(), graph.neighbours.data(),
                                         vertex_weights.data(), nullptr, nullptr, &part_count, nullptr, nullptr,
                                         options, &objective, part_of.data());
  if (status != METIS_OK)
    throw Error(std::string("graph partition: METIS_PartGraphKway failed (") + metis_status_name(status) + ") on " +
                std::to_string(vertices) + " rows into " + std::to_string(parts) + " parts");
  return part_of;
}

// Each part's rows by the METIS k-way partition of the rows that have a
// neighbour in the graph. The others (isolated: they neither read nor
// supply x entries of other parts) then go one by one to the lightest part:
// METIS's refinement moves only rows on a part's boundary, so it leaves
// isolated rows where its first guess put them and cannot balance with
// them (zenios, 2 parts: 15,091 and 12,100 non-zeros with them, 13,749 and
// 13,442 without).
std::vector<index_t> parts_of_rows(const detail::SymmetricGraph& graph, const std::vector<idx_t>& weights,
                                   int parts) {
  const index_t rows = graph.nodes();
  std::vector<index_t> compact(static_cast<std::size_t>(rows), -1);
  std::vector<index_t> connected;
  detail::SymmetricGraph linked;  // the graph of the connected rows, renumbered compactly
  std::vector<idx_t> linked_weights;
  for (index_t v = 0; v < rows; ++v)
    if (graph.degree(v) > 0) {
      compact[v] = static_cast<index_t>(connected.size());
      connected.push_back(v);
    }
  linked.offsets.push_back(0);
  for (const index_t v : connected) {
    for (const index_t* u = graph.begin(v); u != graph.end(v); ++u) linked.neighbours.push_back(compact[*u]);
    linked.offsets.push_back(static_cast<index_t>(linked.neighbours.size()));
    linked_weights.push_back(weights[v]);
  }
  const std::vector<index_t> linked_parts = metis_kway_parts(linked, linked_weights, parts);

  std::vector<index_t> part_of(static_cast<std::size_t>(rows), -1);
  std::vector<std::int64_t> part_weight(parts, 0);
  for (std::size_t i = 0; i < connected.size(); ++i) {
    part_of[connected[i]] = linked_parts[i];
    part_weight[linked_parts[i]] += weights[connected[i]];
  }
  for (index_t v = 0; v < rows; ++v) {
    if (part_of[v] >= 0) continue;
    const auto lightest = std::min_element(part_weight.begin(), part_weight.end());
    part_of[v] = static_cast<index_t>(lightest - part_weight.begin());
    *lightest += weights[v];
  }
  return part_of;
}

// METIS may leave a part empty (tiny or disconnected graphs): each empty
// part takes the last row of the part with the most rows.
void fill_empty_parts(std::vector<index_t>& part_of, int parts) {
  std::vector<index_t> rows_in(parts, 0);
  for (const index_t p : part_of) ++rows_in[p];
  for (int empty = 0; empty < parts; ++empty) {
    if (rows_in[empty] > 0) continue;
    const int largest = static_cast<int>(std::max_element(rows_in.begin(), rows_in.end()) - rows_in.begin());
    const auto last = std::find(part_of.rbegin(), part_of.rend(), largest);
    *last = empty;
    --rows_in[largest];
    ++rows_in[empty];
  }
}
#endif

}  // namespace

bool graph_partition_available() {
#ifdef SPMV_HAVE_METIS
  return true;
#else
  return false;
#endif
}

template <class T>
Partition partition_graph(const Csr<T>& a, int parts) {
  if (a.rows != a.cols)
    throw InvalidArgument("the graph partition needs a square matrix (got " + std::to_string(a.rows) + " x " +
                          std::to_string(a.cols) + "): it splits x like y; partition by rows or nnz instead");
  detail::check_part_count(a.rows, parts);
  validate(a);  // the graph's edges are the columns
#ifndef SPMV_HAVE_METIS
  throw Unavailable("the graph partition needs METIS (libmetis), which this build was configured without "
                    "(install libmetis-dev and reconfigure with SPMV_METIS=AUTO or ON)");
#else
  if (parts == 1) return partition_nonzeros(a, parts);
  if (2 * static_cast<std::int64_t>(a.nnz()) + a.rows > max_index)
    throw SizeError("graph partition: A + A^T of " + std::to_string(a.nnz()) +
                    " non-zeros may exceed METIS's 32-bit indices; partition by rows or nnz instead");
  const detail::SymmetricGraph graph = detail::symmetric_graph(a);
  // Without an edge no part reads another's x: any balanced split is best.
  if (graph.neighbours.empty()) return partition_nonzeros(a, parts);
  std::vector<idx_t> vertex_weights(static_cast<std::size_t>(a.rows));
  for (index_t row = 0; row < a.rows; ++row) vertex_weights[row] = a.row_length(row) + 1;
  std::vector<index_t> part_of = parts_of_rows(graph, vertex_weights, parts);
  fill_empty_parts(part_of, parts);

  // Rows part by part (a counting sort keeps A's order inside a part).
  std::vector<index_t> offsets(static_cast<std::size_t>(parts) + 1, 0);
  for (const index_t p : part_of) ++offsets[p + 1];
  for (int p = 0; p < parts; ++p) offsets[p + 1] += offsets[p];
  std::vector<index_t> row_order(static_cast<std::size_t>(a.rows));
  std::vector<index_t> next(offsets.begin(), offsets.end() - 1);
  for (index_t row = 0; row < a.rows; ++row) row_order[next[part_of[row]]++] = row;
  Partition partition = partition_from_row_offsets(a.rows, a.cols, std::move(offsets));
  // An order that moves nothing is left out: the operator then skips the permutation.
  bool moves = false;
  for (index_t i = 0; i < a.rows && !moves; ++i) moves = row_order[i] != i;
  if (moves) partition.row_order = std::move(row_order);
  return partition;
#endif
}

template Partition partition_graph(const Csr<float>&, int);
template Partition partition_graph(const Csr<double>&, int);

}  // namespace spmv
