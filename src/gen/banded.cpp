// Band matrices with random values: banded / tridiagonal (square) and dense
// (the band that covers every column).
#include <algorithm>

#include "gen/row_builder.hpp"
#include "spmv/gen.hpp"

namespace spmv {
namespace {

// Row i holds columns max(0, i - lower) .. min(cols - 1, i + upper).
Csr<double> band(const char* generator, index_t rows, index_t cols, index_t lower, index_t upper,
                 std::uint64_t seed) {
  gen_detail::require_non_negative(generator, "rows", rows);
  gen_detail::require_non_negative(generator, "cols", cols);
  gen_detail::require_non_negative(generator, "lower", lower);
  gen_detail::require_non_negative(generator, "upper", upper);
  auto first = [&](index_t i) {
    return static_cast<index_t>(std::max<std::int64_t>(0, std::int64_t{i} - lower));
  };
  auto end = [&](index_t i) {
    return static_cast<index_t>(std::min<std::int64_t>(cols, std::int64_t{i} + upper + 1));
  };
  auto length = [&](index_t i) { return std::max(0, end(i) - first(i)); };
  // Counted before the builder allocates anything, so that a band too large
  // for int32 is refused at once.
  std::int64_t entries = 0;
  for (index_t i = 0; i < rows; ++i) entries += length(i);
  check_index_range(rows, cols, entries, generator);
  return gen_detail::build_by_rows(generator, rows, cols, length,
                                   [&](index_t i, index_t* col, double* value) {
                                     for (index_t j = first(i), k = 0; j < end(i); ++j, ++k) {
                                       col[k] = j;
                                       value[k] = gen_detail::entry_value(seed, i, j);
                                     }
                                   });
}

}  // namespace

Csr<double> gen_banded(index_t rows, index_t lower, index_t upper, std::uint64_t seed) {
  return band("banded", rows, rows, lower, upper, seed);
}

Csr<double> gen_dense(index_t rows, index_t cols, std::uint64_t seed) {
  check_index_range(rows, cols, std::int64_t{rows} * cols, "dense");
  return band("dense", rows, cols, rows, cols, seed);
}

}  // namespace spmv
