// The merge-path decomposition of CSR SpMV (Merrill & Garland, SC'16), shared
// by the merge kernel (csr_merge.cu).
//
// The product is a merge of two sorted lists: the row ends (row_ptr[1..rows])
// and the entry indices 0..nnz-1. Its path has rows + nnz steps; a tile is an
// equal run of steps, whatever the row lengths. Plan time finds the tiles'
// start coordinates by binary search on the path (plan_merge_tiles). A block
// that has a tile's row ends and products in shared memory finishes it with
// finish_merge_tile: each thread walks ItemsPerThread steps from its own
// start, a segmented scan of the threads' carries completes the rows cut
// between threads, and the row still open at the tile's end is returned as
// the tile's carry, which the second pass (SplitRowFixup) adds to y.
#pragma once

#include <cstdint>
#include <vector>

#include "cuda/csr_algorithm.hpp"
#include "cuda/csr_split_rows.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_loads.cuh"

namespace spmv::detail {

// A point of the merge path: `row` row ends and `entry` entries consumed.
struct MergeCoord {
  index_t row;
  index_t entry;
};

// The point where the merge path of a matrix of `rows` rows and `nnz`
// entries crosses `diagonal` (row + entry): row ends go first when their row
// is complete (Merrill & Garland's MergePathSearch).
__device__ inline MergeCoord merge_path_point(const index_t* row_ptr, std::int64_t rows, std::int64_t nnz,
                                              std::int64_t diagonal) {
  std::int64_t low = diagonal > nnz ? diagonal - nnz : 0;
  std::int64_t high = diagonal < rows ? diagonal : rows;
  while (low < high) {
    const std::int64_t mid = (low + high) / 2;
    if (row_ptr[mid + 1] <= diagonal - mid - 1)
      low = mid + 1;
    else
      high = mid;
  }
  return {static_cast<index_t>(low), static_cast<index_t>(diagonal - low)};
}

// Tiles of `tile_size` path steps over a matrix on the device: starts[t] ..
// starts[t + 1] is tile t, and the rows cut by tile ends, whose carries tile
// t writes to slot t. Planned on the device; the starts and the cut rows
// (one flag a tile) are copied back, the row pointers are not.
struct MergeTiles {
  std::int64_t count = 0;
  DeviceBuffer<MergeCoord> starts;  // count + 1
  std::vector<SplitRow> split_rows;
};
MergeTiles plan_merge_tiles(const index_t* row_ptr, index_t rows, index_t nnz, std::int64_t tile_size);

// The sum of a run of path steps that ends inside `row`: its part of that row.
template <class T>
struct RowCarry {
  index_t row;
  T value;
};

// Exclusive scan of the threads' carries in thread order, where carries of
// the same row add up and a new row starts afresh (rows never decrease from
// thread to thread). Thread 0 gets {-1, 0}. Every thread must call it;
// `warp_totals` holds one carry per warp of the block.
template <class T>
__device__ RowCarry<T> exclusive_carry_scan(RowCarry<T> carry, RowCarry<T>* warp_totals) {
  const int lane = threadIdx.x % warp_size;
  const int warp = threadIdx.x / warp_size;
  RowCarry<T> inclusive = carry;
#pragma unroll
  for (int offset = 1; offset < warp_size; offset *= 2) {
    const index_t row = __shfl_up_sync(0xffffffffu, inclusive.row, offset);
    const T value = __shfl_up_sync(0xffffffffu, inclusive.value, offset);
    if (lane >= offset && row == inclusive.row) inclusive.value += value;
  }
  if (lane == warp_size - 1) warp_totals[warp] = inclusive;
  __syncthreads();
  RowCarry<T> before{-1, T(0)};
  for (int w = 0; w < warp; ++w) {
    const RowCarry<T> total = warp_totals[w];
    before = {total.row, total.row == before.row ? before.value + total.value : total.value};
  }
  const index_t previous_row = __shfl_up_sync(0xffffffffu, inclusive.row, 1);
  const T previous_value = __shfl_up_sync(0xffffffffu, inclusive.value, 1);
  if (lane > 0)
    before = {previous_row,
              previous_row == before.row ? before.value + previous_value : previous_value};
  return before;
}

// Finishes a tile of `tile_rows` row ends and `tile_entries` entries starting
// at row `first_row`, once the whole block can read row_end(i) (the end of the
// tile's i-th row, relative to the tile's first entry, for i <= tile_rows)
// and product(j) (a_j * x[col_j] of the tile's j-th entry). Writes y of the
// rows ending in the tile and returns the tile's carry (the sum of the part
// of the row open at its end; meaningful in the last thread only). Every
// thread must call it; it synchronises the block, and the caller must
// synchronise again before `warp_totals` is reused.
template <int ItemsPerThread, class T, class RowEnd, class Product>
__device__ __forceinline__ T finish_merge_tile(RowEnd row_end, Product product, index_t first_row,
                                               index_t tile_rows, index_t tile_entries, T* y,
                                               T alpha, T beta, RowCarry<T>* warp_totals) {
  // This thread's start: the split of its diagonal into row ends i and entries j.
  const index_t tile_steps = tile_rows + tile_entries;
  const index_t diagonal = min(static_cast<index_t>(threadIdx.x * ItemsPerThread), tile_steps);
  index_t low = max(0, diagonal - tile_entries);
  index_t high = min(diagonal, tile_rows);
  while (low < high) {
    const index_t mid = (low + high) / 2;
    if (row_end(mid) <= diagonal - mid - 1)
      low = mid + 1;
    else
      high = mid;
  }
  index_t i = low;
  index_t j = diagonal - low;
  const index_t thread_first_row = first_row + i;

  T running = 0;
  T first_row_sum = 0;
  bool ended_a_row = false;
#pragma unroll
  for (int item = 0; item < ItemsPerThread; ++item) {
    if (i + j < tile_steps) {
      if (j < row_end(i)) {
        running += product(j);
        ++j;
      } else {
        if (ended_a_row)
          store_result(y + first_row + i, running, alpha, beta);
        else
          first_row_sum = running;
        ended_a_row = true;
        running = 0;
        ++i;
      }
    }
  }

  const RowCarry<T> carry{first_row + i, running};
  const RowCarry<T> before = exclusive_carry_scan(carry, warp_totals);
  if (ended_a_row) {
    // Earlier threads of this tile that worked on its first row left their part in `before`.
    const T head = before.row == thread_first_row ? before.value : T(0);
    store_result(y + thread_first_row, head + first_row_sum, alpha, beta);
  }
  return before.row == carry.row ? before.value + carry.value : carry.value;
}

}  // namespace spmv::detail
