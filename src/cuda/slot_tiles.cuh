// Writing CSR rows into a padded slot layout (ELL, ELLR-T, SELL) through
// shared memory. A block stages a tile of up to 64 rows, 32 entries of each
// at a time: it reads each row's entries side by side (coalesced), then
// writes the tile's slots, T x (its rows) consecutive ones for each group of
// T entries, so reads and writes move whole sectors and every slot, padding
// included, is written once. (A thread per slot gathering from the CSR read
// each sector of A up to eight times: ELLR-T of block-FEM 80 in f32 took 2.7
// ms, 18 products; SELL of the 27-point stencil 150^3 3.8 ms.)
//
// A layout says, for block b, which rows its tile holds and where their
// slots go:
//   struct Layout {
//     index_t entries_per_row;          // entries kept of a row (the rest dropped)
//     index_t threads_per_row;          // T: a power of two, at most 32
//     __device__ Tile tile(unsigned block) const;
//     __device__ index_t row(const Tile&, int i) const;   // -1: padding only
//     __device__ std::size_t slot(const Tile&, index_t group, int i, index_t lane) const;
//   };
// with Tile holding at least `rows` (<= slot_tile_rows) and `groups` (slot
// groups of T entries, the tile's width / T).
#pragma once

#include "cuda/csr_algorithm.hpp"
#include "cuda/cuda_check.hpp"

namespace spmv::detail {

constexpr int slot_tile_rows = 64;
constexpr int slot_tile_entries = 32;  // a multiple of every T
constexpr int slot_tile_block = 256;

template <class T, class Layout>
__global__ void __launch_bounds__(slot_tile_block) write_slot_tiles_kernel(CsrView<T> a, Layout layout,
                                                                           index_t* col_idx, T* values) {
  __shared__ index_t row_first[slot_tile_rows];
  __shared__ index_t row_kept[slot_tile_rows];  // entries kept
  __shared__ index_t tile_columns[slot_tile_rows][slot_tile_entries + 1];  // + 1: rows in different banks
  __shared__ T tile_values[slot_tile_rows][slot_tile_entries + 1];
  const auto tile = layout.tile(blockIdx.x);
  const index_t tpr = layout.threads_per_row;
  for (int i = threadIdx.x; i < tile.rows; i += blockDim.x) {
    const index_t r = layout.row(tile, i);
    row_first[i] = r >= 0 ? a.row_ptr[r] : 0;
    row_kept[i] = r >= 0 ? min(a.row_ptr[r + 1] - a.row_ptr[r], layout.entries_per_row) : 0;
  }
  const std::int64_t entries = static_cast<std::int64_t>(tile.groups) * tpr;
  for (index_t first_entry = 0; first_entry < entries; first_entry += slot_tile_entries) {
    __syncthreads();  // the rows are known; the previous window's slots are out
    // Narrow layouts (a 5-point stencil's 5 entries) stage no more than their width.
    const auto window = static_cast<int>(min(static_cast<std::int64_t>(slot_tile_entries), entries - first_entry));
    for (int f = threadIdx.x; f < tile.rows * window; f += blockDim.x) {
      const int i = f / window, j = f % window;
      const bool stored = first_entry + j < row_kept[i];
      tile_columns[i][j] = stored ? a.col_idx[row_first[i] + first_entry + j] : padding_column;
      tile_values[i][j] = stored ? a.values[row_first[i] + first_entry + j] : T(0);
    }
    __syncthreads();
    const index_t groups = min(static_cast<index_t>(slot_tile_entries / tpr), tile.groups - first_entry / tpr);
    const index_t per_group = tile.rows * tpr;
    for (index_t f = threadIdx.x; f < groups * per_group; f += blockDim.x) {
      const index_t group_in_window = f / per_group, i = f % per_group / tpr, lane = f % tpr;
      const std::size_t slot = layout.slot(tile, first_entry / tpr + group_in_window, static_cast<int>(i), lane);
      col_idx[slot] = tile_columns[i][group_in_window * tpr + lane];
      values[slot] = tile_values[i][group_in_window * tpr + lane];
    }
  }
}

// One block per tile of the layout.
template <class T, class Layout>
void write_slot_tiles(const CsrView<T>& a, const Layout& layout, std::size_t tiles, index_t* col_idx, T* values,
                      cudaStream_t stream) {
  if (tiles == 0) return;
  write_slot_tiles_kernel<<<static_cast<unsigned>(tiles), slot_tile_block, 0, stream>>>(a, layout, col_idx, values);
  SPMV_LAUNCH_CHECK();
}

}  // namespace spmv::detail
