// Deterministic sum over the threads of a block (fixed combining order).
#pragma once

#include "cuda/csr_algorithm.hpp"
#include "cuda/device_loads.cuh"

namespace spmv::detail {

// Sum of `value` over a block of BlockSize threads (a multiple of 32); every
// thread must call it. `warp_sums` is shared scratch of BlockSize / 32
// values. The result is valid in thread 0 only.
template <int BlockSize, class T>
__device__ __forceinline__ T block_sum(T value, T* warp_sums) {
  static_assert(BlockSize % warp_size == 0, "block size must be whole warps");
  value = subwarp_sum<warp_size>(value, 0xffffffffu);
  if (threadIdx.x % warp_size == 0) warp_sums[threadIdx.x / warp_size] = value;
  __syncthreads();
  T total = 0;
  if (threadIdx.x == 0)
    for (int w = 0; w < BlockSize / warp_size; ++w) total += warp_sums[w];
  return total;
}

}  // namespace spmv::detail
