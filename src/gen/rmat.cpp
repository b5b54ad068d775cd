// R-MAT power-law matrices (Chakrabarti, Zhan & Faloutsos, SDM 2004).
//
// Each edge starts from the whole 2^scale x 2^scale matrix and descends
// `scale` levels, choosing at every level the top-left, top-right,
// bottom-left or bottom-right quadrant with probabilities a, b, c and
// d = 1 - a - b - c. No noise is added and vertices are not permuted, so the
// heaviest rows are the first ones. Duplicate edges are summed: an entry hit
// m times holds m * value(row, col); self loops are kept.
//
// Edges are made in fixed chunks, each from its own random stream, and made
// twice (once to count row lengths, once to place the columns), so memory is
// one column index per edge plus the final matrix, and the result does not
// depend on the thread count.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gen/row_builder.hpp"
#include "spmv/gen.hpp"

namespace spmv {
namespace {

using gen_detail::Rng;

constexpr std::int64_t edges_per_chunk = 1 << 16;

// Quadrant probabilities as cumulative thresholds on 32 random bits.
struct QuadrantThresholds {
  std::uint64_t a, ab, abc;
};

// Calls emit(row, col) for each edge of chunk `chunk` (edges [first, end)).
template <class Emit>
void make_chunk_edges(int scale, const QuadrantThresholds& t, std::uint64_t seed, std::int64_t chunk,
                      std::int64_t edges, const Emit& emit) {
  Rng rng(seed, static_cast<std::uint64_t>(chunk));
  const std::int64_t end = std::min(edges, (chunk + 1) * edges_per_chunk);
  for (std::int64_t e = chunk * edges_per_chunk; e < end; ++e) {
    index_t row = 0, col = 0;
    std::uint64_t bits = 0;
    for (int level = 0; level < scale; ++level) {
      // Two levels per 64-bit draw.
      bits = level % 2 == 0 ? rng.next() : bits >> 32;
      const std::uint64_t u = bits & 0xFFFFFFFFull;
      const bool down = u >= t.ab;                       // c or d
      const bool right = (u >= t.a && u < t.ab) || u >= t.abc;  // b or d
      row = 2 * row + down;
      col = 2 * col + right;
    }
    emit(row, col);
  }
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
  const std::int64_t vertices = std::int64_t{1} << scale;
  const std::int64_t edges = std::int64_t{edge_factor} * vertices;
  check_index_range(vertices, vertices, edges, "rmat edge list");
  // ldexp by 32 is exact; the thresholds are exact floors of p * 2^32.
  const QuadrantThresholds thresholds{static_cast<std::uint64_t>(std::ldexp(a, 32)),
                                      static_cast<std::uint64_t>(std::ldexp(a + b, 32)),
                                      static_cast<std::uint64_t>(std::ldexp(a + b + c, 32))};
  const std::int64_t chunks = (edges + edges_per_chunk - 1) / edges_per_chunk;
  const index_t rows = static_cast<index_t>(vertices);

  // Pass 1: edges per row, then their offsets.
  std::vector<index_t> edge_ptr(static_cast<std::size_t>(rows) + 1, 0);
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t chunk = 0; chunk < chunks; ++chunk)
    make_chunk_edges(scale, thresholds, seed, chunk, edges, [&](index_t row, index_t) {
#pragma omp atomic update
      ++edge_ptr[row + 1];
    });
  for (index_t r = 0; r < rows; ++r) edge_ptr[r + 1] += edge_ptr[r];

  // Pass 2: the columns of each row's edges, in any order.
  std::vector<index_t> edge_col(static_cast<std::size_t>(edges));
  {
    std::vector<index_t> next(edge_ptr.begin(), edge_ptr.end() - 1);
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t chunk = 0; chunk < chunks; ++chunk)
      make_chunk_edges(scale, thresholds, seed, chunk, edges, [&](index_t row, index_t col) {
        index_t slot;
#pragma omp atomic capture
        slot = next[row]++;
        edge_col[slot] = col;
      });
  }

  // Sort each row; its distinct columns are its entries.
#pragma omp parallel for schedule(dynamic, 256)
  for (index_t r = 0; r < rows; ++r)
    std::sort(edge_col.begin() + edge_ptr[r], edge_col.begin() + edge_ptr[r + 1]);
  return gen_detail::build_by_rows(
      generator, rows, rows,
      [&](index_t r) {
        index_t distinct = 0;
        for (index_t e = edge_ptr[r]; e < edge_ptr[r + 1]; ++e)
          distinct += e == edge_ptr[r] || edge_col[e] != edge_col[e - 1];
        return distinct;
      },
      [&](index_t r, index_t* col, double* value) {
        index_t k = -1;
        for (index_t e = edge_ptr[r]; e < edge_ptr[r + 1]; ++e) {
          if (k < 0 || edge_col[e] != col[k]) {
            col[++k] = edge_col[e];
            value[k] = 0;
          }
          value[k] += 1;  // multiplicity for now
        }
        for (index_t j = 0; j <= k; ++j) value[j] *= gen_detail::entry_value(seed, r, col[j]);
      });
}

}  // namespace spmv
