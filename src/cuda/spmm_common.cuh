// What the SpMM kernels share.
//
// Tiles: pieces of rows of the dense operands B and C, read and written with
// wide accesses (Count consecutive values in accesses of Width values each,
// Width 1, 2 or 4, 16 bytes at most). Width > 1 needs the address aligned to
// Width values; rows_allow_width() says when a whole operand allows it. B is
// re-read by many rows of A, so its loads go through the read-only cache.
//
// Column passes: a kernel that computes `Columns` columns of C per pass runs
// ceil(k / Columns) passes in one grid, the pass index varying fastest over
// the blocks, so that the blocks of all passes over the same rows of A run
// at about the same time and all but the first find A in L2.
//
// Dispatch: runtime lane counts and tile widths become template arguments.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "cuda/device_loads.cuh"

namespace spmv::detail {

template <class T, int Width>
struct WideValue;
template <class T>
struct WideValue<T, 1> {
  using type = T;
};
template <>
struct WideValue<float, 2> {
  using type = float2;
};
template <>
struct WideValue<float, 4> {
  using type = float4;
};
template <>
struct WideValue<double, 2> {
  using type = double2;
};

// Values per 16-byte access.
template <class T>
constexpr int widest_access = static_cast<int>(16 / sizeof(T));

// out[0..Count) = p[0..Count) through the read-only cache.
template <int Count, int Width, class T>
__device__ __forceinline__ void load_tile(const T* p, T (&out)[Count]) {
  static_assert(Count % Width == 0, "a tile is a whole number of accesses");
  using Wide = typename WideValue<T, Width>::type;
#pragma unroll
  for (int i = 0; i < Count; i += Width) {
    const Wide v = __ldg(reinterpret_cast<const Wide*>(p + i));
    const T* parts = reinterpret_cast<const T*>(&v);
#pragma unroll
    for (int w = 0; w < Width; ++w) out[i + w] = parts[w];
  }
}

// p[0..Count) = alpha * sum + beta * p, not reading p when beta == 0.
template <int Count, int Width, class T>
__device__ __forceinline__ void store_tile(T* p, const T (&sum)[Count], T alpha, T beta) {
  static_assert(Count % Width == 0, "a tile is a whole number of accesses");
  using Wide = typename WideValue<T, Width>::type;
#pragma unroll
  for (int i = 0; i < Count; i += Width) {
    Wide v;
    T* parts = reinterpret_cast<T*>(&v);
    if (beta != T(0)) v = *reinterpret_cast<const Wide*>(p + i);
#pragma unroll
    for (int w = 0; w < Width; ++w)
      parts[w] = beta == T(0) ? alpha * sum[i + w] : alpha * sum[i + w] + beta * parts[w];
    *reinterpret_cast<Wide*>(p + i) = v;
  }
}

// True when every row of a row-major operand with `k` columns starts on a
// `width`-value boundary, given its first row does (pointers aligned to
// `width` values).
template <class T>
inline bool rows_allow_width(const T* b, const T* c, std::int64_t k, int width) {
  const auto aligned = [width](const void* p) {
    return reinterpret_cast<std::uintptr_t>(p) % (width * sizeof(T)) == 0;
  };
  return k % width == 0 && aligned(b) && aligned(c);
}

// The lanes of this thread's group of `Group` consecutive lanes (a power of
// two <= 32) as a shuffle mask. Groups must leave a kernel as a whole.
template <int Group>
__device__ __forceinline__ unsigned group_mask() {
  if constexpr (Group == 32) {
    return 0xffffffffu;
  } else {
    const int first_lane = static_cast<int>(threadIdx.x % 32) / Group * Group;
    return ((1u << Group) - 1u) << first_lane;
  }
}

// Grid of `row_blocks` x `passes` blocks, pass fastest (see above).
struct PassBlock {
  unsigned pass;
  unsigned row_block;
};
__device__ __forceinline__ PassBlock pass_block(unsigned passes) {
  return {blockIdx.x % passes, blockIdx.x / passes};
}

// Calls f(std::integral_constant<int, v>{}) for v = value, a power of two in [1, 32].
template <class F>
void with_power_of_two(int value, F&& f) {
  switch (value) {
    case 1:
      f(std::integral_constant<int, 1>{});
      break;
    case 2:
      f(std::integral_constant<int, 2>{});
      break;
    case 4:
      f(std::integral_constant<int, 4>{});
      break;
    case 8:
      f(std::integral_constant<int, 8>{});
      break;
    case 16:
      f(std::integral_constant<int, 16>{});
      break;
    default:
      f(std::integral_constant<int, 32>{});
      break;
  }
}

// The largest power of two <= value (1 for value < 2), at most 32.
inline int power_of_two_at_most(double value) {
  int p = 1;
  while (p < 32 && 2.0 * p <= value) p *= 2;
  return p;
}

}  // namespace spmv::detail
