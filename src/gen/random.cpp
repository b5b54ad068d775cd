// Random-pattern generators: uniform k per row, wide LP-like, and
// circuit-like (a few huge rows among short ones).
#include <algorithm>
#include <string>
#include <vector>

#include "gen/row_builder.hpp"
#include "spmv/gen.hpp"

namespace spmv {

using gen_detail::Rng;

Csr<double> gen_uniform_random(index_t rows, index_t cols, index_t per_row, std::uint64_t seed) {
  gen_detail::check_per_row("uniform", rows, cols, per_row);
  return gen_detail::random_column_rows("uniform", rows, cols, seed,
                                        [&](index_t, Rng&) { return per_row; });
}

Csr<double> gen_wide_lp(index_t rows, index_t cols, index_t per_row, std::uint64_t seed) {
  gen_detail::check_per_row("widelp", rows, cols, per_row);
  // Constraint rows of an LP differ in length: uniform in
  // [per_row/2, per_row/2 + per_row], capped at cols.
  return gen_detail::random_column_rows("widelp", rows, cols, seed, [&](index_t, Rng& rng) {
    const std::int64_t length = per_row / 2 + std::int64_t{rng.below(per_row + 1)};
    return static_cast<index_t>(std::min<std::int64_t>(length, cols));
  });
}

Csr<double> gen_few_huge_rows(index_t rows, index_t cols, index_t per_row, index_t huge_rows,
                              index_t huge_length, std::uint64_t seed) {
  const char* generator = "fewhuge";
  gen_detail::check_per_row(generator, rows, cols, per_row);
  gen_detail::require(huge_rows >= 0 && huge_rows <= rows, generator,
                      "huge_rows must be in [0, rows = " + std::to_string(rows) + "], got " +
                          std::to_string(huge_rows));
  gen_detail::require(huge_length >= 0 && huge_length <= cols, generator,
                      "huge_length must be in [0, cols = " + std::to_string(cols) + "], got " +
                          std::to_string(huge_length));
  check_index_range(
      rows, cols, std::int64_t{rows - huge_rows} * per_row + std::int64_t{huge_rows} * huge_length,
      generator);
  // Huge row h sits in the middle of the h-th of huge_rows equal slices;
  // slices are at least one row wide, so the positions are distinct.
  std::vector<index_t> huge(static_cast<std::size_t>(huge_rows));
  for (index_t h = 0; h < huge_rows; ++h)
    huge[h] =
        static_cast<index_t>((2 * std::int64_t{h} + 1) * rows / (2 * std::int64_t{huge_rows}));
  return gen_detail::random_column_rows(generator, rows, cols, seed, [&](index_t r, Rng&) {
    return std::binary_search(huge.begin(), huge.end(), r) ? huge_length : per_row;
  });
}

}  // namespace spmv
