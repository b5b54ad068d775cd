// BRO-COO (Tang et al. 2013, section 3.2): row-ordered COO whose row indices
// are delta-encoded and bit-packed; column indices and values stay as in COO.
//
// The entries are cut into intervals of `interval` entries (a multiple of
// 32), one per GPU warp, the last one possibly shorter. Within an interval,
// entry begin + 32 s + i belongs to lane i at step s, so lane i's rows are
// non-decreasing along s. Lane i's stream holds, step by step, its row minus
// the row it held one step before (before step 0: the interval's base row,
// the row of its first entry). All lanes use the same width at a step (the
// widest of the 32 deltas, widths[w * steps_per_interval() + s]), so every
// lane's stream has the same length, and the 32 streams of an interval are
// multiplexed (symbol m of lane i at symbol_offset[w] + 32 m + i) for
// coalesced loads.
//
// Lanes past the last entry (the last interval's last step) carry the row of
// the last entry, so that the row sequence of every step stays
// non-decreasing across the lanes, as the warp's segmented reduction needs,
// and the interval's last row is the one carried to the next interval.
#pragma once

#include <cstdint>
#include <vector>

#include "spmv/formats/bro_metrics.hpp"
#include "spmv/formats/footprint.hpp"
#include "spmv/matrix.hpp"

namespace spmv {

// Lanes of an interval: one warp.
inline constexpr index_t bro_coo_lanes = 32;
// Entries per interval on the host (metrics, reference product); the cuda
// kernel takes one interval per resident warp of the GPU unless given one.
inline constexpr index_t bro_coo_default_interval = 1024;

template <class T>
struct BroCoo {
  index_t rows = 0;
  index_t cols = 0;
  index_t interval = bro_coo_default_interval;  // entries per interval
  std::vector<index_t> base_row;                // per interval: the row of its first entry
  std::vector<index_t> symbol_offset;           // per interval, and its end: its first symbol
  std::vector<std::uint8_t> widths;    // per interval and step: bits of the row deltas (0..31)
  std::vector<std::uint32_t> symbols;  // the multiplexed lane streams, interval after interval
  std::vector<index_t> col_idx;        // as in row-major COO
  std::vector<T> values;

  index_t nnz() const { return static_cast<index_t>(values.size()); }
  index_t intervals() const { return static_cast<index_t>(base_row.size()); }
  index_t steps_per_interval() const { return interval / bro_coo_lanes; }
};

struct BroCooOptions {
  index_t interval = bro_coo_default_interval;  // a positive multiple of bro_coo_lanes
};

// What bro_coo_from_csr(a, options) stores (it never pads, so it is never
// refused). Throws InvalidArgument for a bad interval.
template <class T>
FormatFootprint bro_coo_footprint(const Csr<T>& a, const BroCooOptions& options = {});

// Throws InvalidArgument unless options.interval is a positive multiple of
// bro_coo_lanes, SizeError when the symbols exceed 32-bit offsets.
template <class T>
BroCoo<T> bro_coo_from_csr(const Csr<T>& a, const BroCooOptions& options = {});

// Decodes the row indices: the row-major COO that `a` was built from.
template <class T>
Coo<T> to_coo(const BroCoo<T>& a);

// Compression of the index data. Against COO (the paper's eta): O = int32
// row indices, C = widths, symbols, base rows and symbol offsets. Against
// CSR: O = row pointers and column indices, C = the compressed rows and the
// column indices (stored as in COO).
template <class T>
CompressionMetrics bro_coo_metrics(const BroCoo<T>& a);

// y = alpha * A * x + beta * y, decoding the rows as the kernel does; y is
// not read when beta == 0.
template <class T>
void multiply(const BroCoo<T>& a, const T* x, T* y, T alpha, T beta);

}  // namespace spmv
