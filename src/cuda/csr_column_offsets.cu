// build_column_offsets_on_device (csr_column_offsets.hpp): one thread block
// per row block finds the block's smallest and largest column, then, where
// they are fewer than 2^16 apart, writes every entry's offset.
#include <cub/block/block_reduce.cuh>
#include <cuda/functional>

#include "cuda/csr_column_offsets.hpp"
#include "cuda/cuda_check.hpp"

namespace spmv::detail {

namespace {

constexpr int offsets_block = 256;
constexpr index_t widest_offset = 0xffff;

__global__ void column_offsets_kernel(const RowBlock* blocks, const index_t* col_idx, std::uint16_t* offsets,
                                      index_t* bases) {
  using Reduce = cub::BlockReduce<index_t, offsets_block>;
  __shared__ typename Reduce::TempStorage scratch;
  __shared__ index_t block_min;
  const RowBlock block = blocks[blockIdx.x];
  index_t lowest = INT32_MAX, highest = -1;
  for (index_t k = block.entry_begin + static_cast<index_t>(threadIdx.x); k < block.entry_end; k += offsets_block) {
    const index_t c = col_idx[k];
    lowest = min(lowest, c);
    highest = max(highest, c);
  }
  lowest = Reduce(scratch).Reduce(lowest, cuda::minimum<index_t>());
  __syncthreads();  // the scratch is used again
  highest = Reduce(scratch).Reduce(highest, cuda::maximum<index_t>());
  if (threadIdx.x == 0) {
    // An empty block (rows without entries) reads no column: any base will do.
    const bool fits = highest < 0 || highest - lowest <= widest_offset;
    block_min = fits ? (highest < 0 ? 0 : lowest) : no_column_base;
    bases[blockIdx.x] = block_min;
  }
  __syncthreads();
  const index_t base = block_min;
  if (base == no_column_base) return;
  for (index_t k = block.entry_begin + static_cast<index_t>(threadIdx.x); k < block.entry_end; k += offsets_block)
    offsets[k] = static_cast<std::uint16_t>(col_idx[k] - base);
}

}  // namespace

DeviceColumnOffsets build_column_offsets_on_device(const RowBlock* blocks, std::size_t block_count,
                                                   const index_t* col_idx, index_t nnz, cudaStream_t stream) {
  DeviceColumnOffsets out{DeviceBuffer<std::uint16_t>(static_cast<std::size_t>(nnz), "16-bit column offsets"),
                          DeviceBuffer<index_t>(block_count, "16-bit column offsets: bases")};
  if (block_count == 0) return out;
  column_offsets_kernel<<<static_cast<unsigned>(block_count), offsets_block, 0, stream>>>(
      blocks, col_idx, out.offsets.data(), out.bases.data());
  SPMV_LAUNCH_CHECK();
  SPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  return out;
}

}  // namespace spmv::detail
