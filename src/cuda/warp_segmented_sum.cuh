// The warp-level segmented reduction of the COO kernels (Bell & Garland
// 2008, as in CUSP's coo_flat kernel), shared by coo_segmented.cu and
// bro_coo_segmented.cu: the work split into one interval per warp, the sum
// of one interval, and the second pass over the intervals' carries.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "cuda/csr_algorithm.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/dependent_launch.cuh"
#include "spmv/formats/ellpack_r.hpp"

namespace spmv::detail {

constexpr unsigned full_mask = 0xffffffffu;

// Entries per warp interval for `nnz` entries: one interval per resident warp
// of the GPU, at least 32 entries each, a multiple of 32.
inline index_t interval_per_resident_warp(std::int64_t nnz, const GpuShape& gpu) {
  const std::int64_t resident_warps =
      static_cast<std::int64_t>(gpu.multiprocessors) * gpu.threads_per_multiprocessor / warp_size;
  const std::int64_t per_warp = (nnz + resident_warps - 1) / resident_warps;
  return static_cast<index_t>(std::max<std::int64_t>(1, (per_warp + warp_size - 1) / warp_size) *
                              warp_size);
}

// Sums the (row, value) pairs k in [begin, end) (rows non-decreasing in k)
// with one warp, 32 pairs at a time: lane i calls pair(k, row, value) for
// k = chunk + i of every chunk, in chunk order (past the end with k = end - 1;
// its value is then ignored). Every row that ends before the last pair gets
// y[row] += alpha * sum; the last row's sum is returned in (last_row,
// last_sum) for the caller (begin < end).
template <class T, class Pair>
__device__ void warp_segmented_sum(std::int64_t begin, std::int64_t end, Pair pair, T* y, T alpha,
                                   index_t& last_row, T& last_sum) {
  const int lane = threadIdx.x % warp_size;
  index_t carry_row = -1;
  T carry_sum = 0;
  for (std::int64_t chunk = begin; chunk < end; chunk += warp_size) {
    const std::int64_t k = chunk + lane;
    // Lanes past the end repeat the last row with 0, so that row is carried.
    index_t row;
    T value;
    pair(k < end ? k : end - 1, row, value);
    if (k >= end) value = 0;
    if (lane == 0 && carry_row >= 0) {
      if (row == carry_row)
        value += carry_sum;
      else
        y[carry_row] += alpha * carry_sum;  // the carried row ended with the last chunk
    }
#pragma unroll
    for (int offset = 1; offset < warp_size; offset *= 2) {
      const T other = __shfl_up_sync(full_mask, value, offset);
      const index_t other_row = __shfl_up_sync(full_mask, row, offset);
      if (lane >= offset && other_row == row) value += other;
    }
    const index_t next_row = __shfl_down_sync(full_mask, row, 1);
    if (lane < warp_size - 1 && next_row != row) y[row] += alpha * value;
    carry_row = __shfl_sync(full_mask, row, warp_size - 1);
    carry_sum = __shfl_sync(full_mask, value, warp_size - 1);
  }
  last_row = carry_row;
  last_sum = carry_sum;
}

// One warp: the carries are in interval order, so their rows are non-decreasing.
template <class T>
__global__ void spmv_coo_carries_kernel(const index_t* carry_row, const T* carry_value,
                                        index_t warps, T* y, T alpha) {
  wait_for_previous_kernel();  // for the carries
  index_t row;
  T sum;
  warp_segmented_sum(
      0, warps,
      [&](std::int64_t k, index_t& r, T& v) {
        r = carry_row[k];
        v = carry_value[k];
      },
      y, alpha, row, sum);
  if (threadIdx.x == 0) y[row] += alpha * sum;
}

// y += alpha * (the carries of `warps` intervals), after their first pass
// (overlapping it when `overlap`: dependent_launch.cuh).
template <class T>
void add_interval_carries(const index_t* carry_row, const T* carry_value, index_t warps, T* y,
                          T alpha, cudaStream_t stream, bool overlap) {
  launch_kernel(overlap, 1, warp_size, 0, stream, spmv_coo_carries_kernel<T>, carry_row, carry_value, warps, y,
                alpha);
}

}  // namespace spmv::detail
