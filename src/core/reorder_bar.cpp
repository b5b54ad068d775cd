// BRO-aware row reordering (BAR): Tang et al. 2013, Section 3.4.
//
// The rows are clustered into v = ceil(m/r) partitions of r = h/T rows (the
// last one takes the remainder), one per BRO-ELL slice of h streams with T
// streams per row (the kernel's threads_per_row; the paper has T = 1),
// minimising equation 1:
//   Phi = sum over partitions S of h/w * (ceil(sum_j d(S,j) / alpha) + sum_j c(S,j))
// where d(S,j) (eq. 2) is the widest bit field of slice column j, the
// delta-encoded column index of the j-th entry of each stream of S (first
// entry col+1, then col - the stream's previous col, the encoding of our
// BRO-ELL; 0 = padding, 0 bits), and c(S,j) (eq. 3) the number of distinct x
// cache lines the j-th entries of S's streams touch. Entry k of a row is
// entry k/T of its stream k mod T. (Eq. 3 prints an intersection; the text says "unique
// cache lines", a union, which is what is counted here.)
//
// Algorithm 2 as the paper gives it: sort the rows by length, seed partition
// t with the row at sorted position t*r, then take the other rows in sorted
// order and put each into the non-full partition whose cost rises least.
// What we do differently, to make it practical (the paper's version
// evaluates Phi for all v partitions per row: O(m * v * row length), hours
// at a million rows):
//  - the cost increase of adding a row to a partition is computed
//    incrementally from per-partition state (the bit width per slice
//    column, the set of (slice column, cache line) pairs, their totals):
//    O(row length) per evaluation, stopping early once it exceeds the best
//    candidate's;
//  - only `candidates` partitions are evaluated per row, the non-full ones
//    nearest to it in two senses: half by seed position in the length
//    order (the seeds are spaced r apart in it, so these are the partitions
//    whose seed row lengths are closest to the row's: the paper's reason for
//    sorting), half by the first column of their seed (partitions whose
//    seeds read the same part of x, where the cache-line term c() can be
//    shared). Nearest first; equal costs go to the candidate found first;
//  - when the resulting order costs more than the rows in their original
//    order (the greedy has no guarantee), the identity order is returned.
// Time O(nnz * candidates + m log m); memory O(nnz) (a full partition's
// state is released).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <iterator>
#include <limits>
#include <numeric>
#include <set>
#include <string>

#include "spmv/error.hpp"
#include "spmv/reorder.hpp"

namespace spmv {

namespace {

int bits_needed(std::uint32_t value) {
  int bits = 0;
  for (; value != 0; value >>= 1) ++bits;
  return bits;
}

// Per entry of A: the bit width of its delta-encoded column index and the x
// cache line it reads.
struct EntryCosts {
  std::vector<std::uint8_t> bits;
  std::vector<index_t> cache_line;
};

template <class T>
EntryCosts entry_costs(const Csr<T>& a, const BroAwareOptions& options) {
  EntryCosts e;
  e.bits.resize(a.col_idx.size());
  e.cache_line.resize(a.col_idx.size());
  const index_t streams = options.threads_per_row;
#pragma omp parallel for schedule(static)
  for (index_t row = 0; row < a.rows; ++row) {
    const index_t begin = a.row_ptr[row];
    for (index_t k = begin; k < a.row_ptr[row + 1]; ++k) {
      const index_t column = a.col_idx[k];
      // The stream's previous column; its first delta is col + 1.
      const index_t previous = k - begin >= streams ? a.col_idx[k - streams] : -1;
      e.bits[k] = static_cast<std::uint8_t>(bits_needed(static_cast<std::uint32_t>(column - previous)));
      e.cache_line[k] = static_cast<index_t>(static_cast<std::int64_t>(column) * sizeof(T) /
                                             options.cache_line_bytes);
    }
  }
  return e;
}

// A set of 64-bit keys by open addressing (linear probing, kept at most
// half full); the key with all bits set is reserved as "empty".
class KeySet {
 public:
  bool contains(std::uint64_t key) const {
    if (slots_.empty()) return false;
    for (std::size_t i = slot_of(key);; i = (i + 1) & mask()) {
      if (slots_[i] == key) return true;
      if (slots_[i] == empty) return false;
    }
  }
  void insert(std::uint64_t key) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    for (std::size_t i = slot_of(key);; i = (i + 1) & mask()) {
      if (slots_[i] == key) return;
      if (slots_[i] == empty) {
        slots_[i] = key;
        ++size_;
        return;
      }
    }
  }
  void clear() {
    slots_.clear();
    slots_.shrink_to_fit();
    size_ = 0;
  }

 private:
  static constexpr std::uint64_t empty = ~std::uint64_t{0};
  std::size_t mask() const { return slots_.size() - 1; }
  std::size_t slot_of(std::uint64_t key) const {  // Fibonacci hashing
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void grow() {
    std::vector<std::uint64_t> old = std::move(slots_);
    const std::size_t capacity = old.empty() ? 64 : 2 * old.size();
    slots_.assign(capacity, empty);
    shift_ = 64;
    for (std::size_t c = capacity; c > 1; c >>= 1) --shift_;
    size_ = 0;
    for (std::uint64_t key : old)
      if (key != empty) insert(key);
  }

  std::vector<std::uint64_t> slots_;
  std::size_t size_ = 0;
  int shift_ = 64;
};

// One partition (slice) of the cost model: d(S, j) per slice column, the
// (j, cache line) pairs seen, and the two sums of equation 1. Entry k of a
// row is at slice column k / (streams per row).
class SliceCost {
 public:
  explicit SliceCost(index_t streams_per_row) : streams_per_row_(streams_per_row) {}

  // ceil(sum_j d / alpha) + sum_j c: equation 1 without the h/w factor.
  std::int64_t cost(int symbol_bits) const {
    return (total_bits_ + symbol_bits - 1) / symbol_bits + cache_lines_;
  }

  // The rise of cost() if the row of entries [begin, end) joined, or a value
  // above `limit` as soon as the rise is known to exceed it.
  std::int64_t added_cost(const EntryCosts& e, index_t begin, index_t end, int symbol_bits,
                          std::int64_t limit) const {
    const std::int64_t symbols = (total_bits_ + symbol_bits - 1) / symbol_bits;
    std::int64_t extra_bits = 0, new_lines = 0, rise = 0;
    for (index_t k = begin; k < end; ++k) {
      const auto j = static_cast<std::size_t>((k - begin) / streams_per_row_);
      const int width = j < widths_.size() ? widths_[j] : 0;
      if (e.bits[k] > width) extra_bits += e.bits[k] - width;
      if (!lines_.contains(key(j, e.cache_line[k]))) ++new_lines;
      rise = (total_bits_ + extra_bits + symbol_bits - 1) / symbol_bits - symbols + new_lines;
      if (rise > limit) return rise;
    }
    return rise;
  }

  void add(const EntryCosts& e, index_t begin, index_t end) {
    const auto columns = static_cast<std::size_t>((end - begin + streams_per_row_ - 1) / streams_per_row_);
    if (widths_.size() < columns) widths_.resize(columns, 0);
    for (index_t k = begin; k < end; ++k) {
      const auto j = static_cast<std::size_t>((k - begin) / streams_per_row_);
      if (e.bits[k] > widths_[j]) {
        total_bits_ += e.bits[k] - widths_[j];
        widths_[j] = e.bits[k];
      }
      const std::uint64_t pair = key(j, e.cache_line[k]);
      if (!lines_.contains(pair)) {
        lines_.insert(pair);
        ++cache_lines_;
      }
    }
  }

  // Drops the per-column state; cost() stays valid.
  void release() {
    widths_.clear();
    widths_.shrink_to_fit();
    lines_.clear();
  }

 private:
  static std::uint64_t key(std::size_t column, index_t line) {
    return (static_cast<std::uint64_t>(column) << 32) | static_cast<std::uint32_t>(line);
  }

  index_t streams_per_row_;
  std::vector<std::uint8_t> widths_;
  KeySet lines_;
  std::int64_t total_bits_ = 0;
  std::int64_t cache_lines_ = 0;
};

void check_options(const BroAwareOptions& o) {
  const index_t t = o.threads_per_row;
  const bool streams_fit = t >= 1 && t <= 32 && (t & (t - 1)) == 0 && o.slice_height >= 1 &&
                           o.slice_height % t == 0;
  if (o.slice_height < 1 || o.warp_size < 1 || o.symbol_bits < 1 || o.symbol_bits > 64 ||
      o.cache_line_bytes < 1 || o.candidates < 1 || !streams_fit)
    throw InvalidArgument(
        "bar reordering: slice_height, warp_size, cache_line_bytes and candidates must be at "
        "least 1, symbol_bits in 1..64 and threads_per_row a power of two up to 32 that divides "
        "slice_height (got h=" + std::to_string(o.slice_height) +
        ", T=" + std::to_string(t) + ", w=" + std::to_string(o.warp_size) +
        ", alpha=" + std::to_string(o.symbol_bits) + ", line=" + std::to_string(o.cache_line_bytes) +
        ", candidates=" + std::to_string(o.candidates) + ")");
}

// r = h/T: the rows of one slice.
index_t rows_per_slice(const BroAwareOptions& o) { return o.slice_height / o.threads_per_row; }

double slice_factor(const BroAwareOptions& o) {
  return static_cast<double>(o.slice_height) / o.warp_size;
}

template <class T>
double cost_of_order(const Csr<T>& a, const EntryCosts& e, const std::vector<index_t>& row_order,
                     const BroAwareOptions& o) {
  std::int64_t total = 0;
  const index_t rows = rows_per_slice(o);
  for (index_t first = 0; first < a.rows; first += rows) {
    SliceCost slice(o.threads_per_row);
    const index_t last = std::min<index_t>(a.rows, first + rows);
    for (index_t position = first; position < last; ++position) {
      const index_t row = row_order.empty() ? position : row_order[position];
      slice.add(e, a.row_ptr[row], a.row_ptr[row + 1]);
    }
    total += slice.cost(o.symbol_bits);
  }
  return slice_factor(o) * static_cast<double>(total);
}

// Appends to `out` the partitions of the `count` keys of `open` nearest to
// `probe` by `distance` (nearest first; the lower key first at equal
// distance), skipping partitions `out` already holds. `partition_of` maps a
// key to its partition.
template <class Key, class Distance, class PartitionOf>
void add_nearest(const std::set<Key>& open, const Key& probe, index_t count, Distance distance,
                 PartitionOf partition_of, std::vector<index_t>& out) {
  auto up = open.lower_bound(probe);
  auto down = up;
  for (index_t added = 0; added < count;) {
    const bool can_go_down = down != open.begin();
    const bool can_go_up = up != open.end();
    if (!can_go_down && !can_go_up) break;
    const Key& key = can_go_down && (!can_go_up || distance(*std::prev(down), probe) <=
                                                       distance(*up, probe))
                         ? *--down
                         : *up++;
    const index_t partition = partition_of(key);
    if (std::find(out.begin(), out.end(), partition) == out.end()) {
      out.push_back(partition);
      ++added;
    }
  }
}

}  // namespace

template <class T>
double bro_ell_cost(const Csr<T>& a, const std::vector<index_t>& row_order,
                    const BroAwareOptions& options) {
  check_options(options);
  if (!row_order.empty() && !is_permutation(row_order, a.rows))
    throw InvalidArgument("bro_ell_cost: the row order is not a permutation of the " +
                          std::to_string(a.rows) + " rows");
  return cost_of_order(a, entry_costs(a, options), row_order, options);
}

template <class T>
std::vector<index_t> bro_aware_row_order(const Csr<T>& a, const BroAwareOptions& options) {
  check_options(options);
  const index_t m = a.rows, r = rows_per_slice(options);
  std::vector<index_t> identity(static_cast<std::size_t>(m));
  std::iota(identity.begin(), identity.end(), 0);
  if (m == 0) return identity;
  const EntryCosts e = entry_costs(a, options);

  // Algorithm 2, lines 2-6: rows by length; seeds r apart in that order.
  std::vector<index_t> sorted = identity;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&a](index_t one, index_t other) { return a.row_length(one) < a.row_length(other); });
  const index_t partitions = (m - 1) / r + 1;
  std::vector<SliceCost> state(static_cast<std::size_t>(partitions), SliceCost(options.threads_per_row));
  std::vector<std::vector<index_t>> members(static_cast<std::size_t>(partitions));
  // The open (non-full) partitions by seed position in the length order,
  // and by the first column of their seed (-1 for an empty row).
  const auto first_column = [&a](index_t row) {
    return a.row_length(row) > 0 ? a.col_idx[a.row_ptr[row]] : index_t{-1};
  };
  using AnchorKey = std::pair<index_t, index_t>;  // (first column of the seed, partition)
  std::set<index_t> open_by_position;
  std::set<AnchorKey> open_by_anchor;
  const auto capacity = [&](index_t t) { return t + 1 < partitions ? r : m - t * r; };
  const auto place = [&](index_t t, index_t row) {
    state[t].add(e, a.row_ptr[row], a.row_ptr[row + 1]);
    members[t].push_back(row);
    if (static_cast<index_t>(members[t].size()) == capacity(t)) {
      open_by_position.erase(t);
      open_by_anchor.erase({first_column(members[t].front()), t});
      state[t].release();
    }
  };
  for (index_t t = 0; t < partitions; ++t) {
    const index_t seed = sorted[static_cast<std::size_t>(t) * r];
    open_by_position.insert(open_by_position.end(), t);
    open_by_anchor.insert({first_column(seed), t});
    place(t, seed);
  }

  // Lines 7-13, each row to the cheapest of its candidate partitions.
  const index_t by_position = (options.candidates + 1) / 2;
  const index_t by_anchor = options.candidates - by_position;
  std::vector<index_t> candidates;
  for (index_t position = 0; position < m; ++position) {
    if (position % r == 0) continue;  // a seed
    const index_t row = sorted[position];
    candidates.clear();
    add_nearest(
        open_by_position, position / r, by_position,
        [](index_t t, index_t home) { return std::abs(std::int64_t{t} - home); },
        [](index_t t) { return t; }, candidates);
    add_nearest(
        open_by_anchor, AnchorKey{first_column(row), -1}, by_anchor,
        [](const AnchorKey& key, const AnchorKey& probe) {
          return std::abs(std::int64_t{key.first} - probe.first);
        },
        [](const AnchorKey& key) { return key.second; }, candidates);
    index_t best = candidates.front();
    std::int64_t best_rise = std::numeric_limits<std::int64_t>::max();
    for (index_t t : candidates) {
      const std::int64_t rise = state[t].added_cost(e, a.row_ptr[row], a.row_ptr[row + 1],
                                                    options.symbol_bits, best_rise);
      if (rise < best_rise) {
        best_rise = rise;
        best = t;
      }
    }
    place(best, row);
  }

  std::vector<index_t> order;
  order.reserve(identity.size());
  for (const auto& rows : members) order.insert(order.end(), rows.begin(), rows.end());
  if (cost_of_order(a, e, order, options) > cost_of_order(a, e, {}, options)) return identity;
  return order;
}

#define SPMV_INSTANTIATE(T)                                                                      \
  template std::vector<index_t> bro_aware_row_order(const Csr<T>&, const BroAwareOptions&);      \
  template double bro_ell_cost(const Csr<T>&, const std::vector<index_t>&, const BroAwareOptions&);
SPMV_INSTANTIATE(float)
SPMV_INSTANTIATE(double)
#undef SPMV_INSTANTIATE

}  // namespace spmv
