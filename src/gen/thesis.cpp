// The three synthetic families of El Zein's thesis (2009, section 4.3.2,
// "Test Matrices", figure 4.3). How the text is read here:
//
// - Random: "for each (row, column) combination, a random number is produced
//   ranging from 1 to 100. If that number is larger than the required sparsity
//   that location is assigned a value ... The minimum number of elements in a
//   row is set to one." So every position is an independent Bernoulli trial
//   with probability density = 1 - sparsity; we take `density` directly (any
//   real in [0, 1], not only whole percents, since the thesis also uses 99.9 %
//   sparsity) and give a row that came out empty one uniformly random column.
//   Like the thesis this visits every position: O(rows * cols) time, so use
//   `uniform` for very large, very sparse matrices.
// - Constant Row: "the number of elements per row is set to (the number of
//   columns x the required density) for all rows ... positions ... randomly
//   generated with a uniform random generator": `per_row` distinct uniformly
//   random columns in every row (the caller passes cols x density).
// - Structured: like Constant Row, but "all the rows have the same column
//   distribution", so that every row reads the same elements of x: one set of
//   `per_row` random columns, drawn once, repeated in every row.
// Values are random (the thesis does not say; they do not affect the pattern).
#include <cmath>
#include <string>
#include <vector>

#include "gen/row_builder.hpp"
#include "spmv/gen.hpp"

namespace spmv {
namespace {

using gen_detail::Rng;

// Calls visit(col) for the columns of row r of the thesis's Random matrix, in
// increasing order. Each position compares 32 random bits with the threshold
// density * 2^32, two positions per 64-bit draw.
template <class Visit>
void thesis_random_row(index_t r, index_t cols, std::uint64_t threshold, std::uint64_t seed,
                       const Visit& visit) {
  Rng rng(seed, static_cast<std::uint64_t>(r));
  bool empty = true;
  for (index_t c = 0; c < cols; c += 2) {
    const std::uint64_t bits = rng.next();
    if ((bits & 0xFFFFFFFFull) < threshold) {
      visit(c);
      empty = false;
    }
    if (c + 1 < cols && (bits >> 32) < threshold) {
      visit(c + 1);
      empty = false;
    }
  }
  if (empty && cols > 0) visit(rng.below(cols));
}

}  // namespace

Csr<double> gen_thesis_random(index_t rows, index_t cols, double density, std::uint64_t seed) {
  const char* generator = "random";
  gen_detail::require_non_negative(generator, "rows", rows);
  gen_detail::require_non_negative(generator, "cols", cols);
  gen_detail::require(density >= 0.0 && density <= 1.0, generator,
                      "density must be in [0, 1], got " + std::to_string(density));
  // The expected count decides quickly; the exact count is checked by the
  // builder before it allocates the entries.
  const double expected = static_cast<double>(rows) * cols * density;
  if (expected > static_cast<double>(max_index))
    throw SizeError(std::string(generator) + ": " + std::to_string(rows) + " x " +
                    std::to_string(cols) + " at density " + std::to_string(density) +
                    " would hold about " + std::to_string(static_cast<std::int64_t>(expected)) +
                    " non-zeros, beyond the 32-bit index limit");
  const auto threshold =
      static_cast<std::uint64_t>(std::ldexp(density, 32));  // exact: a power of 2
  return gen_detail::build_by_rows(
      generator, rows, cols,
      [&](index_t r) {
        index_t length = 0;
        thesis_random_row(r, cols, threshold, seed, [&](index_t) { ++length; });
        return length;
      },
      [&](index_t r, index_t* col, double* value) {
        index_t k = 0;
        thesis_random_row(r, cols, threshold, seed, [&](index_t c) {
          col[k] = c;
          value[k] = gen_detail::entry_value(seed, r, c);
          ++k;
        });
      });
}

Csr<double> gen_constant_row(index_t rows, index_t cols, index_t per_row, std::uint64_t seed) {
  gen_detail::check_per_row("constant_row", rows, cols, per_row);
  return gen_detail::random_column_rows("constant_row", rows, cols, seed,
                                        [&](index_t, Rng&) { return per_row; });
}

Csr<double> gen_structured(index_t rows, index_t cols, index_t per_row, std::uint64_t seed) {
  const char* generator = "structured";
  gen_detail::check_per_row(generator, rows, cols, per_row);
  std::vector<index_t> shared_columns(static_cast<std::size_t>(per_row));
  Rng rng(seed, 0);
  gen_detail::sample_distinct_sorted(rng, per_row, cols, shared_columns.data());
  return gen_detail::build_by_rows(
      generator, rows, cols, [&](index_t) { return per_row; },
      [&](index_t r, index_t* col, double* value) {
        for (index_t k = 0; k < per_row; ++k) {
          col[k] = shared_columns[k];
          value[k] = gen_detail::entry_value(seed, r, col[k]);
        }
      });
}

}  // namespace spmv
