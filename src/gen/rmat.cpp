// R-MAT power-law matrices (Chakrabarti, Zhan & Faloutsos, SDM 2004).
//
// R-MAT places each of E = edge_factor * 2^scale edges independently by
// descending `scale` levels of the 2^scale x 2^scale matrix, choosing the
// top-left, top-right, bottom-left or bottom-right quadrant with
// probabilities a, b, c and d = 1 - a - b - c. No noise is added and vertices
// are not permuted, so the heaviest rows are the first ones. Duplicate edges
// are summed: an entry hit m times holds m * value(row, col); self loops are
// kept.
//
// The same distribution is drawn row by row, which needs no list of edges
// and no scattered writes:
// - rows: the number of edges in each half of a node's rows is binomial
//   (each edge goes down with probability c + d), so splitting E level by
//   level gives every row its edge count;
// - columns: given its row, an edge's column bits are independent, one per
//   level: right with probability b / (a + b) where the row bit is 0 (top
//   quadrants) and d / (c + d) where it is 1.
// Each tree node and each row draws from its own stream, so the result does
// not depend on the thread count.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gen/row_builder.hpp"
#include "spmv/gen.hpp"

namespace spmv {
namespace {

using gen_detail::Rng;

// A probability as a threshold on 32 random bits (exact floor of p * 2^32).
std::uint64_t threshold_of(double probability) {
  return static_cast<std::uint64_t>(std::ldexp(std::clamp(probability, 0.0, 1.0), 32));
}

// How many of `trials` Bernoulli trials succeed, two trials per 64-bit draw.
index_t count_successes(Rng& rng, index_t trials, std::uint64_t threshold) {
  index_t successes = 0;
  for (index_t t = 0; t < trials; t += 2) {
    const std::uint64_t bits = rng.next();
    successes += (bits & 0xFFFFFFFFull) < threshold;
    if (t + 1 < trials) successes += (bits >> 32) < threshold;
  }
  return successes;
}

// Edges per row: E split level by level. Node i of level l (rows whose top l
// bits are i) sends each of its edges to child 2i + 1 (bottom) with
// probability c + d; it draws from stream 2^l + i.
std::vector<index_t> edges_per_row(int scale, index_t edges, double down, std::uint64_t seed) {
  const std::uint64_t down_threshold = threshold_of(down);
  std::vector<index_t> level_counts{edges}, next_counts;
  for (int level = 0; level < scale; ++level) {
    const index_t nodes = static_cast<index_t>(level_counts.size());
    next_counts.assign(2 * static_cast<std::size_t>(nodes), 0);
#pragma omp parallel for schedule(dynamic, 64)
    for (index_t node = 0; node < nodes; ++node) {
      Rng rng(seed, (std::uint64_t{1} << level) + static_cast<std::uint64_t>(node));
      const index_t bottom = count_successes(rng, level_counts[node], down_threshold);
      next_counts[2 * node] = level_counts[node] - bottom;
      next_counts[2 * node + 1] = bottom;
    }
    level_counts.swap(next_counts);
  }
  return level_counts;
}

}  // namespace

Csr<double> gen_rmat(int scale, int edge_factor, double a, double b, double c, std::uint64_t seed) {
  const char* generator = "rmat";
  gen_detail::require_non_negative(generator, "scale", scale);
  gen_detail::require_non_negative(generator, "edge_factor", edge_factor);
  gen_detail::require(a >= 0 && b >= 0 && c >= 0 && a + b + c <= 1.0, generator,
                      "a, b, c must be >= 0 with a + b + c <= 1 (d = 1 - a - b - c), got " +
                          std::to_string(a) + ", " + std::to_string(b) + ", " + std::to_string(c));
  if (scale > 30)
    throw SizeError("rmat: scale " + std::to_string(scale) + " gives 2^" + std::to_string(scale) +
                    " rows, beyond the 32-bit index limit (scale <= 30)");
  const std::int64_t rows = std::int64_t{1} << scale;
  const std::int64_t edges = std::int64_t{edge_factor} * rows;
  check_index_range(rows, rows, edges, "rmat edge count");
  const double d = 1.0 - a - b - c;

  const std::vector<index_t> row_edges =
      edges_per_row(scale, static_cast<index_t>(edges), c + d, seed);
  // Column bit thresholds for a row bit of 0 and of 1 (unused when that half
  // of the matrix has probability 0, so receives no edges).
  const std::uint64_t right_threshold[2] = {threshold_of(a + b > 0 ? b / (a + b) : 0),
                                            threshold_of(c + d > 0 ? d / (c + d) : 0)};
  // Row r draws from the stream after the 2^scale tree nodes.
  auto draw_edge_columns = [&](index_t r, index_t* columns) {
    Rng rng(seed, (std::uint64_t{1} << scale) + static_cast<std::uint64_t>(r));
    for (index_t e = 0; e < row_edges[r]; ++e) {
      index_t col = 0;
      std::uint64_t bits = 0;
      for (int level = 0; level < scale; ++level) {
        bits = level % 2 == 0 ? rng.next() : bits >> 32;  // two levels per draw
        const int row_bit = (r >> (scale - 1 - level)) & 1;
        col = 2 * col + ((bits & 0xFFFFFFFFull) < right_threshold[row_bit]);
      }
      columns[e] = col;
    }
  };
  // Each row fills the slots of its edges: columns drawn, sorted, and
  // duplicates merged in place; then the rows are compacted left. Memory is
  // the edge count, above the final size only by the duplicates.
  Csr<double> m;
  m.rows = m.cols = static_cast<index_t>(rows);
  m.row_ptr.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (index_t r = 0; r < m.rows; ++r) m.row_ptr[r + 1] = m.row_ptr[r] + row_edges[r];
  m.col_idx.resize(static_cast<std::size_t>(edges));
  m.values.resize(static_cast<std::size_t>(edges));
  std::vector<index_t> distinct(row_edges.size());
#pragma omp parallel for schedule(dynamic, 256)
  for (index_t r = 0; r < m.rows; ++r) {
    index_t* col = m.col_idx.data() + m.row_ptr[r];
    double* value = m.values.data() + m.row_ptr[r];
    draw_edge_columns(r, col);
    std::sort(col, col + row_edges[r]);
    index_t k = -1;
    for (index_t e = 0; e < row_edges[r]; ++e) {
      if (k < 0 || col[e] != col[k]) {
        col[++k] = col[e];
        value[k] = 0;
      }
      value[k] += 1;  // multiplicity for now
    }
    for (index_t j = 0; j <= k; ++j) value[j] *= gen_detail::entry_value(seed, r, col[j]);
    distinct[r] = k + 1;
  }
  index_t kept = 0;
  for (index_t r = 0; r < m.rows; ++r) {
    const index_t slots = m.row_ptr[r];
    std::copy_n(m.col_idx.begin() + slots, distinct[r], m.col_idx.begin() + kept);
    std::copy_n(m.values.begin() + slots, distinct[r], m.values.begin() + kept);
    m.row_ptr[r] = kept;
    kept += distinct[r];
  }
  m.row_ptr[m.rows] = kept;
  m.col_idx.resize(static_cast<std::size_t>(kept));
  m.values.resize(static_cast<std::size_t>(kept));
  return m;
}

}  // namespace spmv
