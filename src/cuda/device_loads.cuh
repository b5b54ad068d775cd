// Loads with explicit cache behaviour, shared by the kernels.
//
// Matrix arrays are read once per product: load_streaming marks them
// evict-first so that they do not push x (re-read by many rows) out of L2 and
// L1. x goes through the read-only path (load_cached).
#pragma once

#include <cuda_runtime.h>

namespace spmv::detail {

template <class T>
__device__ __forceinline__ T load_streaming(const T* p) {
  return __ldcs(p);
}

template <class T>
__device__ __forceinline__ T load_cached(const T* p) {
  return __ldg(p);
}

// Sum over the `Width` consecutive lanes of a sub-warp (Width a power of two
// <= 32). All lanes named in `mask` must take part; every lane gets the sum.
template <int Width, class T>
__device__ __forceinline__ T subwarp_sum(T value, unsigned mask) {
#pragma unroll
  for (int offset = Width / 2; offset > 0; offset /= 2)
    value += __shfl_xor_sync(mask, value, offset, Width);
  return value;
}

// y = alpha * sum + beta * y, not reading y when beta == 0.
template <class T>
__device__ __forceinline__ void store_result(T* y, T sum, T alpha, T beta) {
  *y = beta == T(0) ? alpha * sum : alpha * sum + beta * *y;
}

}  // namespace spmv::detail
