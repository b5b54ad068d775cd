// Structural analysis of a canonical Csr (MatrixStats), read from the host
// (HostRows) or through a CsrFetcher (FetchedRows, fetched_rows.hpp).
#include "spmv/stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <type_traits>

#include <omp.h>

#include "core/csr_checks.hpp"
#include "core/fetched_rows.hpp"
#include "core/parallel_from.hpp"
#include "core/row_source.hpp"
#include "spmv/error.hpp"

namespace spmv {
namespace {

using detail::parallel_from;  // loops over fewer items run on the calling thread
using detail::RowRange;
using detail::RowSpan;

// 0 for an empty row, else the k with 2^(k-1) <= length < 2^k.
std::size_t histogram_bucket(index_t length) {
  return length <= 0 ? 0 : 32 - static_cast<std::size_t>(__builtin_clz(static_cast<unsigned>(length)));
}

constexpr std::size_t histogram_buckets = 33;  // histogram_bucket of any 32-bit length

// What a pass over some rows' lengths counts: one count per length up to
// `cap` (longer rows at the cap, and again by histogram bucket) and integer
// sums, so that the pass runs at the speed of reading row_ptr.
struct LengthCounts {
  explicit LengthCounts(std::size_t cap) : long_rows(histogram_buckets, 0), rows_of_length(cap + 1, 0) {}
  void add(const LengthCounts& other) {
    shortest = std::min(shortest, other.shortest);
    longest = std::max(longest, other.longest);
    rows += other.rows;
    entries += other.entries;
    squares += other.squares;
    for (std::size_t i = 0; i < long_rows.size(); ++i) long_rows[i] += other.long_rows[i];
    for (std::size_t i = 0; i < rows_of_length.size(); ++i) rows_of_length[i] += other.rows_of_length[i];
  }

  index_t shortest = std::numeric_limits<index_t>::max();
  index_t longest = 0;
  std::int64_t rows = 0;
  std::int64_t entries = 0;
  std::int64_t squares = 0;  // sum of length^2 <= nnz * longest < 2^62
  std::vector<std::int64_t> long_rows;
  std::vector<std::int64_t> rows_of_length;
};

template <class T>
LengthCounts count_lengths(const RowSpan<T>& a, RowRange range, std::size_t cap) {
  LengthCounts counts(cap);
  index_t shortest = counts.shortest, longest = 0;
  std::int64_t squares = 0;
#pragma omp parallel reduction(min : shortest) reduction(max : longest) reduction(+ : squares) \
    if (range.end - range.begin >= parallel_from)
  {
    // Four sets of counts, taken in turn: rows of equal length (the common
    // case) would otherwise wait on each other's increment of one counter.
    constexpr std::size_t sets = 4;
    std::vector<std::int64_t> my_long_rows(histogram_buckets, 0), my_rows_of_length(sets * (cap + 1), 0);
#pragma omp for schedule(static) nowait
    for (index_t r = range.begin; r < range.end; ++r) {
      const index_t length = a.length(r);
      shortest = std::min(shortest, length);
      longest = std::max(longest, length);
      squares += std::int64_t{length} * length;
      const std::size_t set = static_cast<std::size_t>(r) % sets;
      ++my_rows_of_length[set * (cap + 1) + std::min<std::size_t>(static_cast<std::size_t>(length), cap)];
      if (static_cast<std::size_t>(length) > cap) ++my_long_rows[histogram_bucket(length)];
    }
#pragma omp critical
    for (std::size_t i = 0; i < histogram_buckets || i <= cap; ++i) {
      if (i < histogram_buckets) counts.long_rows[i] += my_long_rows[i];
      if (i <= cap)
        for (std::size_t set = 0; set < sets; ++set) counts.rows_of_length[i] += my_rows_of_length[set * (cap + 1) + i];
    }
  }
  counts.shortest = shortest;
  counts.longest = longest;
  counts.squares = squares;
  counts.rows = range.end - range.begin;
  counts.entries = a.start(range.end) - a.start(range.begin);
  return counts;
}

// A sampled pass (StatsOptions::sample_rows): the blocks of `length_block`
// rows holding the most entries (where the longest rows are) are read
// whole; the other rows are estimated from blocks spread over them.
constexpr index_t length_block = 1024;

// The rows whose lengths are read: the heaviest blocks and every row are
// counted exactly, the spread stands for the rest.
struct LengthSample {
  std::vector<RowRange> heaviest, spread;
};

// The sample of rows_for_lengths, or every row (sample_rows 0 or no fewer rows).
LengthSample rows_for_lengths(const std::vector<index_t>& block_starts, index_t rows, std::int64_t nnz,
                              std::int64_t sample_rows) {
  if (sample_rows <= 0 || rows <= sample_rows) return {{{0, rows}}, {}};
  const std::int64_t budget = sample_rows;
  const auto blocks = static_cast<index_t>((std::int64_t{rows} + length_block - 1) / length_block);
  const auto block = [&](index_t b) {
    const std::int64_t end = (b + std::int64_t{1}) * length_block;  // may pass index_t near 2^31 rows
    return RowRange{b * length_block, static_cast<index_t>(std::min<std::int64_t>(rows, end))};
  };
  const index_t wanted = static_cast<index_t>(std::clamp<std::int64_t>(budget / length_block / 2, 1, blocks));
  // Entries per block from every 1024th entry of row_ptr. The heaviest
  // blocks: those holding more than twice a mean block's entries (a few
  // huge rows among short ones: each must be seen, the spread would miss
  // them), up to 2 * wanted, and at least the heaviest `wanted`.
  std::vector<std::pair<index_t, index_t>> entries(blocks);  // (-entries, block): the heaviest sort first
#pragma omp parallel for schedule(static) if (blocks >= parallel_from)
  for (index_t b = 0; b < blocks; ++b) entries[b] = {block_starts[b] - block_starts[b + 1], b};
  const double outlier = -2.0 * static_cast<double>(nnz) / blocks;
  const index_t outliers = static_cast<index_t>(std::count_if(
      entries.begin(), entries.end(), [&](const auto& e) { return e.first < outlier; }));
  const index_t heaviest = std::clamp(outliers, wanted, std::min(2 * wanted, blocks));
  std::nth_element(entries.begin(), entries.begin() + (heaviest - 1), entries.end());
  std::vector<char> heavy(blocks, 0);
  for (index_t i = 0; i < heaviest; ++i) heavy[entries[i].second] = 1;
  LengthSample sample;
  for (index_t b = 0; b < blocks; ++b)
    if (heavy[b]) sample.heaviest.push_back(block(b));
  // The spread: one block at a pseudo-random place in each of `wanted` equal
  // strides of the matrix (evenly spaced blocks would alias with structure
  // that repeats with the row number, such as R-MAT's bit patterns), the
  // first other than a heaviest block from there on in its stride.
  const index_t strides = std::min(wanted, blocks - heaviest);
  for (index_t i = 0; i < strides; ++i) {
    const index_t first = static_cast<index_t>(std::int64_t{i} * blocks / strides);
    const index_t end = static_cast<index_t>(std::int64_t{i + 1} * blocks / strides);
    std::uint64_t mix = (static_cast<std::uint64_t>(i) + 1) * 0x9E3779B97F4A7C15ull;  // splitmix64's finaliser
    mix = (mix ^ (mix >> 30)) * 0xBF58476D1CE4E5B9ull;
    mix = (mix ^ (mix >> 27)) * 0x94D049BB133111EBull;
    mix ^= mix >> 31;
    for (index_t b = first + static_cast<index_t>(mix % static_cast<std::uint64_t>(end - first)), tried = 0;
         tried < end - first; ++tried, b = b + 1 == end ? first : b + 1)
      if (!heavy[b]) {
        sample.spread.push_back(block(b));
        break;
      }
  }
  return sample;
}

// count_lengths over the sample's heaviest blocks and over its spread, each
// added up. The blocks (up to a hundred of length_block rows) are shared
// among the threads in one pass: each counted on one thread had taken
// 0.25-0.6 ms of the analysis (call 119). A single range (every row) is
// counted in parallel inside.
struct SampleLengths {
  LengthCounts heaviest, spread;
};
template <class Rows>
SampleLengths count_sample_lengths(const Rows& source, const LengthSample& sample, std::size_t cap) {
  SampleLengths total{LengthCounts(cap), LengthCounts(cap)};
  if (sample.heaviest.size() == 1 && sample.spread.empty()) {
    total.heaviest = count_lengths(source.span(sample.heaviest[0]), sample.heaviest[0], cap);
    return total;
  }
  struct Block {
    decltype(source.span(RowRange{})) span;
    RowRange rows;
    bool heaviest;
  };
  std::vector<Block> blocks;  // spans found first: a range not read throws
  std::int64_t rows = 0;
  for (const bool heaviest : {true, false})
    for (const RowRange& range : heaviest ? sample.heaviest : sample.spread) {
      blocks.push_back({source.span(range), range, heaviest});
      rows += range.end - range.begin;
    }
  const auto count = static_cast<std::int64_t>(blocks.size());
#pragma omp parallel if (rows >= parallel_from)
  {
    SampleLengths mine{LengthCounts(cap), LengthCounts(cap)};
#pragma omp for schedule(dynamic, 1) nowait
    for (std::int64_t i = 0; i < count; ++i) {
      const Block& block = blocks[static_cast<std::size_t>(i)];
      (block.heaviest ? mine.heaviest : mine.spread).add(count_lengths(block.span, block.rows, cap));
    }
#pragma omp critical
    {
      total.heaviest.add(mine.heaviest);
      total.spread.add(mine.spread);
    }
  }
  return total;
}

// Row-length statistics, the histogram and the HYB split from every row's
// length, or (rows > sample_rows > 0) from a stratified sample: the heaviest
// blocks counted as they are, the other rows estimated from the spread
// blocks. Counts of rows scale with the rows the spread stands for; the
// entries in the HYB's ELL part with the entries, which every block's row_ptr
// gives exactly (far less noise where lengths vary); the spread of lengths
// from each part's variance about its own mean.
template <class Rows>
void fill_row_length_stats(MatrixStats& stats, const Rows& source, const LengthSample& sample) {
  stats.ell_padding_ratio = 1.0;  // nothing stored, nothing padded
  const index_t rows = source.rows();
  if (rows == 0) return;
  const std::size_t cap = hyb_length_cap(stats.nnz, rows);
  const SampleLengths counted = count_sample_lengths(source, sample, cap);
  const LengthCounts& exact = counted.heaviest;
  const LengthCounts& spread = counted.spread;
  stats.row_length_rows = static_cast<index_t>(exact.rows + spread.rows);
  const bool every_row = exact.rows == rows;
  const double per_row = every_row ? 0.0 : static_cast<double>(rows - exact.rows) / spread.rows;
  const double per_entry =
      every_row || spread.entries == 0 ? 0.0 : static_cast<double>(stats.nnz - exact.entries) / spread.entries;
  const auto rows_estimate = [&](std::int64_t counted, std::int64_t sampled) {
    return counted + std::llround(per_row * static_cast<double>(sampled));
  };
  std::vector<std::int64_t> rows_of_length(cap + 1), long_rows(histogram_buckets);
  for (std::size_t length = 0; length <= cap; ++length)
    rows_of_length[length] = rows_estimate(exact.rows_of_length[length], spread.rows_of_length[length]);
  for (std::size_t i = 0; i < histogram_buckets; ++i)
    long_rows[i] = rows_estimate(exact.long_rows[i], spread.long_rows[i]);
  // rows_of_length[cap] also counts the longer rows, which long_rows has by bucket.
  std::vector<std::int64_t> histogram = long_rows;
  for (std::size_t length = 0; length <= cap; ++length)
    histogram[histogram_bucket(static_cast<index_t>(length))] += rows_of_length[length];
  for (std::int64_t longer : long_rows) histogram[histogram_bucket(static_cast<index_t>(cap))] -= longer;
  const index_t longest = std::max(exact.longest, spread.longest);
  // Rounding may leave the estimated histogram a few rows off: the most
  // common bucket takes the difference, so that it sums to rows.
  const auto used = histogram.begin() + histogram_bucket(longest) + 1;
  *std::max_element(histogram.begin(), used) += rows - std::accumulate(histogram.begin(), used, std::int64_t{0});

  const double mean = static_cast<double>(stats.nnz) / rows;
  stats.row_length.min = std::min(exact.shortest, spread.shortest);
  stats.row_length.max = longest;
  stats.row_length.mean = mean;
  if (every_row) {
    // Variance = (rows * squares - nnz^2) / rows^2, exact in 128-bit integers.
    const __int128 spread_of_lengths =
        static_cast<__int128>(rows) * exact.squares - static_cast<__int128>(stats.nnz) * stats.nnz;
    stats.row_length.std = std::sqrt(static_cast<double>(spread_of_lengths)) / rows;
  } else {
    // The two strata's variances about their own means, and their means
    // about the whole's: the rows not read have (nnz - read entries) / (rows
    // - read rows) entries on average, exactly, whatever the spread's mean.
    const auto variance = [](const LengthCounts& c) {
      const double mean_of_c = static_cast<double>(c.entries) / c.rows;
      return std::max(static_cast<double>(c.squares) / c.rows - mean_of_c * mean_of_c, 0.0);
    };
    const double heavy_mean = static_cast<double>(exact.entries) / exact.rows;
    const double rest_rows = static_cast<double>(rows - exact.rows);
    const double rest_mean = static_cast<double>(stats.nnz - exact.entries) / rest_rows;
    const double sum = static_cast<double>(exact.rows) * (variance(exact) + (heavy_mean - mean) * (heavy_mean - mean)) +
                       rest_rows * (variance(spread) + (rest_mean - mean) * (rest_mean - mean));
    stats.row_length.std = std::sqrt(sum / rows);
  }
  stats.row_length_histogram.assign(histogram.begin(), used);
  stats.empty_rows = static_cast<index_t>(stats.row_length_histogram[0]);
  if (stats.nnz > 0) stats.ell_padding_ratio = static_cast<double>(rows) * longest / stats.nnz;
  stats.hyb_ell_width = hyb_split_width_of_counts(rows_of_length, rows);
  // Entries beyond the width: nnz minus what the ELL part holds.
  const auto in_ell = [&](const LengthCounts& counts) {
    std::int64_t entries = 0;
    for (std::size_t length = 0; length <= cap; ++length)
      entries += counts.rows_of_length[length] *
                 std::min<std::int64_t>(static_cast<std::int64_t>(length), stats.hyb_ell_width);
    return static_cast<double>(entries);
  };
  const double ell_entries = in_ell(exact) + per_entry * in_ell(spread);
  stats.hyb_coo_nnz = static_cast<index_t>(std::max<std::int64_t>(stats.nnz - std::llround(ell_entries), 0));
}

// The rows whose entries the structure statistics read: every row, or
// (nnz > budget > 0) up to 64 runs of consecutive rows spread evenly over the
// matrix, each starting at a multiple of 64 rows, holding about budget / runs
// entries and ending at a multiple of 8 rows (blocks of up to 8 rows are seen
// whole), at the next run's start, or before an outlying long row. Fewer runs
// where 8 rows of mean length exceed a run's share, so that long rows do not
// make the sample many times the budget. Where every run would begin with an
// outlying row, one run from the first row that is not.
//
// Planned in two steps, so that a fetched matrix's rows are read in one go:
// where each run begins and how far the search for its end may go (from the
// row pointers every 1024 rows), then the ends (from the rows searched).
struct RunPlan {
  struct Run {
    index_t begin = 0;
    index_t limit = 0;       // the next run's start, or rows
    index_t search_end = 0;  // the run ends at or before it
  };
  bool every_row = false;
  std::int64_t per_run = 0;
  double mean_row_length = 0;
  std::vector<Run> runs;

  // The rows whose pointers the ends are found from: [begin, search_end].
  std::vector<RowRange> searched(index_t rows) const {
    if (every_row) return {{0, rows}};
    std::vector<RowRange> windows;
    for (const Run& run : runs) windows.push_back({run.begin, run.search_end});
    return windows;
  }
  // Whether row r (of `length`) ends a run before it: longer than a run's
  // share and far longer than most (a few huge rows among short ones). Its
  // length is known from row_ptr, and reading it could cost more than the
  // whole sample.
  bool outlying(index_t length) const { return length > per_run && length > 8 * mean_row_length; }
};

constexpr index_t run_start_alignment = 64, run_end_alignment = 8;

// A bound on where the run from `begin` (before `limit`) holds per_run
// entries: row_ptr[begin] is at most the row pointer at the next multiple of
// length_block, so the first such multiple whose row pointer is per_run
// beyond that one bounds it (or limit).
index_t run_search_end(const std::vector<index_t>& block_starts, index_t begin, index_t limit,
                       std::int64_t per_run) {
  const auto next_block = static_cast<std::size_t>((std::int64_t{begin} + length_block - 1) / length_block);
  const std::int64_t enough = std::int64_t{block_starts[next_block]} + per_run;
  const auto found = std::lower_bound(block_starts.begin() + static_cast<std::ptrdiff_t>(next_block),
                                      block_starts.end(), enough,
                                      [](index_t start, std::int64_t value) { return start < value; });
  if (found == block_starts.end()) return limit;
  const std::int64_t row = static_cast<std::int64_t>(found - block_starts.begin()) * length_block;
  return static_cast<index_t>(std::min<std::int64_t>(row, limit));
}

RunPlan plan_runs(const std::vector<index_t>& block_starts, index_t rows, std::int64_t nnz, std::int64_t budget) {
  RunPlan plan;
  if (budget <= 0 || nnz <= budget) {
    plan.every_row = true;
    return plan;
  }
  plan.mean_row_length = static_cast<double>(nnz) / rows;
  const index_t runs = static_cast<index_t>(
      std::clamp(budget / (run_end_alignment * plan.mean_row_length), 1.0, 64.0));
  plan.per_run = std::max<std::int64_t>(budget / runs, 1);
  for (index_t i = 0; i < runs; ++i) {
    const index_t begin =
        static_cast<index_t>(std::int64_t{rows} * i / runs / run_start_alignment * run_start_alignment);
    const index_t limit = i + 1 == runs ? rows
                                        : static_cast<index_t>(std::int64_t{rows} * (i + 1) / runs /
                                                               run_start_alignment * run_start_alignment);
    if (begin >= limit) continue;  // fewer than 64 * runs rows: some runs coincide
    plan.runs.push_back({begin, limit, run_search_end(block_starts, begin, limit, plan.per_run)});
  }
  return plan;
}

// The rows from run.begin up to the first row boundary at which they hold
// per_run entries, rounded up to a multiple of 8 rows (at most run.limit),
// and before the first outlying row; `searched` holds rows [begin, search_end].
template <class T>
RowRange run_rows(const RowSpan<T>& searched, const RunPlan::Run& run, const RunPlan& plan) {
  const std::int64_t enough = std::int64_t{searched.start(run.begin)} + plan.per_run;
  index_t low = run.begin + 1, high = run.search_end;  // the first row pointer >= enough, else search_end
  while (low < high) {
    const index_t middle = low + (high - low) / 2;
    if (searched.start(middle) < enough)
      low = middle + 1;
    else
      high = middle;
  }
  index_t end = std::min((low + run_end_alignment - 1) / run_end_alignment * run_end_alignment, run.limit);
  for (index_t r = run.begin; r < end; ++r)
    if (plan.outlying(searched.length(r))) end = r;
  return {run.begin, end};
}

template <class Rows>
std::vector<RowRange> rows_to_read(Rows& source, const RunPlan& plan, const std::vector<index_t>& block_starts) {
  const index_t rows = source.rows();
  if (plan.every_row) return {{0, rows}};
  std::vector<RowRange> ranges;
  for (const RunPlan::Run& run : plan.runs) {
    const RowRange read = run_rows(source.span({run.begin, run.search_end}), run, plan);
    if (read.end > read.begin) ranges.push_back(read);
  }
  if (ranges.empty()) {
    // Every run began with an outlying row (one run, a hub as the first row):
    // one run from the first row that is not, which exists (not every row is
    // far longer than the mean), unaligned. Its rows are read block by block.
    index_t first = 0;
    for (index_t block = 0;; block += length_block) {
      const RowRange lengths{block,
                             static_cast<index_t>(std::min<std::int64_t>(rows, std::int64_t{block} + length_block))};
      source.read_row_pointers({lengths});
      const auto span = source.span(lengths);
      while (first < lengths.end && plan.outlying(span.length(first))) ++first;
      if (first < lengths.end) break;
    }
    const RunPlan::Run run{first, rows, run_search_end(block_starts, first, rows, plan.per_run)};
    source.read_row_pointers({{run.begin, run.search_end}});
    ranges.push_back(run_rows(source.span({run.begin, run.search_end}), run, plan));
  }
  return ranges;
}

// The rows of a list of ranges numbered 0, 1, ... in order, and cut into
// chunks of consecutive positions, so that one parallel loop over the chunks
// covers them all, however many ranges there are. A chunk finds its first
// range once and walks on from there (a search per row had cost more than the
// row's own work on matrices of short rows).
class RangeRows {
 public:
  // Chunks of up to 256 rows, fewer where there are few rows (a sample of a
  // few long rows then still keeps several threads busy).
  explicit RangeRows(const std::vector<RowRange>& ranges) : ranges_(ranges), first_(ranges.size() + 1, 0) {
    for (std::size_t i = 0; i < ranges.size(); ++i) first_[i + 1] = first_[i] + (ranges[i].end - ranges[i].begin);
    chunk_rows_ = std::clamp<index_t>(count() / (8 * omp_get_max_threads()), 1, 256);
  }
  index_t count() const { return first_.back(); }
  index_t chunks() const { return (count() + chunk_rows_ - 1) / chunk_rows_; }
  // Calls visit(i, r) for each row r of chunk c, in order; range i holds r.
  template <class Visit>
  void visit_chunk(index_t c, Visit visit) const {
    const index_t first = c * chunk_rows_, end = std::min(count(), first + chunk_rows_);
    auto i = static_cast<std::size_t>(std::upper_bound(first_.begin(), first_.end(), first) - first_.begin()) - 1;
    for (index_t p = first; p < end; ++p) {
      while (p >= first_[i + 1]) ++i;  // past the range's end (and any empty ranges)
      visit(i, ranges_[i].begin + (p - first_[i]));
    }
  }

 private:
  const std::vector<RowRange>& ranges_;
  std::vector<index_t> first_;  // first_[i]: position of ranges_[i].begin
  index_t chunk_rows_ = 1;
};

// The entries in the ranges' rows.
template <class T>
std::int64_t entries_in(const Csr<T>& a, const std::vector<RowRange>& ranges) {
  std::int64_t entries = 0;
  for (const RowRange& range : ranges) entries += a.row_ptr[range.end] - a.row_ptr[range.begin];
  return entries;
}
template <class T>
std::int64_t entries_in(const std::vector<RowSpan<T>>& spans) {
  std::int64_t entries = 0;
  for (const RowSpan<T>& span : spans) entries += span.entries();
  return entries;
}

// The rows the spans cover, in order.
template <class T>
std::vector<RowRange> rows_of(const std::vector<RowSpan<T>>& spans) {
  std::vector<RowRange> ranges;
  for (const RowSpan<T>& span : spans) ranges.push_back(span.rows);
  return ranges;
}

// The plan for the GPU leaves the columns to the device's check after the
// upload: the entries read here are checked first (their bitmaps and sets are
// sized by the columns they see), all ranges in one parallel pass (a sample's
// 64 runs each checked alone had added 0.4-0.9 ms to the analysis).
template <class T>
void check_entries_read(const Csr<T>& a, const std::vector<RowRange>& ranges) {
  const RangeRows rows(ranges);
  index_t first_bad_row = a.rows;  // the ranges are in row order
#pragma omp parallel for reduction(min : first_bad_row) schedule(dynamic, 4) \
    if (entries_in(a, ranges) >= parallel_from)
  for (index_t c = 0; c < rows.chunks(); ++c)
    rows.visit_chunk(c, [&](std::size_t, index_t r) {
      if (detail::row_has_bad_entry(a, r)) first_bad_row = std::min(first_bad_row, r);
    });
  if (first_bad_row < a.rows) detail::throw_bad_entry(a, first_bad_row);
}

// Bitmaps of up to this many words (a bandwidth of 2^20) are kept per thread.
constexpr std::size_t banded_diagonal_words = std::size_t{1} << 14;

template <class T>
void fill_diagonal_stats(MatrixStats& stats, const std::vector<RowSpan<T>>& spans) {
  const std::vector<RowRange> ranges = rows_of(spans);
  const RangeRows rows(ranges);
  const bool parallel = entries_in(spans) >= parallel_from;
  // Rows are sorted, so a row's first and last entries give its extent.
  index_t lower = 0, upper = 0;
#pragma omp parallel for reduction(max : lower, upper) schedule(static) if (parallel)
  for (index_t c = 0; c < rows.chunks(); ++c)
    rows.visit_chunk(c, [&](std::size_t i, index_t r) {
      const index_t length = spans[i].length(r);
      if (length == 0) return;
      lower = std::max(lower, r - spans[i].columns(r)[0]);
      upper = std::max(upper, spans[i].columns(r)[length - 1] - r);
    });
  stats.lower_bandwidth = lower;
  stats.upper_bandwidth = upper;
  if (stats.nnz == 0) return;
  // One bit per diagonal j - i in [-lower, upper] (the bandwidth of the rows
  // read: a banded matrix's few words, not one per row); bit d is diagonal
  // d - lower, d <= lower + upper < 2^32.
  const std::size_t words = (static_cast<std::size_t>(lower) + upper + 64) / 64;
  // Calls visit(d) for every entry of the rows of chunks [first, end).
  const auto for_diagonals = [&](index_t first, index_t end, auto visit) {
    for (index_t c = first; c < end; ++c)
      rows.visit_chunk(c, [&](std::size_t i, index_t r) {
        const index_t* columns = spans[i].columns(r);
        const index_t length = spans[i].length(r);
        for (index_t k = 0; k < length; ++k) visit(static_cast<std::uint32_t>(std::int64_t{columns[k]} - r + lower));
      });
  };
  const auto set = [](std::uint64_t* bits, std::uint32_t bit) { bits[bit / 64] |= std::uint64_t{1} << (bit % 64); };
  // Sets the bit; 1 if it was not yet set.
  const auto set_first = [&](std::uint64_t* bits, std::uint32_t bit) {
    const bool first = (bits[bit / 64] >> (bit % 64) & 1) == 0;
    set(bits, bit);
    return std::int64_t{first};
  };
  std::int64_t count = 0;
  if (words <= banded_diagonal_words) {
    // Few diagonals: each thread marks its rows' diagonals in a bitmap of its
    // own, and the bitmaps are joined.
    std::vector<std::uint64_t> occupied(words, 0);
#pragma omp parallel if (parallel)
    {
      std::vector<std::uint64_t> mine(words, 0);
      const std::int64_t team = omp_get_num_threads(), thread = omp_get_thread_num();
      for_diagonals(static_cast<index_t>(rows.chunks() * thread / team),
                    static_cast<index_t>(rows.chunks() * (thread + 1) / team),
                    [&](std::uint32_t d) { set(mine.data(), d); });
#pragma omp critical
      for (std::size_t w = 0; w < words; ++w) occupied[w] |= mine[w];
    }
    for (const std::uint64_t word : occupied) count += __builtin_popcountll(word);
  } else if (!parallel || omp_get_max_threads() == 1) {
    // Many diagonals on one thread: its rows' diagonals marked directly.
    std::vector<std::uint64_t> bits(words, 0);
    for_diagonals(0, rows.chunks(), [&](std::uint32_t d) { count += set_first(bits.data(), d); });
  } else {
    // Many diagonals (scattered columns) on several threads. Each thread owns
    // a slice of the diagonals, in a bitmap of its own: writes to words that
    // other threads also write (atomics, cache lines moving between cores)
    // cost more than the rest on such matrices. The diagonals are handed to their slices'
    // owners first: each thread counts, then writes, those of its own rows
    // slice by slice into one array (a radix pass); each owner then marks its
    // slice's, counting the bits it sets first. (Each thread reading every row
    // for its own slice had taken 1.0 of the analysis's 2.4 ms on uniform 4M x
    // 16, 16 threads, call 119.)
    // Not zeroed: every slot is written before it is read.
    std::unique_ptr<std::uint32_t[]> handed(new std::uint32_t[static_cast<std::size_t>(entries_in(spans))]);
    std::vector<std::size_t> starts;  // by (slice, thread): where the thread's diagonals of the slice go
    int slice_shift = 0;              // a slice holds 2^slice_shift diagonals (a power of two: no division)
    std::size_t slices = 0;
#pragma omp parallel reduction(+ : count)
    {
      const auto team = static_cast<std::size_t>(omp_get_num_threads());
      const auto thread = static_cast<std::size_t>(omp_get_thread_num());
#pragma omp single
      {
        std::size_t slice_words = 1;
        while (slice_words * team < words) slice_words *= 2;
        slice_shift = 6 + __builtin_ctzll(slice_words);
        slices = (words + slice_words - 1) / slice_words;  // at most team
        starts.assign(slices * team + 1, 0);
      }
      const auto first_chunk = static_cast<index_t>(static_cast<std::size_t>(rows.chunks()) * thread / team);
      const auto end_chunk = static_cast<index_t>(static_cast<std::size_t>(rows.chunks()) * (thread + 1) / team);
      const auto slice_of = [&](std::uint32_t d) { return static_cast<std::size_t>(std::uint64_t{d} >> slice_shift); };
      std::vector<std::size_t> mine(slices, 0);
      for_diagonals(first_chunk, end_chunk, [&](std::uint32_t d) { ++mine[slice_of(d)]; });
      for (std::size_t slice = 0; slice < slices; ++slice) starts[slice * team + thread + 1] = mine[slice];
#pragma omp barrier
#pragma omp single
      std::partial_sum(starts.begin(), starts.end(), starts.begin());
      for (std::size_t slice = 0; slice < slices; ++slice) mine[slice] = starts[slice * team + thread];
      for_diagonals(first_chunk, end_chunk, [&](std::uint32_t d) { handed[mine[slice_of(d)]++] = d; });
#pragma omp barrier
      if (thread < slices) {
        const std::uint64_t first_diagonal = std::uint64_t{thread} << slice_shift;
        const std::size_t slice_words = std::min(std::size_t{1} << (slice_shift - 6), words - (first_diagonal >> 6));
        std::vector<std::uint64_t> slice(slice_words, 0);
        for (std::size_t k = starts[thread * team]; k < starts[(thread + 1) * team]; ++k)
          count += set_first(slice.data(), static_cast<std::uint32_t>(handed[k] - first_diagonal));
      }
    }
  }
  stats.occupied_diagonals = static_cast<index_t>(count);
}

// The distinct keys inserted since the last clear(), counted in a small
// open-addressing table whose slots carry the generation that filled them:
// clear() is O(1), so one table serves many small sets in turn.
template <class Key>
class DistinctKeys {
 public:
  // Makes room for `keys` insertions, and empties the set.
  void clear(std::size_t keys) {
    if (2 * keys > slots_.size()) {
      std::size_t size = 64;
      while (size < 2 * keys) size *= 2;
      slots_.assign(size, Slot{});
      generation_ = 0;
    }
    ++generation_;
    count_ = 0;
  }
  void insert(Key key) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t slot = (static_cast<std::uint64_t>(key) * 0x9E3779B97F4A7C15ull) >> 32 & mask;
    while (slots_[slot].generation == generation_) {
      if (slots_[slot].key == key) return;
      slot = (slot + 1) & mask;
    }
    slots_[slot] = {key, generation_};
    ++count_;
  }
  std::int64_t count() const { return count_; }
  template <class F>
  void for_each(F f) const {
    for (const Slot& slot : slots_)
      if (slot.generation == generation_) f(slot.key);
  }

 private:
  struct Slot {
    Key key = 0;
    std::uint32_t generation = 0;
  };
  std::vector<Slot> slots_;
  std::uint32_t generation_ = 0;
  std::int64_t count_ = 0;
};

using BlockShape = std::pair<index_t, index_t>;  // rows, columns

// Occupied blocks are counted block row by block row, the distinct block
// columns of each in a small set. A block row whose block columns lie close
// together (banded and FEM matrices, a wide LP's long rows, dense rows: a
// word of 64 block columns or fewer per entry over their span) marks them in
// a bitmap of that span, then counts its bits: no unpredictable branch per
// entry. One whose block columns are scattered (graphs, random columns)
// takes a hash set of its own size, whose probes branch unpredictably but
// whose size does not grow with the span. The shapes of one height
// (result[s] for s in `shapes`) share the pass: a block row's entries are
// read once for all their widths.
template <class T>
void count_blocks(const std::vector<RowSpan<T>>& spans, index_t block_rows,
                  const std::vector<std::size_t>& shapes, std::vector<BlockDensity>& result) {
  const std::size_t widths = shapes.size();
  // A division would cost more than the rest of the loop; the selector's widths are powers of two.
  std::vector<index_t> width(widths);
  std::vector<int> shift(widths, -1);  // -1: divide
  for (std::size_t w = 0; w < widths; ++w) {
    width[w] = result[shapes[w]].block_cols;
    if ((width[w] & (width[w] - 1)) == 0) shift[w] = __builtin_ctz(static_cast<unsigned>(width[w]));
  }
  // The block rows each range touches; each counts only the range's rows.
  std::vector<RowRange> block_row_ranges;
  for (const RowRange& range : rows_of(spans))
    block_row_ranges.push_back({range.begin / block_rows, range.end / block_rows + (range.end % block_rows != 0)});
  const RangeRows pieces(block_row_ranges);
  std::vector<std::int64_t> occupied(widths, 0);
  std::int64_t entries = 0;
#pragma omp parallel reduction(+ : entries) if (entries_in(spans) >= parallel_from)
  {
    std::vector<DistinctKeys<index_t>> columns(widths);
    std::vector<std::uint64_t> bitmap;  // grows to the widest span marked (no more words than its entries)
    std::vector<std::int64_t> my_occupied(widths, 0);
#pragma omp for schedule(dynamic, 1)
    for (index_t c = 0; c < pieces.chunks(); ++c)
      pieces.visit_chunk(c, [&](std::size_t i, index_t block_row) {
        const RowSpan<T>& span = spans[i];
        const std::int64_t top = std::int64_t{block_row} * block_rows;
        const auto first_row = static_cast<index_t>(std::max<std::int64_t>(top, span.rows.begin));
        const auto end_row = static_cast<index_t>(std::min<std::int64_t>(top + block_rows, span.rows.end));
        const index_t count = span.start(end_row) - span.start(first_row);
        if (count == 0) return;
        const index_t* block_columns = span.columns(first_row);  // the block's rows, one after another
        entries += count;
        const auto [lowest, highest] = std::minmax_element(block_columns, block_columns + count);
        for (std::size_t w = 0; w < widths; ++w) {  // the block row's entries stay in cache from one width to the next
          const auto block_of = [&](index_t col) { return shift[w] >= 0 ? col >> shift[w] : col / width[w]; };
          const index_t first = block_of(*lowest);
          const auto words = static_cast<std::size_t>(block_of(*highest) - first) / 64 + 1;
          if (words <= static_cast<std::size_t>(count)) {  // at most a word per entry
            if (bitmap.size() < words) bitmap.resize(words);  // zeros, as the count below leaves every word
            // A row's entries are sorted, so runs of them mark one word: its bits are gathered in a
            // register (an OR into memory per entry waits on the store before it).
            std::size_t word = 0;
            std::uint64_t bits = 0;
            for (index_t k = 0; k < count; ++k) {
              const auto bit = static_cast<std::size_t>(block_of(block_columns[k]) - first);
              if (bit / 64 != word) {
                bitmap[word] |= bits;
                word = bit / 64;
                bits = 0;
              }
              bits |= std::uint64_t{1} << (bit % 64);
            }
            bitmap[word] |= bits;
            for (std::size_t i = 0; i < words; ++i) {
              my_occupied[w] += __builtin_popcountll(bitmap[i]);
              bitmap[i] = 0;
            }
          } else {
            columns[w].clear(static_cast<std::size_t>(count));
            index_t previous = -1;  // a row's entries are sorted: repeats are adjacent
            for (index_t k = 0; k < count; ++k) {
              const index_t block_col = block_of(block_columns[k]);
              if (block_col != previous) columns[w].insert(block_col);
              previous = block_col;
            }
            my_occupied[w] += columns[w].count();
          }
        }
      });
#pragma omp critical
    for (std::size_t w = 0; w < widths; ++w) occupied[w] += my_occupied[w];
  }
  for (std::size_t w = 0; w < widths; ++w) {
    BlockDensity& b = result[shapes[w]];
    b.occupied_blocks = occupied[w];
    if (occupied[w] > 0) b.density = entries / (static_cast<double>(occupied[w]) * b.block_rows * b.block_cols);
  }
}

// The density of each shape, in the order given.
template <class T>
std::vector<BlockDensity> block_densities(const std::vector<RowSpan<T>>& spans, const std::vector<BlockShape>& shapes) {
  std::vector<BlockDensity> result(shapes.size());
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    const auto [block_rows, block_cols] = shapes[s];
    if (block_rows < 1 || block_cols < 1)
      throw InvalidArgument("block density: block shape " + std::to_string(block_rows) + " x " +
                            std::to_string(block_cols) + " must be at least 1 x 1");
    result[s].block_rows = block_rows;
    result[s].block_cols = block_cols;
  }
  std::vector<bool> counted(shapes.size(), false);
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    if (counted[s]) continue;
    std::vector<std::size_t> same_height;
    for (std::size_t t = s; t < shapes.size(); ++t)
      if (shapes[t].first == shapes[s].first) {
        same_height.push_back(t);
        counted[t] = true;
      }
    count_blocks(spans, shapes[s].first, same_height, result);
  }
  return result;
}

// Pattern symmetry: every entry (r, c) has its mirror (c, r), found by binary
// search in the sorted row c. Compares values on the way. No transpose is
// built, so the check needs no memory and stops at the first failure.
template <class T>
void fill_symmetry(MatrixStats& stats, const Csr<T>& a, const std::vector<RowRange>& ranges) {
  if (a.rows != a.cols) return;
  const RangeRows rows(ranges);
  bool pattern = true, values = true;
#pragma omp parallel for schedule(dynamic, 4) reduction(&& : pattern, values) \
    if (entries_in(a, ranges) >= parallel_from)
  for (index_t c = 0; c < rows.chunks(); ++c)
    rows.visit_chunk(c, [&](std::size_t, index_t r) {
      if (!pattern) return;  // another row already failed (seen by this thread)
      for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1] && pattern; ++k) {
        const index_t column = a.col_idx[k];
        const auto row_c_begin = a.col_idx.begin() + a.row_ptr[column];
        const auto row_c_end = a.col_idx.begin() + a.row_ptr[column + 1];
        const auto mirror = std::lower_bound(row_c_begin, row_c_end, r);
        if (mirror == row_c_end || *mirror != r) {
          pattern = false;
        } else if (!(a.values[mirror - a.col_idx.begin()] == a.values[k])) {
          values = false;
        }
      }
    });
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

// Few distinct values (stencils, pattern matrices, quantised data) among the
// entries of the spans are counted in one parallel pass over the values (rows
// play no part), a small set per thread; returns -1 when there are more than
// `limit`.
template <class T>
std::int64_t count_few_distinct(const std::vector<RowSpan<T>>& spans, std::size_t limit) {
  // The spans' values cut into pieces of up to 4096, each one span's.
  struct Piece {
    const T* values;
    index_t count;
  };
  constexpr index_t piece_entries = 4096;
  std::vector<Piece> pieces;
  for (const RowSpan<T>& span : spans)
    for (index_t first = 0; first < span.entries(); first += piece_entries)
      pieces.push_back({span.values + first, std::min(piece_entries, span.entries() - first)});
  const auto piece_count = static_cast<std::int64_t>(pieces.size());
  bool too_many = false;
  std::vector<std::uint64_t> keys;  // every thread's set, with repeats across threads
#pragma omp parallel if (entries_in(spans) >= parallel_from)
  {
    DistinctKeys<std::uint64_t> mine;
    mine.clear(limit + 1);
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t p = 0; p < piece_count; ++p) {
      bool stop;
#pragma omp atomic read
      stop = too_many;
      if (stop) continue;
      const Piece& piece = pieces[static_cast<std::size_t>(p)];
      // (The set holds limit + 1 keys at most: its table has room for twice that.)
      std::uint64_t previous = value_key(piece.values[0]);  // runs of one value (a stencil's row) insert once
      mine.insert(previous);
      for (index_t k = 1; k < piece.count && !stop; ++k) {
        const std::uint64_t key = value_key(piece.values[k]);
        if (key == previous) continue;
        mine.insert(key);
        previous = key;
        stop = static_cast<std::size_t>(mine.count()) > limit;
      }
      stop = stop || static_cast<std::size_t>(mine.count()) > limit;
      if (stop) {
#pragma omp atomic write
        too_many = true;
      }
    }
    bool counted_enough;
#pragma omp atomic read
    counted_enough = too_many;
    if (!counted_enough) {  // else the join, every set one after another, would be thrown away
#pragma omp critical
      mine.for_each([&](std::uint64_t key) { keys.push_back(key); });
    }
  }
  if (too_many) return -1;
  DistinctKeys<std::uint64_t> all;
  all.clear(keys.size());
  for (std::uint64_t key : keys) all.insert(key);
  return static_cast<std::size_t>(all.count()) > limit ? -1 : all.count();
}

// Counts distinct keys by sorting a copy in pieces: keys go to buckets by a
// multiplicative (Fibonacci) hash, so equal keys share a bucket and buckets
// are even however the values cluster; then each bucket is sorted on its own,
// in cache and in parallel.
template <class T>
std::int64_t count_distinct_by_sorting(const T* values, std::size_t count) {
  constexpr int bucket_bits = 12;
  constexpr std::size_t buckets = std::size_t{1} << bucket_bits;
  auto bucket_of = [](std::uint64_t key) {
    return (key * 0x9E3779B97F4A7C15ull) >> (64 - bucket_bits);
  };
  std::vector<std::size_t> bucket_begin(buckets + 1, 0);
  for (std::size_t k = 0; k < count; ++k) ++bucket_begin[bucket_of(value_key(values[k])) + 1];
  for (std::size_t b = 0; b < buckets; ++b) bucket_begin[b + 1] += bucket_begin[b];
  std::vector<std::uint64_t> keys(count);
  {
    std::vector<std::size_t> next(bucket_begin.begin(), bucket_begin.end() - 1);
    for (std::size_t k = 0; k < count; ++k) {
      const std::uint64_t key = value_key(values[k]);
      keys[next[bucket_of(key)]++] = key;
    }
  }
  std::int64_t distinct = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : distinct) \
    if (static_cast<std::int64_t>(count) >= parallel_from)
  for (std::size_t b = 0; b < buckets; ++b) {
    const auto begin = keys.begin() + static_cast<std::ptrdiff_t>(bucket_begin[b]);
    const auto end = keys.begin() + static_cast<std::ptrdiff_t>(bucket_begin[b + 1]);
    std::sort(begin, end);
    distinct += std::unique(begin, end) - begin;
  }
  return distinct;
}

// Distinct values among the entries of the ranges (see StatsOptions::distinct_value_limit).
template <class T>
std::int64_t count_distinct_values(const std::vector<RowSpan<T>>& spans, std::size_t limit) {
  constexpr std::size_t few = 1024;
  const std::int64_t count = count_few_distinct(spans, limit > 0 ? limit : few);
  if (count >= 0) return count;
  if (limit > 0) return static_cast<std::int64_t>(limit) + 1;
  if (spans.size() == 1) return count_distinct_by_sorting(spans[0].values, static_cast<std::size_t>(spans[0].entries()));
  std::vector<T> sample;
  for (const RowSpan<T>& span : spans) sample.insert(sample.end(), span.values, span.values + span.entries());
  return count_distinct_by_sorting(sample.data(), sample.size());
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

namespace {

// A host Csr as the analysis reads it: every row is there to read.
template <class T>
class HostRows {
 public:
  using value_type = T;
  explicit HostRows(const Csr<T>& a) : a_(a) {}
  index_t rows() const { return a_.rows; }
  index_t cols() const { return a_.cols; }
  index_t nnz() const { return a_.nnz(); }
  std::vector<index_t> row_pointers_every(index_t stride) const {
    std::vector<index_t> starts;
    for (std::int64_t r = 0; r < a_.rows; r += stride) starts.push_back(a_.row_ptr[r]);
    starts.push_back(a_.row_ptr[a_.rows]);
    return starts;
  }
  void read_row_pointers(const std::vector<RowRange>&) const {}
  void read_entries(const std::vector<RowRange>&) const {}
  RowSpan<T> span(RowRange range) const {
    const index_t first = a_.row_ptr[range.begin];
    return {range, a_.row_ptr.data() + range.begin, a_.col_idx.data() + first, a_.values.data() + first};
  }
  void check_entries(const std::vector<RowRange>& ranges) const { check_entries_read(a_, ranges); }
  void fill_symmetry(MatrixStats& stats, const std::vector<RowRange>& ranges) const {
    spmv::fill_symmetry(stats, a_, ranges);
  }

 private:
  const Csr<T>& a_;
};

// The analysis of whatever `source` reads (HostRows, detail::FetchedRows):
// first the row pointers every 1024 rows, which tell which rows the samples
// read; then those rows' pointers; then the entries of the structure sample.
template <class Rows>
MatrixStats analyse_rows(Rows& source, const StatsOptions& options) {
  using T = typename Rows::value_type;
  MatrixStats stats;
  stats.rows = source.rows();
  stats.cols = source.cols();
  stats.nnz = source.nnz();
  const std::vector<index_t> block_starts = source.row_pointers_every(length_block);
  const LengthSample lengths = rows_for_lengths(block_starts, stats.rows, stats.nnz, options.sample_rows);
  const RunPlan runs = plan_runs(block_starts, stats.rows, stats.nnz, options.sample_nonzeros);
  std::vector<RowRange> pointers_read = lengths.heaviest;
  pointers_read.insert(pointers_read.end(), lengths.spread.begin(), lengths.spread.end());
  const std::vector<RowRange> searched = runs.searched(stats.rows);
  pointers_read.insert(pointers_read.end(), searched.begin(), searched.end());
  source.read_row_pointers(pointers_read);
  fill_row_length_stats(stats, source, lengths);
  if (options.distinct_value_limit & (options.distinct_value_limit - 1))
    throw InvalidArgument("analyse: distinct_value_limit must be 0 or a power of two (got " +
                          std::to_string(options.distinct_value_limit) + ")");
  const std::vector<RowRange> ranges = rows_to_read(source, runs, block_starts);
  source.read_entries(ranges);
  std::vector<RowSpan<T>> spans;
  for (const RowRange& range : ranges) {
    spans.push_back(source.span(range));
    stats.sampled_rows += range.end - range.begin;
  }
  stats.sampled_nnz = entries_in(spans);
  source.check_entries(ranges);
  fill_diagonal_stats(stats, spans);
  stats.block_density = block_densities(spans, options.block_sizes);
  if (options.symmetry) source.fill_symmetry(stats, ranges);
  stats.distinct_values = count_distinct_values(spans, options.distinct_value_limit);
  return stats;
}

}  // namespace

template <class T>
MatrixStats analyse(const Csr<T>& a, const StatsOptions& options) {
  HostRows<T> source(a);
  return analyse_rows(source, options);
}

namespace detail {
template <class T>
MatrixStats analyse_fetched(CsrFetcher<T>& fetcher, const StatsOptions& options) {
  FetchedRows<T> source(fetcher);
  return analyse_rows(source, options);
}
template MatrixStats analyse_fetched(CsrFetcher<float>&, const StatsOptions&);
template MatrixStats analyse_fetched(CsrFetcher<double>&, const StatsOptions&);
}  // namespace detail

template MatrixStats analyse(const Csr<float>&, const StatsOptions&);
template MatrixStats analyse(const Csr<double>&, const StatsOptions&);

}  // namespace spmv
