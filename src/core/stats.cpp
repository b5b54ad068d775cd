// Structural analysis of a canonical Csr (MatrixStats).
#include "spmv/stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "spmv/error.hpp"

namespace spmv {
namespace {

// 0 for an empty row, else the k with 2^(k-1) <= length < 2^k.
std::size_t histogram_bucket(index_t length) {
  std::size_t bucket = 0;
  for (; length > 0; length >>= 1) ++bucket;
  return bucket;
}

// Row-length statistics, the histogram and the HYB split in one parallel
// pass over row_ptr.
template <class T>
void fill_row_length_stats(MatrixStats& stats, const Csr<T>& a) {
  stats.ell_padding_ratio = 1.0;  // nothing stored, nothing padded
  if (a.rows == 0) return;
  const double mean = static_cast<double>(stats.nnz) / a.rows;
  constexpr std::size_t buckets = 33;  // histogram_bucket of any 32-bit length
  const std::size_t cap = hyb_length_cap(stats.nnz, a.rows);
  index_t shortest = a.row_length(0), longest = shortest;
  double squares = 0;
  std::vector<std::int64_t> histogram(buckets, 0), rows_of_length(cap + 1, 0);
#pragma omp parallel reduction(min : shortest) reduction(max : longest) reduction(+ : squares)
  {
    std::vector<std::int64_t> my_histogram(buckets, 0), my_rows_of_length(cap + 1, 0);
#pragma omp for schedule(static) nowait
    for (index_t r = 0; r < a.rows; ++r) {
      const index_t length = a.row_length(r);
      shortest = std::min(shortest, length);
      longest = std::max(longest, length);
      squares += (length - mean) * (length - mean);
      ++my_histogram[histogram_bucket(length)];
      ++my_rows_of_length[std::min<std::size_t>(static_cast<std::size_t>(length), cap)];
    }
#pragma omp critical
    for (std::size_t i = 0; i < buckets || i <= cap; ++i) {
      if (i < buckets) histogram[i] += my_histogram[i];
      if (i <= cap) rows_of_length[i] += my_rows_of_length[i];
    }
  }
  stats.row_length.min = shortest;
  stats.row_length.max = longest;
  stats.row_length.mean = mean;
  stats.row_length.std = std::sqrt(squares / a.rows);
  stats.row_length_histogram.assign(histogram.begin(), histogram.begin() + histogram_bucket(longest) + 1);
  stats.empty_rows = stats.row_length_histogram[0];
  if (stats.nnz > 0) stats.ell_padding_ratio = static_cast<double>(a.rows) * longest / stats.nnz;
  stats.hyb_ell_width = hyb_split_width_of_counts(rows_of_length, a.rows);
  // Entries beyond the width: nnz minus what the ELL part holds.
  std::int64_t in_ell = 0;
  for (std::size_t length = 0; length <= cap; ++length)
    in_ell += rows_of_length[length] * std::min<std::int64_t>(static_cast<std::int64_t>(length), stats.hyb_ell_width);
  stats.hyb_coo_nnz = static_cast<index_t>(stats.nnz - in_ell);
}

// The rows whose entries the structure statistics read: [begin, end) runs.
struct RowRange {
  index_t begin = 0;
  index_t end = 0;
};

// Every row, or (nnz > budget > 0) up to 64 runs of consecutive rows spread
// evenly over the matrix, each starting at a multiple of 64 rows, holding
// about budget / 64 entries and ending at a multiple of 8 rows (blocks of up
// to 8 rows are seen whole), at the next run's start, or before an outlying
// long row.
template <class T>
std::vector<RowRange> rows_to_read(const Csr<T>& a, std::int64_t budget) {
  if (budget <= 0 || a.nnz() <= budget) return {{0, a.rows}};
  constexpr index_t runs = 64, start_alignment = 64, end_alignment = 8;
  const std::int64_t per_run = std::max<std::int64_t>(budget / runs, 1);
  const double mean_row_length = static_cast<double>(a.nnz()) / a.rows;
  std::vector<RowRange> ranges;
  for (index_t i = 0; i < runs; ++i) {
    const index_t begin = static_cast<index_t>(std::int64_t{a.rows} * i / runs / start_alignment * start_alignment);
    const index_t limit = i + 1 == runs ? a.rows
                                        : static_cast<index_t>(std::int64_t{a.rows} * (i + 1) / runs /
                                                               start_alignment * start_alignment);
    if (begin >= limit) continue;  // fewer than 64 * 64 rows: some runs coincide
    // The first row boundary at which the run holds per_run entries.
    const auto enough = std::lower_bound(a.row_ptr.begin() + begin + 1, a.row_ptr.begin() + limit,
                                         a.row_ptr[begin] + per_run);
    index_t end = static_cast<index_t>(enough - a.row_ptr.begin());
    end = std::min((end + end_alignment - 1) / end_alignment * end_alignment, limit);
    // A row longer than a run's share and far longer than most (a few huge
    // rows among short ones) ends the run before it: its length is known
    // from row_ptr, and reading it could cost more than the whole sample.
    for (index_t r = begin; r < end; ++r)
      if (a.row_length(r) > per_run && a.row_length(r) > 8 * mean_row_length) end = r;
    if (end > begin) ranges.push_back({begin, end});
  }
  if (ranges.empty()) return {{0, a.rows}};  // cannot happen: not every row is far longer than the mean
  return ranges;
}

// A sample is read by one thread: its runs are short, and a parallel region
// per run would cost more in start-up and barriers than the reading.
bool in_parallel(const std::vector<RowRange>& ranges) { return ranges.size() == 1; }

template <class T>
void fill_diagonal_stats(MatrixStats& stats, const Csr<T>& a, const std::vector<RowRange>& ranges) {
  // Rows are sorted, so a row's first and last entries give its extent.
  index_t lower = 0, upper = 0;
  for (const RowRange& range : ranges) {
#pragma omp parallel for reduction(max : lower, upper) schedule(static) if (in_parallel(ranges))
    for (index_t r = range.begin; r < range.end; ++r) {
      if (a.row_ptr[r] == a.row_ptr[r + 1]) continue;
      lower = std::max(lower, r - a.col_idx[a.row_ptr[r]]);
      upper = std::max(upper, a.col_idx[a.row_ptr[r + 1] - 1] - r);
    }
  }
  stats.lower_bandwidth = lower;
  stats.upper_bandwidth = upper;
  if (a.nnz() == 0) return;
  // One bit per diagonal j - i in [-(rows - 1), cols - 1].
  std::vector<std::uint64_t> occupied((static_cast<std::size_t>(a.rows) + a.cols + 62) / 64, 0);
  for (const RowRange& range : ranges) {
#pragma omp parallel for schedule(dynamic, 1024) if (in_parallel(ranges))
    for (index_t r = range.begin; r < range.end; ++r)
      for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
        const std::size_t diagonal = static_cast<std::size_t>(a.col_idx[k]) + (a.rows - 1 - r);
        const std::uint64_t bit = std::uint64_t{1} << (diagonal % 64);
        std::uint64_t& word = occupied[diagonal / 64];
        if (word & bit) continue;  // already set: skip the atomic
#pragma omp atomic update
        word |= bit;
      }
  }
  std::int64_t count = 0;
#pragma omp parallel for reduction(+ : count) schedule(static)
  for (std::size_t w = 0; w < occupied.size(); ++w) count += __builtin_popcountll(occupied[w]);
  stats.occupied_diagonals = static_cast<index_t>(count);
}

template <class T>
BlockDensity block_density(const Csr<T>& a, index_t block_rows, index_t block_cols,
                           const std::vector<RowRange>& ranges) {
  if (block_rows < 1 || block_cols < 1)
    throw InvalidArgument("block density: block shape " + std::to_string(block_rows) + " x " +
                          std::to_string(block_cols) + " must be at least 1 x 1");
  BlockDensity result;
  result.block_rows = block_rows;
  result.block_cols = block_cols;
  const index_t block_col_count = a.cols / block_cols + (a.cols % block_cols != 0);
  std::int64_t occupied = 0, entries = 0;
#pragma omp parallel reduction(+ : occupied, entries) if (in_parallel(ranges))
  {
    // last_block_row[J]: the last block row that counted block column J.
    std::vector<index_t> last_block_row(static_cast<std::size_t>(block_col_count), -1);
    for (const RowRange& range : ranges) {
      // The block rows the range touches; each counts only the range's rows.
      const index_t first_block_row = range.begin / block_rows;
      const index_t end_block_row = range.end / block_rows + (range.end % block_rows != 0);
#pragma omp for schedule(dynamic, 64)
      for (index_t block_row = first_block_row; block_row < end_block_row; ++block_row) {
        const std::int64_t top = std::int64_t{block_row} * block_rows;
        const index_t first = a.row_ptr[std::max<std::int64_t>(top, range.begin)];
        const index_t end = a.row_ptr[std::min<std::int64_t>(top + block_rows, range.end)];
        entries += end - first;
        for (index_t k = first; k < end; ++k) {
          const index_t block_col = a.col_idx[k] / block_cols;
          if (last_block_row[block_col] != block_row) {
            last_block_row[block_col] = block_row;
            ++occupied;
          }
        }
      }
    }
  }
  result.occupied_blocks = occupied;
  if (occupied > 0) result.density = entries / (static_cast<double>(occupied) * block_rows * block_cols);
  return result;
}

// Pattern symmetry: every entry (r, c) has its mirror (c, r), found by binary
// search in the sorted row c. Compares values on the way. No transpose is
// built, so the check needs no memory and stops at the first failure.
template <class T>
void fill_symmetry(MatrixStats& stats, const Csr<T>& a, const std::vector<RowRange>& ranges) {
  if (a.rows != a.cols) return;
  bool pattern = true, values = true;
  for (const RowRange& range : ranges) {
#pragma omp parallel for schedule(dynamic, 1024) reduction(&& : pattern, values) if (in_parallel(ranges))
    for (index_t r = range.begin; r < range.end; ++r) {
      if (!pattern) continue;  // another row already failed (seen by this thread)
      for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1] && pattern; ++k) {
        const index_t c = a.col_idx[k];
        const auto row_c_begin = a.col_idx.begin() + a.row_ptr[c];
        const auto row_c_end = a.col_idx.begin() + a.row_ptr[c + 1];
        const auto mirror = std::lower_bound(row_c_begin, row_c_end, r);
        if (mirror == row_c_end || *mirror != r) {
          pattern = false;
        } else if (!(a.values[mirror - a.col_idx.begin()] == a.values[k])) {
          values = false;
        }
      }
    }
  }
  stats.pattern_symmetric = pattern;
  stats.value_symmetric = pattern && values;
}

// A value's identity for counting: its bits, with -0 made +0 (they compare
// equal) and every NaN made one NaN.
template <class T>
std::uint64_t value_key(T v) {
  if (std::isnan(v)) return ~std::uint64_t{0};  // no double or float has these bits after the cast
  if (v == 0) v = 0;
  std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t> bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

// Few distinct values (stencils, pattern matrices, quantised data) are
// counted in one pass with a small open-addressing set; returns -1 when there
// are more than `limit`.
template <class T>
std::int64_t count_few_distinct(const std::vector<T>& values, std::size_t limit) {
  const std::size_t slots = 4 * limit;  // a power of two when limit is
  std::vector<std::uint64_t> key(slots);
  std::vector<char> used(slots, 0);
  std::size_t count = 0;
  for (T v : values) {
    const std::uint64_t k = value_key(v);
    std::size_t slot = (k * 0x9E3779B97F4A7C15ull) >> 40 & (slots - 1);
    while (used[slot] && key[slot] != k) slot = (slot + 1) & (slots - 1);
    if (used[slot]) continue;
    if (++count > limit) return -1;
    used[slot] = 1;
    key[slot] = k;
  }
  return static_cast<std::int64_t>(count);
}

// Counts distinct keys by sorting a copy in pieces: keys go to buckets by a
// multiplicative (Fibonacci) hash, so equal keys share a bucket and buckets
// are even however the values cluster; then each bucket is sorted on its own,
// in cache and in parallel.
template <class T>
std::int64_t count_distinct_by_sorting(const std::vector<T>& values) {
  constexpr int bucket_bits = 12;
  constexpr std::size_t buckets = std::size_t{1} << bucket_bits;
  auto bucket_of = [](std::uint64_t key) {
    return (key * 0x9E3779B97F4A7C15ull) >> (64 - bucket_bits);
  };
  std::vector<std::size_t> bucket_begin(buckets + 1, 0);
  for (T v : values) ++bucket_begin[bucket_of(value_key(v)) + 1];
  for (std::size_t b = 0; b < buckets; ++b) bucket_begin[b + 1] += bucket_begin[b];
  std::vector<std::uint64_t> keys(values.size());
  {
    std::vector<std::size_t> next(bucket_begin.begin(), bucket_begin.end() - 1);
    for (T v : values) {
      const std::uint64_t key = value_key(v);
      keys[next[bucket_of(key)]++] = key;
    }
  }
  std::int64_t distinct = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : distinct)
  for (std::size_t b = 0; b < buckets; ++b) {
    const auto begin = keys.begin() + static_cast<std::ptrdiff_t>(bucket_begin[b]);
    const auto end = keys.begin() + static_cast<std::ptrdiff_t>(bucket_begin[b + 1]);
    std::sort(begin, end);
    distinct += std::unique(begin, end) - begin;
  }
  return distinct;
}

template <class T>
std::int64_t count_distinct_values(const std::vector<T>& values, std::size_t limit) {
  constexpr std::size_t few = 1024;
  const std::int64_t count = count_few_distinct(values, limit > 0 ? limit : few);
  if (count >= 0) return count;
  return limit > 0 ? static_cast<std::int64_t>(limit) + 1 : count_distinct_by_sorting(values);
}

}  // namespace

index_t hyb_split_width_of_counts(const std::vector<std::int64_t>& rows_of_length, std::int64_t rows) {
  constexpr std::int64_t breakeven_rows = 4096;  // CUSP's breakeven_threshold
  constexpr std::int64_t relative_speed = 3;     // CUSP: ELL 3x as fast as COO
  const index_t longest = static_cast<index_t>(rows_of_length.size()) - 1;
  index_t width = 0;
  std::int64_t at_least = rows - rows_of_length[0];  // rows of length >= width + 1
  while (width < longest && at_least >= breakeven_rows && relative_speed * at_least >= rows) {
    ++width;
    at_least -= rows_of_length[width];
  }
  return width;
}

std::size_t hyb_length_cap(std::int64_t nnz, std::int64_t rows) {
  return static_cast<std::size_t>(3 * nnz / std::max<std::int64_t>(rows, 1) + 1);
}

index_t hyb_split_width(const std::vector<index_t>& row_lengths) {
  if (row_lengths.empty()) return 0;
  const std::int64_t rows = static_cast<std::int64_t>(row_lengths.size());
  std::int64_t nnz = 0;
  for (index_t length : row_lengths) nnz += length;
  const std::size_t cap = hyb_length_cap(nnz, rows);
  std::vector<std::int64_t> rows_of_length(cap + 1, 0);
  for (index_t length : row_lengths) ++rows_of_length[std::min<std::size_t>(static_cast<std::size_t>(length), cap)];
  return hyb_split_width_of_counts(rows_of_length, rows);
}

template <class T>
MatrixStats analyse(const Csr<T>& a, const StatsOptions& options) {
  MatrixStats stats;
  stats.rows = a.rows;
  stats.cols = a.cols;
  stats.nnz = a.nnz();
  fill_row_length_stats(stats, a);
  if (options.distinct_value_limit & (options.distinct_value_limit - 1))
    throw InvalidArgument("analyse: distinct_value_limit must be 0 or a power of two (got " +
                          std::to_string(options.distinct_value_limit) + ")");
  const std::vector<RowRange> ranges = rows_to_read(a, options.sample_nonzeros);
  for (const RowRange& range : ranges) {
    stats.sampled_rows += range.end - range.begin;
    stats.sampled_nnz += a.row_ptr[range.end] - a.row_ptr[range.begin];
  }
  fill_diagonal_stats(stats, a, ranges);
  for (const auto& [block_rows, block_cols] : options.block_sizes)
    stats.block_density.push_back(block_density(a, block_rows, block_cols, ranges));
  if (options.symmetry) fill_symmetry(stats, a, ranges);
  if (ranges.size() == 1) {
    stats.distinct_values = count_distinct_values(a.values, options.distinct_value_limit);
  } else {
    std::vector<T> sample;
    sample.reserve(static_cast<std::size_t>(stats.sampled_nnz));
    for (const RowRange& range : ranges)
      sample.insert(sample.end(), a.values.begin() + a.row_ptr[range.begin],
                    a.values.begin() + a.row_ptr[range.end]);
    stats.distinct_values = count_distinct_values(sample, options.distinct_value_limit);
  }
  return stats;
}

template MatrixStats analyse(const Csr<float>&, const StatsOptions&);
template MatrixStats analyse(const Csr<double>&, const StatsOptions&);

}  // namespace spmv
