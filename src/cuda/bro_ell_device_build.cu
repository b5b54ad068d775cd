// BRO-ELL built on the device from the uploaded CSR: bro_ell_from_csr's
// arrays, bit for bit.
//
// Work decomposition. As in the product (bro_ell_decode.cu), one thread
// block per slice and one thread per stream: thread t of slice i walks
// stream i h + t (row (i h + t) / T, its entries (i h + t) % T, + T, ...)
// column by column: step 2 reads col_idx through the read-only cache (the
// T streams of a row read adjacent entries), step 5 from a tile of the
// slice's entries in shared memory.
// 1. Slice columns l_i: CUB's segmented maximum of the stream lengths (from
//    row_ptr alone); width_offset their offsets.
// 2. Widths: at column j each warp ORs its 32 fields (__reduce_or_sync) and
//    one lane ORs that into the column's word in shared memory (h columns at
//    a time); the block then writes the columns' widths (coalesced) and adds
//    them up to the bits of its streams, hence the slice's symbols.
// 3. Value codes, unless never: the distinct bit patterns counted in a hash
//    set of a few times the table's limit (PatternSlots), one pass over the
//    values, each warp inserting each pattern among its 32 values once
//    (__match_any_sync); a slot keeps its pattern's first position
//    (atomicMin, only when lower than what a plain read shows). The count
//    stops the pass once it exceeds the limit, so a matrix of many distinct
//    values costs about as many values as the limit. Otherwise the occupied
//    slots are sorted by first position (CUB radix sort of at most the
//    limit): in that order they are the host's table, and each slot gets
//    its code. Packing finds a value's code by its pattern's slot.
// 4. The footprint of these sizes is checked (bro_shapes.hpp, as on the
//    host) before the symbols and values are allocated.
// 5. Packing walks the streams again, a tile of columns at a time staged in
//    shared memory by coalesced loads (pack_bro_ell_kernel), each thread
//    writing its fields with a MultiplexedSymbolWriter straight to their
//    multiplexed places. The h threads of a slice write fields of one width
//    at a time, so a warp stores 32 adjacent symbols together, and 32
//    adjacent values (column j of adjacent streams). Padding is written as
//    zero fields and zero values: every word is written once and nothing is
//    cleared first.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "cuda/bro_ell_device.hpp"
#include "cuda/cub_call.cuh"
#include "cuda/cuda_check.hpp"
#include "cuda/device_build.hpp"
#include "cuda/format_kernels.hpp"
#include "formats/bro_symbols.hpp"

namespace spmv::detail {

namespace {

constexpr int build_block = 256;
constexpr unsigned all_lanes = 0xffffffffu;
constexpr int max_slice_height = 1024;

// The fields of one stream, column after column: the first is its first
// column + 1, each next one its column minus the previous, 0 past the
// stream's end (padding).
template <class T>
class StreamFields {
 public:
  __device__ StreamFields(const CsrView<T>& a, index_t threads_per_row, std::int64_t stream)
      : col_idx_(a.col_idx), step_(threads_per_row) {
    const std::int64_t row = stream / threads_per_row;
    if (row < a.rows) {
      next_ = a.row_ptr[row] + static_cast<index_t>(stream % threads_per_row);
      end_ = a.row_ptr[row + 1];
    }
  }
  // The next field (0 past the stream's last entry: padding).
  __device__ std::uint32_t next() {
    if (next_ >= end_) return 0;
    const index_t column = __ldg(col_idx_ + next_);
    const auto field = static_cast<std::uint32_t>(column - previous_);
    previous_ = column;
    next_ += step_;
    return field;
  }

 private:
  const index_t* col_idx_;
  index_t step_;
  index_t next_ = 0;
  index_t end_ = 0;
  index_t previous_ = -1;
};

// Entries of stream `stream` (none past the last row).
struct StreamLength {
  const index_t* row_ptr;
  index_t rows;
  index_t threads_per_row;
  __host__ __device__ index_t operator()(std::int64_t stream) const {
    const std::int64_t row = stream / threads_per_row;
    if (row >= rows) return 0;
    const auto part = static_cast<index_t>(stream % threads_per_row);
    const index_t length = row_ptr[row + 1] - row_ptr[row];
    return length > part ? (length - part + threads_per_row - 1) / threads_per_row : 0;
  }
};

struct TimesSliceHeight {
  std::int64_t slice_height;
  __host__ __device__ std::int64_t operator()(std::int64_t slice) const { return slice * slice_height; }
};

// Symbols of a slice's streams in 32 bits: saturated at max_index, where
// the slice alone stores more than 32-bit indices allow (refused anyway).
__device__ index_t saturated_symbols(std::int64_t stream_bits, int slice_height) {
  const std::int64_t symbols = symbols_for_bits(stream_bits) * slice_height;
  return static_cast<index_t>(symbols < max_index ? symbols : max_index);
}

// Step 2: the widths of slice blockIdx.x and its symbols.
template <class T>
__global__ void bro_ell_widths_kernel(CsrView<T> a, index_t threads_per_row, const index_t* width_offset,
                                      std::uint8_t* widths, index_t* slice_symbols) {
  __shared__ std::uint32_t column_fields[max_slice_height];  // OR of a column's fields
  __shared__ unsigned long long stream_bits;
  const index_t slice = blockIdx.x;
  const int lane = threadIdx.x;
  const int h = blockDim.x;
  const index_t first_column = width_offset[slice];
  const index_t columns = width_offset[slice + 1] - first_column;
  StreamFields<T> fields(a, threads_per_row, static_cast<std::int64_t>(slice) * h + lane);
  if (lane == 0) stream_bits = 0;
  // The bounds depend on the slice only, so every thread meets every barrier.
  for (index_t chunk = 0; chunk < columns; chunk += h) {
    const index_t chunk_columns = min(h, columns - chunk);
    __syncthreads();  // the previous chunk's words are read
    column_fields[lane] = 0;
    __syncthreads();
    for (index_t j = 0; j < chunk_columns; ++j) {
      const std::uint32_t warp_fields = __reduce_or_sync(all_lanes, fields.next());
      if (lane % warp_size == 0 && warp_fields != 0) atomicOr(&column_fields[j], warp_fields);
    }
    __syncthreads();
    if (lane < chunk_columns) {
      const int width = bits_needed(column_fields[lane]);
      widths[first_column + chunk + lane] = static_cast<std::uint8_t>(width);
      atomicAdd(&stream_bits, static_cast<unsigned long long>(width));
    }
  }
  __syncthreads();
  if (lane == 0) slice_symbols[slice] = saturated_symbols(static_cast<std::int64_t>(stream_bits), h);
}

// Symbols of each slice's code streams: l_i codes of `code_bits` each.
__global__ void bro_ell_code_symbols_kernel(const index_t* width_offset, index_t slices, int code_bits,
                                           int slice_height, index_t* slice_code_symbols) {
  const std::int64_t slice = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (slice >= slices) return;
  const std::int64_t columns = width_offset[slice + 1] - width_offset[slice];
  slice_code_symbols[slice] = saturated_symbols(columns * code_bits, slice_height);
}

// Step 3's hash set of bit patterns: open addressing with linear probing
// from a Fibonacci hash, as the host's ValueTable. A slot is claimed by a
// compare-and-swap of its pattern from empty_pattern; that pattern itself
// (a NaN) has the extra slot `capacity()`. payload[slot] holds the slot's
// first position while the values are counted (no_position before), its
// code once the table is built.
template <class Pattern>
struct PatternSlots {
  static constexpr Pattern empty_pattern = ~Pattern(0);
  static constexpr std::uint32_t no_position = ~std::uint32_t(0);
  Pattern* patterns;       // capacity() slots
  std::uint32_t* payload;  // capacity() + 1 slots
  int slot_bits;

  __host__ __device__ std::size_t capacity() const { return std::size_t(1) << slot_bits; }

  // The slot of a pattern already inserted.
  __device__ std::size_t find(Pattern pattern) const {
    if (pattern == empty_pattern) return capacity();
    std::size_t slot = home(pattern);
    while (patterns[slot] != pattern) slot = (slot + 1) & (capacity() - 1);
    return slot;
  }

  // Counts `pattern` at `position` into `distinct`: false once more than
  // `entries` distinct patterns are seen (the count then exceeds entries;
  // the capacity is at least 4 entries). A probe past entries + 1 slots
  // taken by other patterns proves that too.
  __device__ bool insert(Pattern pattern, std::uint32_t position, std::uint32_t entries,
                         std::uint32_t* distinct) const {
    std::size_t slot = capacity();
    if (pattern != empty_pattern) {
      slot = home(pattern);
      for (std::uint32_t probes = 0;; ++probes) {
        Pattern held = patterns[slot];  // a stale read is empty at worst: the swap then tells
        if (held == pattern) break;
        if (*static_cast<volatile std::uint32_t*>(distinct) > entries) return false;
        if (probes > entries) {
          atomicMax(distinct, entries + 1);
          return false;
        }
        if (held == empty_pattern) {
          held = claim(slot, pattern);
          if (held == empty_pattern || held == pattern) break;
        }
        slot = (slot + 1) & (capacity() - 1);
      }
    }
    // The first lowering from no_position counts the pattern, once.
    if (position < payload[slot] && atomicMin(payload + slot, position) == no_position) atomicAdd(distinct, 1u);
    return true;
  }

 private:
  __device__ std::size_t home(Pattern pattern) const {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(pattern) * 0x9e3779b97f4a7c15ull) >> (64 - slot_bits));
  }
  // The pattern the slot held before the swap.
  __device__ Pattern claim(std::size_t slot, Pattern pattern) const {
    if constexpr (sizeof(Pattern) == 4) {
      return atomicCAS(reinterpret_cast<unsigned*>(patterns + slot), empty_pattern, pattern);
    } else {
      return atomicCAS(reinterpret_cast<unsigned long long*>(patterns + slot), empty_pattern, pattern);
    }
  }
};

// The hash set over `patterns` (a power of two of slots) and `payload`.
template <class Pattern>
PatternSlots<Pattern> pattern_slots(DeviceBuffer<Pattern>& patterns, DeviceBuffer<std::uint32_t>& payload) {
  const auto capacity = static_cast<std::uint32_t>(patterns.size());
  return {patterns.data(), payload.data(), capacity > 1 ? bits_needed(capacity - 1) : 0};
}

// Step 3's count: resident warps stride over the values 32 at a time; of
// the lanes holding equal patterns the first (the lowest position) inserts.
// A warp stops once the count exceeds `entries`.
template <class Pattern>
__global__ void count_value_patterns_kernel(const Pattern* values, std::int64_t n, PatternSlots<Pattern> slots,
                                            std::uint32_t entries, std::uint32_t* distinct) {
  const int lane = threadIdx.x % warp_size;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  // `base` is the same for the warp's lanes, so all take every step.
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x - lane; base < n;
       base += stride) {
    const std::int64_t position = base + lane;
    const bool in_range = position < n;
    const unsigned active = __ballot_sync(all_lanes, in_range);
    bool counting = true;
    if (in_range) {
      const Pattern pattern = values[position];
      const unsigned same = __match_any_sync(active, pattern);
      if (lane == __ffs(same) - 1)
        counting = slots.insert(pattern, static_cast<std::uint32_t>(position), entries, distinct);
    }
    if (!__all_sync(all_lanes, counting)) return;
  }
}

// The occupied slots and their first positions, in no particular order.
template <class Pattern>
__global__ void occupied_slots_kernel(PatternSlots<Pattern> slots, std::uint32_t* occupied, std::uint32_t* firsts,
                                      std::uint32_t* slot_ids) {
  const std::size_t slot = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (slot > slots.capacity() || slots.payload[slot] == PatternSlots<Pattern>::no_position) return;
  const std::uint32_t k = atomicAdd(occupied, 1u);
  firsts[k] = slots.payload[slot];
  slot_ids[k] = static_cast<std::uint32_t>(slot);
}

// Table entry k is the value first seen at firsts[k] (the k-th distinct
// value to appear); its slot gets code k.
template <class T>
__global__ void value_table_kernel(const T* values, const std::uint32_t* firsts, const std::uint32_t* slot_ids,
                                   std::uint32_t distinct, T* table, std::uint32_t* payload) {
  const std::size_t k = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= distinct) return;
  table[k] = values[firsts[k]];
  payload[slot_ids[k]] = static_cast<std::uint32_t>(k);
}

// Step 3: the value table and the codes by pattern; false (and nothing
// kept) when there are more than `limit` distinct values.
template <class T>
bool plan_value_table(const CsrView<T>& a, std::size_t limit, BroEllDevicePlan<T>& plan, cudaStream_t stream) {
  using Pattern = ValuePattern<T>;
  const auto entries = static_cast<std::uint32_t>(std::min<std::size_t>(limit, static_cast<std::size_t>(a.nnz)));
  int slot_bits = 1;
  while ((std::size_t(1) << slot_bits) < 4 * static_cast<std::size_t>(entries)) ++slot_bits;
  const ScratchOn scratch{stream};
  DeviceBuffer<Pattern> patterns(std::size_t(1) << slot_bits, "BRO-ELL value hash set", scratch);
  DeviceBuffer<std::uint32_t> payload(patterns.size() + 1, "BRO-ELL value hash set", scratch);
  DeviceBuffer<std::uint32_t> counts(2, "BRO-ELL distinct value count", scratch);  // distinct, then occupied
  SPMV_CUDA_CHECK(cudaMemsetAsync(patterns.data(), 0xff, patterns.bytes(), stream));
  SPMV_CUDA_CHECK(cudaMemsetAsync(payload.data(), 0xff, payload.bytes(), stream));
  SPMV_CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, counts.bytes(), stream));
  const PatternSlots<Pattern> slots = pattern_slots(patterns, payload);
  const GpuShape gpu = current_gpu_shape();
  const auto resident_blocks = static_cast<unsigned>(gpu.multiprocessors * (gpu.threads_per_multiprocessor / build_block));
  count_value_patterns_kernel<<<std::min(blocks_for(a.nnz, build_block), resident_blocks), build_block, 0, stream>>>(
      reinterpret_cast<const Pattern*>(a.values), a.nnz, slots, entries, counts.data());
  SPMV_LAUNCH_CHECK();
  const std::uint32_t distinct = device_value(counts.data(), stream);
  if (distinct > entries) return false;

  DeviceBuffer<std::uint32_t> firsts(distinct, "BRO-ELL first appearances", scratch);
  DeviceBuffer<std::uint32_t> slot_ids(distinct, "BRO-ELL value slots", scratch);
  occupied_slots_kernel<<<blocks_for(payload.size(), build_block), build_block, 0, stream>>>(
      slots, counts.data() + 1, firsts.data(), slot_ids.data());
  SPMV_LAUNCH_CHECK();
  DeviceBuffer<std::uint32_t> sorted_firsts(distinct, "BRO-ELL first appearances sorted", scratch);
  DeviceBuffer<std::uint32_t> sorted_slot_ids(distinct, "BRO-ELL value table order", scratch);
  cub_call(
      [&](void* workspace, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(workspace, bytes, firsts.data(), sorted_firsts.data(), slot_ids.data(),
                                               sorted_slot_ids.data(), static_cast<std::int64_t>(distinct), 0,
                                               bits_needed(static_cast<std::uint32_t>(a.nnz)), stream);
      },
      "BRO-ELL value table sort workspace", stream);
  plan.bro.value_table = DeviceBuffer<T>(distinct, "BRO-ELL value table");
  value_table_kernel<<<blocks_for(distinct, build_block), build_block, 0, stream>>>(
      a.values, sorted_firsts.data(), sorted_slot_ids.data(), distinct, plan.bro.value_table.data(), payload.data());
  SPMV_LAUNCH_CHECK();
  plan.code_slot_patterns = std::move(patterns);
  plan.code_slot_codes = std::move(payload);
  plan.bro.value_code_bits = distinct <= 1 ? 0 : bits_needed(distinct - 1);
  return true;
}

// Step 3 and the choice: value codes when the options and the sizes say so.
template <class T>
void plan_value_codes(const CsrView<T>& a, BroValueCodes codes, BroEllDevicePlan<T>& plan, cudaStream_t stream) {
  if (codes == BroValueCodes::never || a.nnz == 0) return;
  if (!plan_value_table(a, bro_value_table_limit(codes, sizeof(T)), plan, stream)) {
    if (codes == BroValueCodes::always) throw_bro_value_table_full();
    return;
  }
  BroEllShape& shape = plan.bro.shape;
  plan.slice_code_symbols =
      DeviceBuffer<index_t>(static_cast<std::size_t>(shape.slices), "BRO-ELL code symbols", ScratchOn{stream});
  if (shape.slices > 0) {
    bro_ell_code_symbols_kernel<<<blocks_for(shape.slices, build_block), build_block, 0, stream>>>(
        plan.bro.width_offset.data(), static_cast<index_t>(shape.slices), plan.bro.value_code_bits,
        shape.slice_height, plan.slice_code_symbols.data());
    SPMV_LAUNCH_CHECK();
  }
  shape.code_symbols = device_sum(plan.slice_code_symbols.data(), plan.slice_code_symbols.size(), stream);
  shape.table_entries = static_cast<std::int64_t>(plan.bro.value_table.size());
  shape.value_codes = bro_value_codes_chosen(codes, shape);
  if (shape.value_codes) return;
  shape.code_symbols = shape.table_entries = 0;
  plan.bro.value_code_bits = 0;
  plan.bro.value_table = {};
  plan.slice_code_symbols = {};
  plan.code_slot_patterns = {};
  plan.code_slot_codes = {};
}

template <class T>
struct PackTarget {
  const index_t* width_offset;
  const std::uint8_t* widths;
  const index_t* symbol_offset;
  std::uint32_t* symbols;
  T* values;
  const index_t* code_symbol_offset;
  std::uint32_t* code_symbols;
  int code_bits;
  PatternSlots<ValuePattern<T>> code_slots;

  __device__ std::uint32_t code_of(T value) const {
    ValuePattern<T> pattern;
    memcpy(&pattern, &value, sizeof value);
    return code_slots.payload[code_slots.find(pattern)];
  }
};

// Step 5: slice blockIdx.x's symbols and values (or code symbols), a tile
// of pack_tile_entries / h columns of its streams at a time: the tile's
// entries of each row (adjacent in col_idx and values) are loaded by
// adjacent threads into shared memory, values turned into their codes on
// the way, and each thread then reads its stream's fields from there.
// Reading its own row straight from global memory, each thread fetched
// sectors that its neighbours' rows evicted before it came back to them
// (27-point stencil 150^3 f64: 6.2 GB through DRAM for 1.1 GB of CSR,
// 4.2 ms).
constexpr int pack_tile_entries = 2048;
constexpr int min_slice_height = 32;

template <class T, bool ValueCodes>
__global__ void pack_bro_ell_kernel(CsrView<T> a, index_t threads_per_row, PackTarget<T> out) {
  using Payload = std::conditional_t<ValueCodes, std::uint32_t, T>;  // a code or a value
  __shared__ index_t tile_columns[pack_tile_entries];
  __shared__ Payload tile_payload[pack_tile_entries];
  __shared__ std::uint8_t tile_widths[pack_tile_entries / min_slice_height];
  __shared__ index_t row_begin[max_slice_height + 1];  // the slice's rows' offsets (the end for rows past the last)
  const index_t slice = blockIdx.x;
  const int lane = threadIdx.x;
  const int h = blockDim.x;
  const int rows_here = h / threads_per_row;
  const std::int64_t first_row = static_cast<std::int64_t>(slice) * rows_here;
  for (int i = lane; i <= rows_here; i += h)
    row_begin[i] = a.row_ptr[first_row + i < a.rows ? first_row + i : a.rows];
  const index_t first_column = out.width_offset[slice];
  const index_t columns = out.width_offset[slice + 1] - first_column;
  const int tile_span = pack_tile_entries / h;       // columns of the streams in a tile
  const int row_span = tile_span * threads_per_row;  // entries of a row in a tile
  const int my_row = lane / threads_per_row, my_part = lane % threads_per_row;
  MultiplexedSymbolWriter index(out.symbols + out.symbol_offset[slice] + lane, h);
  MultiplexedSymbolWriter codes(ValueCodes ? out.code_symbols + out.code_symbol_offset[slice] + lane : nullptr, h);
  std::size_t slot = static_cast<std::size_t>(first_column) * h + lane;
  index_t previous = -1;  // the stream's last column
  // The bounds depend on the slice only, so every thread meets every barrier.
  for (index_t tile_first = 0; tile_first < columns; tile_first += tile_span) {
    const int tile_columns_here = min(static_cast<index_t>(tile_span), columns - tile_first);
    const index_t row_offset = tile_first * threads_per_row;  // the tile's first entry in each row
    __syncthreads();  // the previous tile is read (and, the first time, row_begin written)
    for (int q = lane; q < rows_here * row_span; q += h) {
      const int row = q / row_span;
      const index_t entry = row_begin[row] + row_offset + q % row_span;
      if (entry < row_begin[row + 1]) {
        tile_columns[q] = __ldg(a.col_idx + entry);
        if constexpr (ValueCodes)
          tile_payload[q] = out.code_of(a.values[entry]);
        else
          tile_payload[q] = a.values[entry];
      }
    }
    for (int j = lane; j < tile_columns_here; j += h) tile_widths[j] = out.widths[first_column + tile_first + j];
    __syncthreads();
    const index_t left_in_row = row_begin[my_row + 1] - row_begin[my_row] - row_offset;
    for (int j = 0; j < tile_columns_here; ++j, slot += h) {
      const int in_row = j * threads_per_row + my_part;
      const bool present = in_row < left_in_row;  // else padding: a zero field
      const int q = my_row * row_span + in_row;
      std::uint32_t field = 0;
      if (present) {
        field = static_cast<std::uint32_t>(tile_columns[q] - previous);
        previous = tile_columns[q];
      }
      index.put(field, tile_widths[j]);
      if constexpr (ValueCodes)
        codes.put(present ? tile_payload[q] : 0, out.code_bits);
      else
        out.values[slot] = present ? tile_payload[q] : T(0);
    }
  }
  index.finish();
  if (ValueCodes) codes.finish();
}

}  // namespace

template <class T>
BroEllDevicePlan<T> plan_bro_ell_on_device(const CsrView<T>& a, const BroEllOptions& options, cudaStream_t stream) {
  check_bro_ell_options(options);
  BroEllDevicePlan<T> plan;
  DeviceBroEll<T>& bro = plan.bro;
  BroEllShape& shape = bro.shape;
  const index_t h = options.slice_height;
  bro.threads_per_row = options.threads_per_row;
  shape.rows = a.rows;
  shape.cols = a.cols;
  shape.nnz = a.nnz;
  shape.slice_height = h;
  shape.value_bytes = sizeof(T);
  const std::int64_t streams = static_cast<std::int64_t>(a.rows) * options.threads_per_row;
  shape.slices = (streams + h - 1) / h;
  const auto slices = static_cast<std::size_t>(shape.slices);
  shape.longest_row = device_longest_row(a, stream);
  // Step 1: l_i, the longest stream of each slice.
  DeviceBuffer<index_t> columns(slices, "BRO-ELL slice columns", ScratchOn{stream});
  if (slices > 0) {
    const auto stream_lengths = thrust::make_transform_iterator(
        thrust::counting_iterator<std::int64_t>(0), StreamLength{a.row_ptr, a.rows, options.threads_per_row});
    const auto slice_begin =
        thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), TimesSliceHeight{h});
    cub_call(
        [&](void* workspace, std::size_t& bytes) {
          return cub::DeviceSegmentedReduce::Max(workspace, bytes, stream_lengths, columns.data(),
                                                 static_cast<std::int64_t>(slices), slice_begin, slice_begin + 1,
                                                 stream);
        },
        "BRO-ELL slice columns workspace", stream);
  }
  bro.width_offset = DeviceBuffer<index_t>(slices + 1, "BRO-ELL width offsets");
  shape.slice_columns = device_offsets(columns.data(), slices, bro.width_offset.data(), "BRO-ELL slice columns", stream);
  // Step 2.
  bro.widths = DeviceBuffer<std::uint8_t>(static_cast<std::size_t>(shape.slice_columns), "BRO-ELL bit widths");
  plan.slice_symbols = DeviceBuffer<index_t>(slices, "BRO-ELL slice symbols", ScratchOn{stream});
  if (slices > 0) {
    bro_ell_widths_kernel<<<static_cast<unsigned>(slices), h, 0, stream>>>(
        a, options.threads_per_row, bro.width_offset.data(), bro.widths.data(), plan.slice_symbols.data());
    SPMV_LAUNCH_CHECK();
  }
  shape.symbols = device_sum(plan.slice_symbols.data(), slices, stream);
  plan_value_codes(a, options.value_codes, plan, stream);
  return plan;
}

template <class T>
DeviceBroEll<T> pack_bro_ell_on_device(const CsrView<T>& a, BroEllDevicePlan<T>&& plan, cudaStream_t stream) {
  DeviceBroEll<T> bro = std::move(plan.bro);
  const BroEllShape& shape = bro.shape;
  const auto slices = static_cast<std::size_t>(shape.slices);
  bro.symbol_offset = DeviceBuffer<index_t>(slices + 1, "BRO-ELL symbol offsets");
  device_offsets(plan.slice_symbols.data(), slices, bro.symbol_offset.data(), "BRO-ELL symbols", stream);
  bro.symbols = DeviceBuffer<std::uint32_t>(static_cast<std::size_t>(shape.symbols), "BRO-ELL index symbols");
  if (shape.value_codes) {
    bro.code_symbol_offset = DeviceBuffer<index_t>(slices + 1, "BRO-ELL code symbol offsets");
    device_offsets(plan.slice_code_symbols.data(), slices, bro.code_symbol_offset.data(), "BRO-ELL code symbols",
                   stream);
    bro.code_symbols =
        DeviceBuffer<std::uint32_t>(static_cast<std::size_t>(shape.code_symbols), "BRO-ELL code symbols");
  } else {
    bro.values = DeviceBuffer<T>(static_cast<std::size_t>(shape.stored_entries()), "BRO-ELL values");
  }
  if (slices == 0) return bro;
  const PackTarget<T> out{bro.width_offset.data(),
                          bro.widths.data(),
                          bro.symbol_offset.data(),
                          bro.symbols.data(),
                          bro.values.data(),
                          bro.code_symbol_offset.data(),
                          bro.code_symbols.data(),
                          bro.value_code_bits,
                          pattern_slots(plan.code_slot_patterns, plan.code_slot_codes)};
  const auto blocks = static_cast<unsigned>(slices);
  if (shape.value_codes)
    pack_bro_ell_kernel<T, true><<<blocks, shape.slice_height, 0, stream>>>(a, bro.threads_per_row, out);
  else
    pack_bro_ell_kernel<T, false><<<blocks, shape.slice_height, 0, stream>>>(a, bro.threads_per_row, out);
  SPMV_LAUNCH_CHECK();
  return bro;
}

template <class T>
DeviceBroEll<T> build_bro_ell_on_device(const CsrView<T>& a, const BroEllOptions& options, cudaStream_t stream) {
  BroEllDevicePlan<T> plan = plan_bro_ell_on_device(a, options, stream);
  check_bro_ell_limit(plan.bro.shape, options.max_padding);
  return pack_bro_ell_on_device(a, std::move(plan), stream);
}

#define SPMV_INSTANTIATE_BRO_ELL_DEVICE_BUILD(T)                                                                 \
  template BroEllDevicePlan<T> plan_bro_ell_on_device(const CsrView<T>&, const BroEllOptions&, cudaStream_t); \
  template DeviceBroEll<T> pack_bro_ell_on_device(const CsrView<T>&, BroEllDevicePlan<T>&&, cudaStream_t);    \
  template DeviceBroEll<T> build_bro_ell_on_device(const CsrView<T>&, const BroEllOptions&, cudaStream_t);
SPMV_INSTANTIATE_BRO_ELL_DEVICE_BUILD(float)
SPMV_INSTANTIATE_BRO_ELL_DEVICE_BUILD(double)
#undef SPMV_INSTANTIATE_BRO_ELL_DEVICE_BUILD

}  // namespace spmv::detail
