// Deterministic sums over a whole grid, finished by the grid's last block
// (no second launch, no atomics on the values): each block writes its
// partial sums, the block that finishes last adds the partials in block
// order. The result depends only on the grid size, which
// DeviceReducer::grid_for fixes from the vector length.
#pragma once

#include "cuda/block_reduce.cuh"
#include "solvers/device_vectors.hpp"

namespace spmv::detail {

// Sums `values[i]` (each thread's share) over the grid. Returns true in the
// last block to finish, whose thread 0 then holds the totals in `totals`;
// every thread of every block must call it. `slots` must have room for
// gridDim.x * Count partials; its block counter is left at zero for the
// next kernel.
template <int BlockSize, int Count>
__device__ bool grid_sums(const double (&values)[Count], ReductionSlots slots, double (&totals)[Count]) {
  __shared__ double warp_sums[Count][BlockSize / warp_size];
  __shared__ bool is_last_block;
  for (int i = 0; i < Count; ++i) {
    const double block_total = block_sum<BlockSize>(values[i], warp_sums[i]);
    if (threadIdx.x == 0) slots.partials[i * gridDim.x + blockIdx.x] = block_total;
  }
  if (threadIdx.x == 0) {
    __threadfence();  // the partials are visible before the count says so
    is_last_block = atomicAdd(slots.blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last_block) return false;
  for (int i = 0; i < Count; ++i) {
    double share = 0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += BlockSize)
      share += __ldcg(&slots.partials[i * gridDim.x + b]);  // past L1: written by other blocks
    __syncthreads();  // warp_sums[i] is free again
    totals[i] = block_sum<BlockSize>(share, warp_sums[i]);
  }
  if (threadIdx.x == 0) *slots.blocks_done = 0;
  return true;
}

}  // namespace spmv::detail
