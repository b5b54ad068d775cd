// Column indices of 16 bits for the kernels that work by row blocks.
//
// In f32 a CSR entry is 8 bytes, half of them its column; a product that
// streams the matrix from DRAM spends that half on indices. Where the
// columns of a row block (csr_row_blocks.hpp) span fewer than 2^16, each
// entry's column is kept as its offset from the block's smallest column, in
// 2 bytes, and the block's kernel reads those instead of the CSR's 4-byte
// columns: 6 bytes an entry in f32 (10 in f64). Banded, stencil and FEM
// matrices, and most matrices after a locality ordering, have such blocks.
// A block whose columns span more keeps reading the CSR's columns, so every
// matrix is accepted; its offsets are left unwritten and never read. When no
// block fits, nothing is kept.
#pragma once

#include <cstdint>

#include "cuda/csr_row_blocks.hpp"
#include "cuda/vector_loads.cuh"

namespace spmv::detail {

// Blocks whose column span does not fit an offset get this base.
constexpr index_t no_column_base = -1;

// Where a row block reads its columns, as a kernel sees it: bases == nullptr
// when no block reads offsets.
struct ColumnSource {
  const std::uint16_t* offsets;
  const index_t* bases;
  __device__ __forceinline__ index_t base_of(unsigned block) const { return bases ? bases[block] : no_column_base; }
};

struct DeviceColumnOffsets {
  DeviceBuffer<std::uint16_t> offsets;  // one per entry of the matrix; empty when no block fits
  DeviceBuffer<index_t> bases;          // one per row block: its smallest column, or no_column_base
  ColumnSource view() const { return {offsets.data(), bases.data()}; }  // nullptr bases when empty
  std::size_t bytes() const { return offsets.bytes() + bases.bytes(); }
};

// The offsets and bases of `block_count` row blocks over col_idx (nnz
// entries), built on `stream` (both empty when no block's columns fit);
// synchronises, so that the products may run on any stream.
DeviceColumnOffsets build_column_offsets_on_device(const RowBlock* blocks, std::size_t block_count,
                                                   const index_t* col_idx, index_t nnz, cudaStream_t stream);

// The column of entry `k` of a block whose base is `base`.
__device__ __forceinline__ index_t column_of(index_t base, const std::uint16_t* offsets, const index_t* col_idx,
                                             index_t k) {
  return base == no_column_base ? __ldcs(col_idx + k) : base + static_cast<index_t>(__ldcs(offsets + k));
}

// The columns of entries first .. first + V - 1 (first a multiple of V) of
// a block whose base is `base`, by one vector load.
template <int V>
__device__ __forceinline__ void load_columns(index_t base, const std::uint16_t* offsets, const index_t* col_idx,
                                             index_t first, index_t (&out)[V]) {
  if (base == no_column_base) {
    load_streaming_vector<V>(col_idx + first, out);
    return;
  }
  std::uint16_t offset[V];
  load_streaming_vector<V>(offsets + first, offset);
#pragma unroll
  for (int j = 0; j < V; ++j) out[j] = base + static_cast<index_t>(offset[j]);
}

}  // namespace spmv::detail
