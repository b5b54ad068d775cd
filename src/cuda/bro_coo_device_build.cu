// BRO-COO built on the device from the uploaded CSR: bro_coo_from_csr's
// arrays, bit for bit.
//
// Work decomposition. The entries, with the row of each, are a row slice of
// the CSR gathered in row order (device_gather_row_slice; for bro-hyb the
// slice beyond the ELL width). Interval w's slot (s, i) is entry
// w * interval + 32 s + i, and since an interval is a whole number of 32-entry
// steps, step s of interval w is the global step g = entry / 32.
// 1. Widths: one warp per global step, lane i taking its slot's row delta
//    (coalesced reads of the rows); the warp ORs them (__reduce_or_sync) and
//    lane 0 writes the step's width.
// 2. Symbols: CUB's segmented sum of the widths of each interval (the bits
//    of one lane stream), 32 streams of whole symbols each, and their
//    offsets; SizeError beyond 32-bit offsets, as on the host.
// 3. Packing: one warp per interval, lane i writing its stream with a
//    MultiplexedSymbolWriter straight to symbol m at offset + 32 m + i: all
//    lanes put fields of the step's width together, so a warp stores 32
//    adjacent words. Lane 0 writes the base row. The column indices and
//    values are the gathered slice's, moved in.
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>

#include "cuda/bro_coo_device.hpp"
#include "cuda/cub_call.cuh"
#include "cuda/cuda_check.hpp"
#include "cuda/dependent_launch.cuh"
#include "formats/bro_symbols.hpp"

namespace spmv::detail {

namespace {

constexpr int build_block = 256;
constexpr unsigned all_lanes = 0xffffffffu;

// Interval w of the entries: [begin, end).
struct IntervalEntries {
  std::int64_t begin;
  std::int64_t end;
  __device__ IntervalEntries(std::int64_t nnz, index_t interval, std::int64_t w)
      : begin(w * interval), end(min(nnz, w * interval + interval)) {}
  // The row of slot `entry`; slots past the end repeat the last entry's row.
  __device__ index_t row(const index_t* rows, std::int64_t entry) const { return rows[min(entry, end - 1)]; }
};

// Step 1: the width of every step (one warp each).
__global__ void bro_coo_widths_kernel(const index_t* rows, std::int64_t nnz, index_t interval, std::int64_t steps,
                                      std::uint8_t* widths) {
  const std::int64_t slot = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t step = slot / warp_size;
  if (step >= steps) return;  // whole warps leave together
  const IntervalEntries in(nnz, interval, slot / interval);
  // The row this lane held one step before (before the interval's first step: its base row).
  const index_t previous = slot - warp_size < in.begin ? rows[in.begin] : in.row(rows, slot - warp_size);
  const auto delta = static_cast<std::uint32_t>(in.row(rows, slot) - previous);
  const std::uint32_t any_bits = __reduce_or_sync(all_lanes, delta);  // as wide as the widest delta
  if (threadIdx.x % warp_size == 0) widths[step] = static_cast<std::uint8_t>(bits_needed(any_bits));
}

// Step 2: lane bits (the segmented sums) to the interval's symbols, in place.
__global__ void lane_bits_to_symbols_kernel(index_t* interval_symbols, std::int64_t intervals) {
  const std::int64_t w = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (w < intervals) interval_symbols[w] = bro_coo_lanes * symbols_for_bits(interval_symbols[w]);
}

// Step 3: the lane streams and base row of every interval (one warp each).
__global__ void pack_bro_coo_kernel(const index_t* rows, std::int64_t nnz, index_t interval, index_t intervals,
                                    const std::uint8_t* widths, const index_t* symbol_offset,
                                    std::uint32_t* symbols, index_t* base_row) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t w = thread / warp_size;
  if (w >= intervals) return;
  const int lane = static_cast<int>(thread % warp_size);
  const IntervalEntries in(nnz, interval, w);
  const std::uint8_t* step_width = widths + w * (interval / warp_size);
  MultiplexedSymbolWriter stream(symbols + symbol_offset[w] + lane, bro_coo_lanes);
  index_t previous = rows[in.begin];
  for (std::int64_t entry = in.begin + lane; entry - lane < in.end; entry += warp_size) {
    const index_t row = in.row(rows, entry);
    stream.put(static_cast<std::uint32_t>(row - previous), *step_width++);
    previous = row;
  }
  stream.finish();
  if (lane == 0) base_row[w] = rows[in.begin];
}

struct WidenWidth {
  __host__ __device__ index_t operator()(std::uint8_t width) const { return width; }
};

// Interval w's steps: [w * steps_per_interval, min(steps, ...)).
struct IntervalStep {
  std::int64_t steps_per_interval;
  std::int64_t steps;
  __host__ __device__ std::int64_t operator()(std::int64_t w) const {
    return w * steps_per_interval < steps ? w * steps_per_interval : steps;
  }
};

}  // namespace

template <class T>
BroCooDevicePlan<T> plan_bro_coo_on_device(BroCooEntries<T>&& source, const BroCooOptions& options,
                                           cudaStream_t stream) {
  check_bro_coo_interval(options.interval);
  BroCooDevicePlan<T> plan;
  plan.source = std::move(source);
  plan.interval = options.interval;
  const std::int64_t nnz = plan.source.entries.nnz;
  const std::int64_t intervals = (nnz + options.interval - 1) / options.interval;
  const std::int64_t steps = (nnz + bro_coo_lanes - 1) / bro_coo_lanes;
  const index_t* rows = plan.source.entries.row_idx.data();
  plan.widths = DeviceBuffer<std::uint8_t>(static_cast<std::size_t>(steps), "BRO-COO bit widths");
  // At most `interval` each: 32 streams of at most 31 bits per step.
  DeviceBuffer<index_t> interval_symbols(static_cast<std::size_t>(intervals), "BRO-COO interval symbols",
                                         ScratchOn{stream});
  if (nnz > 0) {
    bro_coo_widths_kernel<<<blocks_for(static_cast<std::size_t>(steps) * warp_size, build_block), build_block, 0,
                            stream>>>(rows, nnz, options.interval, steps, plan.widths.data());
    SPMV_LAUNCH_CHECK();
    const auto widths = thrust::make_transform_iterator(plan.widths.data(), WidenWidth{});
    const auto first_step = thrust::make_transform_iterator(
        thrust::counting_iterator<std::int64_t>(0), IntervalStep{options.interval / bro_coo_lanes, steps});
    cub_call(
        [&](void* workspace, std::size_t& bytes) {
          return cub::DeviceSegmentedReduce::Sum(workspace, bytes, widths, interval_symbols.data(), intervals,
                                                 first_step, first_step + 1, stream);
        },
        "BRO-COO lane bits workspace", stream);
    lane_bits_to_symbols_kernel<<<blocks_for(intervals, build_block), build_block, 0, stream>>>(
        interval_symbols.data(), intervals);
    SPMV_LAUNCH_CHECK();
  }
  plan.shape.rows = plan.source.rows;
  plan.shape.cols = plan.source.cols;
  plan.shape.nnz = nnz;
  plan.shape.intervals = intervals;
  plan.shape.widths = steps;
  plan.shape.symbols = device_sum(interval_symbols.data(), interval_symbols.size(), stream);
  plan.shape.value_bytes = sizeof(T);
  check_bro_coo_symbols(plan.shape.symbols);
  plan.symbol_offset = DeviceBuffer<index_t>(static_cast<std::size_t>(intervals) + 1, "BRO-COO symbol offsets");
  device_offsets(interval_symbols.data(), interval_symbols.size(), plan.symbol_offset.data(), "BRO-COO symbols",
                 stream);
  return plan;
}

template <class T>
DeviceBroCoo<T> pack_bro_coo_on_device(BroCooDevicePlan<T>&& plan, cudaStream_t stream) {
  DeviceBroCoo<T> bro;
  bro.rows = plan.shape.rows;
  bro.cols = plan.shape.cols;
  bro.interval = plan.interval;
  bro.warps = static_cast<index_t>(plan.shape.intervals);
  const auto intervals = static_cast<std::size_t>(bro.warps);
  bro.base_row = DeviceBuffer<index_t>(intervals, "BRO-COO base rows");
  bro.symbols = DeviceBuffer<std::uint32_t>(static_cast<std::size_t>(plan.shape.symbols), "BRO-COO row symbols");
  bro.carry_row = DeviceBuffer<index_t>(intervals, "BRO-COO carry rows");
  bro.carry_value = DeviceBuffer<T>(intervals, "BRO-COO carry values");
  bro.overlap_launches = device_overlaps_launches();
  if (intervals > 0) {
    pack_bro_coo_kernel<<<blocks_for(intervals * warp_size, build_block), build_block, 0, stream>>>(
        plan.source.entries.row_idx.data(), plan.shape.nnz, plan.interval, bro.warps, plan.widths.data(),
        plan.symbol_offset.data(), bro.symbols.data(), bro.base_row.data());
    SPMV_LAUNCH_CHECK();
  }
  bro.widths = std::move(plan.widths);
  bro.symbol_offset = std::move(plan.symbol_offset);
  bro.col_idx = std::move(plan.source.entries.col_idx);
  bro.values = std::move(plan.source.entries.values);
  return bro;
}

template <class T>
DeviceBroCoo<T> build_bro_coo_on_device(const CsrView<T>& a, const BroCooOptions& options, cudaStream_t stream) {
  check_bro_coo_interval(options.interval);
  BroCooEntries<T> source{a.rows, a.cols,
                          device_gather_row_slice(a, device_row_slice_layout(a, 0, static_cast<index_t>(max_index), stream),
                                                  /*with_row_idx=*/true, stream)};
  return pack_bro_coo_on_device(plan_bro_coo_on_device(std::move(source), options, stream), stream);
}

#define SPMV_INSTANTIATE_BRO_COO_DEVICE_BUILD(T)                                                                  \
  template BroCooDevicePlan<T> plan_bro_coo_on_device(BroCooEntries<T>&&, const BroCooOptions&, cudaStream_t); \
  template DeviceBroCoo<T> pack_bro_coo_on_device(BroCooDevicePlan<T>&&, cudaStream_t);                        \
  template DeviceBroCoo<T> build_bro_coo_on_device(const CsrView<T>&, const BroCooOptions&, cudaStream_t);
SPMV_INSTANTIATE_BRO_COO_DEVICE_BUILD(float)
SPMV_INSTANTIATE_BRO_COO_DEVICE_BUILD(double)
#undef SPMV_INSTANTIATE_BRO_COO_DEVICE_BUILD

}  // namespace spmv::detail
