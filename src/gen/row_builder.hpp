// What the generators share to build a canonical Csr directly, row by row,
// in parallel, without going through Coo: the two-pass row builder and the
// argument checks.
#pragma once

#include <cstdint>
#include <string>

#include "gen/random_source.hpp"
#include "spmv/error.hpp"
#include "spmv/matrix.hpp"

namespace spmv::gen_detail {

// Throws InvalidArgument("GENERATOR: MESSAGE") unless `ok`.
inline void require(bool ok, const char* generator, const std::string& message) {
  if (!ok) throw InvalidArgument(std::string(generator) + ": " + message);
}

// Throws InvalidArgument unless value >= 0.
inline void require_non_negative(const char* generator, const char* name, std::int64_t value) {
  require(value >= 0, generator, std::string(name) + " must be >= 0, got " + std::to_string(value));
}

// Checks the sizes of a generator with `per_row` distinct columns in each row.
inline void check_per_row(const char* generator, index_t rows, index_t cols, index_t per_row) {
  require_non_negative(generator, "rows", rows);
  require_non_negative(generator, "cols", cols);
  require_non_negative(generator, "per_row", per_row);
  require(per_row <= cols, generator,
          "per_row " + std::to_string(per_row) + " exceeds cols " + std::to_string(cols) +
              " (columns in a row are distinct)");
  check_index_range(rows, cols, std::int64_t{rows} * per_row, generator);
}

// Builds a rows x cols Csr in two parallel passes: length_of(r) gives the
// exact length of row r; then fill_row(r, cols, values) writes that many
// entries with strictly increasing columns. The lengths are summed first, so
// a matrix beyond int32 is refused with SizeError before the entry arrays are
// allocated. Neither callable may throw (they run inside OpenMP regions).
template <class LengthOf, class FillRow>
Csr<double> build_by_rows(const char* generator, std::int64_t rows, std::int64_t cols,
                          const LengthOf& length_of, const FillRow& fill_row) {
  check_index_range(rows, cols, 0, generator);
  Csr<double> a;
  a.rows = static_cast<index_t>(rows);
  a.cols = static_cast<index_t>(cols);
  a.row_ptr.assign(static_cast<std::size_t>(rows) + 1, 0);
  const index_t row_count = a.rows;
#pragma omp parallel for schedule(dynamic, 1024)
  for (index_t r = 0; r < row_count; ++r) a.row_ptr[r + 1] = length_of(r);

  std::int64_t total = 0;
  for (index_t r = 0; r < row_count; ++r) {
    total += a.row_ptr[r + 1];
    if (total > max_index)
      throw SizeError(std::string(generator) + ": the first " + std::to_string(r + 1) + " of " +
                      std::to_string(rows) + " rows already hold " + std::to_string(total) +
                      " non-zeros, beyond the 32-bit index limit " + std::to_string(max_index));
    a.row_ptr[r + 1] = static_cast<index_t>(total);
  }
  a.col_idx.resize(static_cast<std::size_t>(total));
  a.values.resize(static_cast<std::size_t>(total));
#pragma omp parallel for schedule(dynamic, 1024)
  for (index_t r = 0; r < row_count; ++r)
    fill_row(r, a.col_idx.data() + a.row_ptr[r], a.values.data() + a.row_ptr[r]);
  return a;
}

// Rows of distinct uniformly random columns with random values. Row r draws
// from stream r of `seed`: first its length, length_draw(r, rng) (which must
// lie in [0, cols]), then its columns; the same draws are repeated in the
// fill pass, so the length is never stored.
template <class LengthDraw>
Csr<double> random_column_rows(const char* generator, index_t rows, index_t cols,
                               std::uint64_t seed, const LengthDraw& length_draw) {
  return build_by_rows(
      generator, rows, cols,
      [&](index_t r) {
        Rng rng(seed, static_cast<std::uint64_t>(r));
        return length_draw(r, rng);
      },
      [&](index_t r, index_t* col, double* value) {
        Rng rng(seed, static_cast<std::uint64_t>(r));
        const index_t length = length_draw(r, rng);
        sample_distinct_sorted(rng, length, cols, col);
        for (index_t k = 0; k < length; ++k) value[k] = entry_value(seed, r, col[k]);
      });
}

}  // namespace spmv::gen_detail
