// Baskaran's blocked format built on the device from the uploaded CSR,
// its run-time inspection included.
//
// Work decomposition: one thread per row block (b_r consecutive rows) runs
// the host's inspector on its rows (blocked.cpp, walk_row_block): it merges
// the rows' sorted columns, opening a block of b_c columns at the first
// column not yet covered (rounded down to a half-warp), and advances each
// row's cursor past the block. Row blocks are independent, so the greedy
// walk, sequential within a row block, runs in parallel across them; the
// rows' cursors stay in registers (b_r <= 8) and a warp's 32 row blocks read
// adjacent stretches of col_idx.
//
// Pass 1 (the inspection) counts each row block's blocks and half-warp
// units of padded segments; CUB sums them (the footprint: the refusal is
// decided here, before the entries are allocated) and scans them into the
// first block and first unit of every row block. Pass 2 walks again and writes each block's
// column, entry offset and segment lengths, and its segments' entries and
// padding: every entry slot is written once, so nothing is pre-filled.
#include <algorithm>
#include <string>

#include "cuda/blocked_device.hpp"
#include "cuda/device_build.hpp"
#include "formats/blocked_limits.hpp"
#include "spmv/error.hpp"

namespace spmv::detail {

namespace {

constexpr int blocked_build_block = 128;

__device__ __forceinline__ index_t segment_units(index_t begin, index_t end) {
  return (end - begin + blocked_alignment - 1) / blocked_alignment;
}

// Visits the blocks of the row block starting at `first_row` in the host
// inspector's order, calling take(c, q, begin, end) for every row q <
// block_rows of each block (first column c) with its entries [begin, end);
// rows past the matrix are empty (begin = end = 0, as on the host).
template <class T, class Take>
__device__ void walk_row_block(const CsrView<T>& a, index_t first_row, index_t block_rows, index_t block_cols,
                               Take take) {
  index_t cursor[blocked_device_max_block_rows];
  index_t row_end[blocked_device_max_block_rows];
  const index_t rows_here = min(block_rows, a.rows - first_row);
#pragma unroll
  for (int q = 0; q < blocked_device_max_block_rows; ++q) {
    cursor[q] = q < rows_here ? a.row_ptr[first_row + q] : 0;
    row_end[q] = q < rows_here ? a.row_ptr[first_row + q + 1] : 0;
  }
  for (;;) {
    index_t next = static_cast<index_t>(max_index);  // no column reaches it
#pragma unroll
    for (int q = 0; q < blocked_device_max_block_rows; ++q)
      if (cursor[q] < row_end[q]) next = min(next, a.col_idx[cursor[q]]);
    if (next == max_index) return;
    const index_t c = next / blocked_alignment * blocked_alignment;
    const std::int64_t block_end = static_cast<std::int64_t>(c) + block_cols;
#pragma unroll
    for (int q = 0; q < blocked_device_max_block_rows; ++q) {
      if (q >= block_rows) break;
      index_t end = cursor[q];
      while (end < row_end[q] && a.col_idx[end] < block_end) ++end;
      take(c, q, cursor[q], end);
      cursor[q] = end;
    }
  }
}

template <class T>
__global__ void inspect_row_blocks_kernel(CsrView<T> a, index_t block_rows, index_t block_cols, index_t row_blocks,
                                          index_t* blocks, index_t* units) {
  const std::int64_t row_block = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row_block >= row_blocks) return;
  index_t block_count = 0;
  std::int64_t unit_count = 0;
  walk_row_block(a, static_cast<index_t>(row_block * block_rows), block_rows, block_cols,
                 [&](index_t, index_t q, index_t begin, index_t end) {
                   if (q == 0) ++block_count;
                   unit_count += segment_units(begin, end);
                 });
  blocks[row_block] = block_count;
  // Saturated, a row block's count still takes the entries past 32-bit
  // indices, so the format is refused as it must be.
  units[row_block] = static_cast<index_t>(unit_count < max_index ? unit_count : max_index);
}

template <class T>
struct BlockedArrays {
  index_t* block_col;
  index_t* block_entry_ptr;
  std::uint8_t* row_units;
  std::uint16_t* col_offset;
  T* values;
};

template <class T>
__global__ void fill_row_blocks_kernel(CsrView<T> a, index_t block_rows, index_t block_cols, index_t row_blocks,
                                       const index_t* first_block, const index_t* first_unit, BlockedArrays<T> out) {
  const std::int64_t row_block = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row_block >= row_blocks) return;
  index_t block = first_block[row_block];
  index_t entry = first_unit[row_block] * blocked_alignment;
  walk_row_block(a, static_cast<index_t>(row_block * block_rows), block_rows, block_cols,
                 [&](index_t c, index_t q, index_t begin, index_t end) {
                   if (q == 0) {
                     out.block_col[block] = c;
                     out.block_entry_ptr[block] = entry;
                   }
                   const index_t units = segment_units(begin, end);
                   out.row_units[static_cast<std::size_t>(block) * block_rows + q] = static_cast<std::uint8_t>(units);
                   for (index_t k = begin; k < end; ++k, ++entry) {
                     out.col_offset[entry] = static_cast<std::uint16_t>(a.col_idx[k] - c);
                     out.values[entry] = a.values[k];
                   }
                   for (index_t k = end - begin; k < units * blocked_alignment; ++k, ++entry) {
                     out.col_offset[entry] = static_cast<std::uint16_t>(block_cols);
                     out.values[entry] = T(0);
                   }
                   if (q == block_rows - 1) ++block;
                 });
}

}  // namespace

template <class T>
DeviceBlockedInspection inspect_blocked_on_device(const CsrView<T>& a, const BlockedOptions& options,
                                                  cudaStream_t stream) {
  check_blocked_options(options);
  if (options.block_rows > blocked_device_max_block_rows)
    throw InvalidArgument("blocked format: the device build takes block_rows up to " +
                          std::to_string(blocked_device_max_block_rows) + ", got " +
                          std::to_string(options.block_rows));
  const auto row_blocks = static_cast<index_t>((static_cast<std::int64_t>(a.rows) + options.block_rows - 1) /
                                               options.block_rows);
  DeviceBlockedInspection inspection;
  inspection.blocks_per_row_block = DeviceBuffer<index_t>(row_blocks, "blocked blocks per row block");
  inspection.units_per_row_block = DeviceBuffer<index_t>(row_blocks, "blocked units per row block");
  if (row_blocks) {
    inspect_row_blocks_kernel<<<blocks_for(row_blocks, blocked_build_block), blocked_build_block, 0, stream>>>(
        a, options.block_rows, options.block_cols, row_blocks, inspection.blocks_per_row_block.data(),
        inspection.units_per_row_block.data());
    SPMV_LAUNCH_CHECK();
  }
  // At most one block per entry: the count fits 32 bits.
  inspection.blocks = static_cast<index_t>(device_sum(inspection.blocks_per_row_block.data(), row_blocks, stream));
  inspection.stored_entries =
      device_sum(inspection.units_per_row_block.data(), row_blocks, stream) * blocked_alignment;
  return inspection;
}

template <class T>
DeviceBlocked<T> build_blocked_on_device(const CsrView<T>& a, const BlockedOptions& options, cudaStream_t stream) {
  const DeviceBlockedInspection inspection = inspect_blocked_on_device(a, options, stream);
  check_blocked_limit(options, a.rows, a.nnz, sizeof(T), inspection.stored_entries,
                      static_cast<std::size_t>(inspection.blocks));
  DeviceBlocked<T> b;
  b.rows = a.rows;
  b.cols = a.cols;
  b.block_rows = options.block_rows;
  b.block_cols = options.block_cols;
  b.nnz = a.nnz;
  const std::size_t row_blocks = inspection.blocks_per_row_block.size();
  const auto blocks = static_cast<std::size_t>(inspection.blocks);
  const auto entries = static_cast<std::size_t>(inspection.stored_entries);
  b.row_block_ptr = DeviceBuffer<index_t>(row_blocks + 1, "blocked row-block pointers");
  device_offsets(inspection.blocks_per_row_block.data(), row_blocks, b.row_block_ptr.data(), "blocked blocks",
                 stream);
  DeviceBuffer<index_t> first_unit(row_blocks + 1, "blocked first unit of each row block", ScratchOn{stream});
  device_offsets(inspection.units_per_row_block.data(), row_blocks, first_unit.data(), "blocked units", stream);
  b.block_col = DeviceBuffer<index_t>(blocks, "blocked block columns");
  b.block_entry_ptr = DeviceBuffer<index_t>(blocks + 1, "blocked entry pointers");
  b.row_units = DeviceBuffer<std::uint8_t>(blocks * options.block_rows, "blocked segment lengths");
  b.col_offset = DeviceBuffer<std::uint16_t>(entries, "blocked column offsets");
  b.values = DeviceBuffer<T>(entries, "blocked values");
  device_fill(b.block_entry_ptr.data() + blocks, 1, static_cast<index_t>(entries), stream);
  if (row_blocks) {
    fill_row_blocks_kernel<<<blocks_for(row_blocks, blocked_build_block), blocked_build_block, 0, stream>>>(
        a, options.block_rows, options.block_cols, static_cast<index_t>(row_blocks), b.row_block_ptr.data(),
        first_unit.data(),
        BlockedArrays<T>{b.block_col.data(), b.block_entry_ptr.data(), b.row_units.data(), b.col_offset.data(),
                         b.values.data()});
    SPMV_LAUNCH_CHECK();
  }
  return b;
}

#define SPMV_INSTANTIATE_BLOCKED_DEVICE_BUILD(T)                                                                  \
  template DeviceBlockedInspection inspect_blocked_on_device(const CsrView<T>&, const BlockedOptions&,           \
                                                             cudaStream_t);                                      \
  template DeviceBlocked<T> build_blocked_on_device(const CsrView<T>&, const BlockedOptions&, cudaStream_t);
SPMV_INSTANTIATE_BLOCKED_DEVICE_BUILD(float)
SPMV_INSTANTIATE_BLOCKED_DEVICE_BUILD(double)
#undef SPMV_INSTANTIATE_BLOCKED_DEVICE_BUILD

}  // namespace spmv::detail
