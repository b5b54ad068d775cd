// build_column_offsets_on_device (csr_column_offsets.hpp): one thread block
// per row block finds the block's smallest and largest column and its base
// (counting the blocks that fit); then, only if some fit, the offsets are
// allocated and one thread block per fitting row block writes them.
#include <cub/block/block_reduce.cuh>
#include <cuda/functional>

#include "cuda/csr_column_offsets.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_build.hpp"

namespace spmv::detail {

namespace {

constexpr int offsets_block = 256;
constexpr index_t widest_offset = 0xffff;

__global__ void column_bases_kernel(const RowBlock* blocks, const index_t* col_idx, index_t* bases,
                                    std::uint32_t* fitting_blocks) {
  using Reduce = cub::BlockReduce<index_t, offsets_block>;
  __shared__ typename Reduce::TempStorage scratch;
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
  if (threadIdx.x != 0) return;
  if (highest < 0) {  // an empty block (rows without entries) reads no column
    bases[blockIdx.x] = no_column_base;
    return;
  }
  const bool fits = highest - lowest <= widest_offset;
  bases[blockIdx.x] = fits ? lowest : no_column_base;
  if (fits) atomicAdd(fitting_blocks, 1u);
}

__global__ void column_offsets_kernel(const RowBlock* blocks, const index_t* bases, const index_t* col_idx,
                                      std::uint16_t* offsets) {
  const index_t base = bases[blockIdx.x];
  if (base == no_column_base) return;
  const RowBlock block = blocks[blockIdx.x];
  for (index_t k = block.entry_begin + static_cast<index_t>(threadIdx.x); k < block.entry_end; k += offsets_block)
    offsets[k] = static_cast<std::uint16_t>(col_idx[k] - base);
}

}  // namespace

DeviceColumnOffsets build_column_offsets_on_device(const RowBlock* blocks, std::size_t block_count,
                                                   const index_t* col_idx, index_t nnz, cudaStream_t stream) {
  DeviceColumnOffsets out;
  if (block_count == 0) return out;
  out.bases = DeviceBuffer<index_t>(block_count, "16-bit column offsets: bases");
  DeviceBuffer<std::uint32_t> fitting(1, "16-bit column offsets: blocks that fit");
  SPMV_CUDA_CHECK(cudaMemsetAsync(fitting.data(), 0, fitting.bytes(), stream));
  const auto grid = static_cast<unsigned>(block_count);
  column_bases_kernel<<<grid, offsets_block, 0, stream>>>(blocks, col_idx, out.bases.data(), fitting.data());
  SPMV_LAUNCH_CHECK();
  if (device_value(fitting.data(), stream) == 0) return {};
  out.offsets = DeviceBuffer<std::uint16_t>(static_cast<std::size_t>(nnz), "16-bit column offsets");
  column_offsets_kernel<<<grid, offsets_block, 0, stream>>>(blocks, out.bases.data(), col_idx, out.offsets.data());
  SPMV_LAUNCH_CHECK();
  SPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  return out;
}

}  // namespace spmv::detail
