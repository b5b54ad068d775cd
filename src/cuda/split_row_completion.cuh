// The device side of SplitRowCompletion (csr_split_rows.hpp): the block of a
// split row's piece stores its partial sum, and the block that stores the
// row's last one adds them all and writes y.
#pragma once

#include "cuda/block_reduce.cuh"
#include "cuda/csr_split_rows.hpp"
#include "cuda/device_loads.cuh"

namespace spmv::detail {

// Every thread of the block calls it, `sum` (valid in thread 0) being piece
// `slot`'s partial. The partials are added in the order of their slots over
// the block's threads, whichever block comes last, so the result does not
// change from one product to the next.
template <int BlockSize, class T>
__device__ __forceinline__ void complete_split_row_piece(const SplitRowsInKernel& split, index_t slot, T sum,
                                                         T* partials, T* y, T alpha, T beta, T* warp_sums) {
  __shared__ bool last_piece;
  const index_t row = split.row_of_partial[slot];
  if (threadIdx.x == 0) {
    partials[slot] = sum;
    __threadfence();  // the partial is seen by whichever block comes last
    last_piece = atomicAdd(split.arrivals + row, 1u) + 1 == static_cast<unsigned>(split.rows[row].count);
    if (last_piece) __threadfence();  // the others' partials, seen before our count, are read after it
  }
  __syncthreads();
  if (!last_piece) return;
  const SplitRow pieces = split.rows[row];
  T total = 0;
  for (index_t k = threadIdx.x; k < pieces.count; k += BlockSize) total += __ldcg(partials + pieces.first + k);
  total = block_sum<BlockSize>(total, warp_sums);
  if (threadIdx.x == 0) {
    store_result(y + pieces.row, total, alpha, beta);
    split.arrivals[row] = 0;  // every piece has come: ready for the next product
  }
}

}  // namespace spmv::detail
