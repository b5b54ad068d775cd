// BRO-ELL built on the device from the uploaded CSR: bro_ell_from_csr's
// arrays, bit for bit.
//
// Work decomposition. As in the product (bro_ell_decode.cu), one thread
// block per slice and one thread per stream: thread t of slice i walks
// stream i h + t (row (i h + t) / T, its entries (i h + t) % T, + T, ...)
// column by column, reading col_idx through the read-only cache (a row's
// entries stay in L1 from one column to the next, and the T streams of a
// row read adjacent entries).
// 1. Slice columns l_i: CUB's segmented maximum of the stream lengths (from
//    row_ptr alone); width_offset their offsets.
// 2. Widths: at column j each warp ORs its 32 fields (__reduce_or_sync) and
//    one lane ORs that into the column's word in shared memory (h columns at
//    a time); the block then writes the columns' widths (coalesced) and adds
//    them up to the bits of its streams, hence the slice's symbols.
// 3. Value codes, unless never: the values' bit patterns sorted with their
//    positions (CUB radix sort, stable: the first of equal patterns is its
//    first appearance), unique by pattern (CUB) and counted against the
//    table's limit; the distinct patterns sorted by first appearance are the
//    table, in the host's order, and give each pattern its code.
// 4. The footprint of these sizes is checked (bro_shapes.hpp, as on the
//    host) before the symbols and values are allocated.
// 5. Packing walks the streams again, each thread writing its fields with a
//    MultiplexedSymbolWriter straight to their multiplexed places. The h
//    threads of a slice write fields of one width at a time, so a warp
//    stores 32 adjacent symbols together, and 32 adjacent values (column j
//    of adjacent streams). Padding is written as zero fields and zero
//    values: every word is written once and nothing is cleared first.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstring>

#include "cuda/bro_ell_device.hpp"
#include "cuda/cub_call.cuh"
#include "cuda/cuda_check.hpp"
#include "cuda/device_build.hpp"
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
  // The next field; `entry` is set to its CSR entry unless it is padding.
  __device__ std::uint32_t next(index_t& entry) {
    if (next_ >= end_) return 0;
    entry = next_;
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
  index_t entry;
  // The bounds depend on the slice only, so every thread meets every barrier.
  for (index_t chunk = 0; chunk < columns; chunk += h) {
    const index_t chunk_columns = min(h, columns - chunk);
    __syncthreads();  // the previous chunk's words are read
    column_fields[lane] = 0;
    __syncthreads();
    for (index_t j = 0; j < chunk_columns; ++j) {
      const std::uint32_t warp_fields = __reduce_or_sync(all_lanes, fields.next(entry));
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

__global__ void positions_kernel(index_t* positions, index_t n) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) positions[i] = static_cast<index_t>(i);
}

// Table entry k is the distinct pattern unique_patterns[order[k]], the k-th
// to appear; it gets code k.
template <class T>
__global__ void value_table_kernel(const ValuePattern<T>* unique_patterns, const index_t* order, index_t distinct,
                                   T* table, std::uint32_t* code_of_sorted) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= distinct) return;
  const ValuePattern<T> pattern = unique_patterns[order[k]];
  T value;
  memcpy(&value, &pattern, sizeof value);
  table[k] = value;
  code_of_sorted[order[k]] = static_cast<std::uint32_t>(k);
}

// Step 3: the value table and the codes of the distinct patterns; false
// (and nothing kept) when there are more than `limit` distinct values.
template <class T>
bool plan_value_table(const CsrView<T>& a, std::size_t limit, BroEllDevicePlan<T>& plan, cudaStream_t stream) {
  using Pattern = ValuePattern<T>;
  const auto n = static_cast<std::size_t>(a.nnz);
  const auto* patterns = reinterpret_cast<const Pattern*>(a.values);
  DeviceBuffer<Pattern> unique_patterns(n, "BRO-ELL distinct values");
  DeviceBuffer<index_t> first_positions(n, "BRO-ELL first appearances");
  DeviceBuffer<index_t> distinct_count(1, "BRO-ELL distinct value count");
  {
    DeviceBuffer<Pattern> sorted_patterns(n, "BRO-ELL sorted values");
    DeviceBuffer<index_t> positions(n, "BRO-ELL value positions");
    DeviceBuffer<index_t> sorted_positions(n, "BRO-ELL sorted value positions");
    positions_kernel<<<blocks_for(n, build_block), build_block, 0, stream>>>(positions.data(), a.nnz);
    SPMV_LAUNCH_CHECK();
    cub_call(
        [&](void* workspace, std::size_t& bytes) {
          return cub::DeviceRadixSort::SortPairs(workspace, bytes, patterns, sorted_patterns.data(), positions.data(),
                                                 sorted_positions.data(), static_cast<std::int64_t>(n), 0,
                                                 static_cast<int>(8 * sizeof(Pattern)), stream);
        },
        "BRO-ELL value sort workspace");
    cub_call(
        [&](void* workspace, std::size_t& bytes) {
          return cub::DeviceSelect::UniqueByKey(workspace, bytes, sorted_patterns.data(), sorted_positions.data(),
                                                unique_patterns.data(), first_positions.data(), distinct_count.data(),
                                                static_cast<std::int64_t>(n), stream);
        },
        "BRO-ELL distinct values workspace");
  }
  const index_t distinct = device_value(distinct_count.data(), stream);
  if (static_cast<std::size_t>(distinct) > limit) return false;
  DeviceBuffer<index_t> first_sorted(distinct, "BRO-ELL first appearances sorted");
  DeviceBuffer<index_t> sorted_rank(distinct, "BRO-ELL distinct values by position");
  DeviceBuffer<index_t> order(distinct, "BRO-ELL value table order");
  positions_kernel<<<blocks_for(distinct, build_block), build_block, 0, stream>>>(sorted_rank.data(), distinct);
  SPMV_LAUNCH_CHECK();
  cub_call(
      [&](void* workspace, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(workspace, bytes, first_positions.data(), first_sorted.data(),
                                               sorted_rank.data(), order.data(), distinct, 0,
                                               static_cast<int>(8 * sizeof(index_t)), stream);
      },
      "BRO-ELL value table sort workspace");
  plan.bro.value_table = DeviceBuffer<T>(distinct, "BRO-ELL value table");
  plan.code_of_sorted = DeviceBuffer<std::uint32_t>(distinct, "BRO-ELL value codes");
  value_table_kernel<<<blocks_for(distinct, build_block), build_block, 0, stream>>>(
      unique_patterns.data(), order.data(), distinct, plan.bro.value_table.data(), plan.code_of_sorted.data());
  SPMV_LAUNCH_CHECK();
  plan.sorted_patterns = device_copy(unique_patterns.data(), distinct, "BRO-ELL distinct values", stream);
  plan.bro.value_code_bits = distinct <= 1 ? 0 : bits_needed(static_cast<std::uint32_t>(distinct - 1));
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
  plan.slice_code_symbols = DeviceBuffer<index_t>(static_cast<std::size_t>(shape.slices), "BRO-ELL code symbols");
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
  plan.sorted_patterns = {};
  plan.code_of_sorted = {};
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
  const ValuePattern<T>* sorted_patterns;
  const std::uint32_t* code_of_sorted;
  index_t distinct;

  // The code of `value`: its pattern's place among the sorted patterns.
  __device__ std::uint32_t code_of(T value) const {
    ValuePattern<T> pattern;
    memcpy(&pattern, &value, sizeof value);
    index_t low = 0, high = distinct;  // the pattern lies in [low, high)
    while (high - low > 1) {
      const index_t middle = low + (high - low) / 2;
      if (sorted_patterns[middle] <= pattern)
        low = middle;
      else
        high = middle;
    }
    return code_of_sorted[low];
  }
};

// Step 5: slice blockIdx.x's symbols and values (or code symbols).
template <class T, bool ValueCodes>
__global__ void pack_bro_ell_kernel(CsrView<T> a, index_t threads_per_row, PackTarget<T> out) {
  __shared__ std::uint8_t staged_widths[max_slice_height];
  const index_t slice = blockIdx.x;
  const int lane = threadIdx.x;
  const int h = blockDim.x;
  const index_t first_column = out.width_offset[slice];
  const index_t columns = out.width_offset[slice + 1] - first_column;
  StreamFields<T> fields(a, threads_per_row, static_cast<std::int64_t>(slice) * h + lane);
  MultiplexedSymbolWriter index(out.symbols + out.symbol_offset[slice] + lane, h);
  MultiplexedSymbolWriter codes(ValueCodes ? out.code_symbols + out.code_symbol_offset[slice] + lane : nullptr, h);
  std::size_t slot = static_cast<std::size_t>(first_column) * h + lane;
  for (index_t chunk = 0; chunk < columns; chunk += h) {
    const index_t chunk_columns = min(h, columns - chunk);
    __syncthreads();  // the previous chunk's widths are no longer read
    if (lane < chunk_columns) staged_widths[lane] = out.widths[first_column + chunk + lane];
    __syncthreads();
    for (index_t j = 0; j < chunk_columns; ++j, slot += h) {
      index_t entry = 0;
      const std::uint32_t field = fields.next(entry);
      index.put(field, staged_widths[j]);
      if (ValueCodes)
        codes.put(field != 0 ? out.code_of(a.values[entry]) : 0, out.code_bits);
      else
        out.values[slot] = field != 0 ? a.values[entry] : T(0);
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
  {
    DeviceBuffer<index_t> lengths = device_row_lengths(a, stream);
    shape.longest_row = device_max(lengths.data(), lengths.size(), stream);
  }
  // Step 1: l_i, the longest stream of each slice.
  DeviceBuffer<index_t> columns(slices, "BRO-ELL slice columns");
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
        "BRO-ELL slice columns workspace");
  }
  bro.width_offset = DeviceBuffer<index_t>(slices + 1, "BRO-ELL width offsets");
  shape.slice_columns = device_offsets(columns.data(), slices, bro.width_offset.data(), "BRO-ELL slice columns", stream);
  // Step 2.
  bro.widths = DeviceBuffer<std::uint8_t>(static_cast<std::size_t>(shape.slice_columns), "BRO-ELL bit widths");
  plan.slice_symbols = DeviceBuffer<index_t>(slices, "BRO-ELL slice symbols");
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
                          plan.sorted_patterns.data(),
                          plan.code_of_sorted.data(),
                          static_cast<index_t>(plan.sorted_patterns.size())};
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
