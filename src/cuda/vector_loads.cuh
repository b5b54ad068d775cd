// Wide (8/16/32-byte) loads and stores of V consecutive elements, for the
// kernels that read col_idx/values with vector instructions (the thesis's
// float2/float4 variants; 16-byte accesses are Hopper's widest per lane).
//
// `p` must be aligned to V elements (the caller aligns the index; the arrays
// come from cudaMalloc, aligned to 256 bytes). Loads are evict-first like
// load_streaming: matrix data is read once per product.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "cuda/csr_algorithm.hpp"
#include "spmv/error.hpp"

namespace spmv::detail {

template <class T>
struct Vector2;
template <>
struct Vector2<int> { using type = int2; };
template <>
struct Vector2<float> { using type = float2; };
template <>
struct Vector2<double> { using type = double2; };
template <>
struct Vector2<std::uint16_t> { using type = ushort2; };

template <class T>
struct Vector4;
template <>
struct Vector4<int> { using type = int4; };
template <>
struct Vector4<float> { using type = float4; };
template <>
struct Vector4<std::uint16_t> { using type = ushort4; };

// out[0..V) = p[0..V), V in {1, 2, 4}.
template <int V, class T>
__device__ __forceinline__ void load_streaming_vector(const T* p, T (&out)[V]) {
  static_assert(V == 1 || V == 2 || V == 4, "vector width must be 1, 2 or 4");
  if constexpr (V == 1) {
    out[0] = __ldcs(p);
  } else if constexpr (V == 2) {
    const auto v = __ldcs(reinterpret_cast<const typename Vector2<T>::type*>(p));
    out[0] = v.x;
    out[1] = v.y;
  } else if constexpr (sizeof(T) == 8) {  // 32 bytes: two 16-byte loads
    const auto lo = __ldcs(reinterpret_cast<const typename Vector2<T>::type*>(p));
    const auto hi = __ldcs(reinterpret_cast<const typename Vector2<T>::type*>(p + 2));
    out[0] = lo.x;
    out[1] = lo.y;
    out[2] = hi.x;
    out[3] = hi.y;
  } else {
    const auto v = __ldcs(reinterpret_cast<const typename Vector4<T>::type*>(p));
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
    out[3] = v.w;
  }
}

// p[0..V) = in[0..V), V in {1, 2, 4}; an ordinary (cached) store.
template <int V, class T>
__device__ __forceinline__ void store_vector(T* p, const T (&in)[V]) {
  static_assert(V == 1 || V == 2 || V == 4, "vector width must be 1, 2 or 4");
  using V2 = typename Vector2<T>::type;
  if constexpr (V == 1) {
    *p = in[0];
  } else if constexpr (V == 2) {
    *reinterpret_cast<V2*>(p) = V2{in[0], in[1]};
  } else if constexpr (sizeof(T) == 8) {
    reinterpret_cast<V2*>(p)[0] = V2{in[0], in[1]};
    reinterpret_cast<V2*>(p)[1] = V2{in[2], in[3]};
  } else {
    *reinterpret_cast<typename Vector4<T>::type*>(p) = {in[0], in[1], in[2], in[3]};
  }
}

// Plan time: the kernels using these loads need col_idx and values aligned
// to 32 bytes (true of whole cudaMalloc'd arrays, not of views into them).
template <class T>
void require_vector_alignment(const CsrView<T>& a, const std::string& kernel) {
  const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 32 == 0; };
  if (!aligned(a.col_idx) || !aligned(a.values))
    throw InvalidArgument("kernel '" + kernel +
                          "': vector loads need col_idx and values aligned to 32 bytes");
}

}  // namespace spmv::detail
