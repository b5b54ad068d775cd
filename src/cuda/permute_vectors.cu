// Work decomposition: one thread per entry of the n x k block, in a
// grid-stride loop over the entries in memory order of the reordered-side
// block (gather: `out`, scatter: `in`), so that side is coalesced;
// the permuted side is read or written at order[i], scattered by rows (for a
// row-major block, the k entries of a row stay contiguous). Nothing cached.
#include <algorithm>

#include "cuda/csr_algorithm.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/permute_vectors.hpp"

namespace spmv::detail {

namespace {

constexpr int threads_per_block = 256;

// (row, column) of entry e in memory order, and the position of (row, column).
struct BlockShape {
  std::size_t n, k;
  bool row_major;
  __device__ std::size_t row_of(std::size_t e) const { return row_major ? e / k : e % n; }
  __device__ std::size_t column_of(std::size_t e) const { return row_major ? e % k : e / n; }
  __device__ std::size_t at(std::size_t row, std::size_t column) const {
    return row_major ? row * k + column : row + column * n;
  }
};

template <class T>
__global__ void gather_rows_kernel(const index_t* __restrict__ order, BlockShape shape,
                                   const T* __restrict__ in, T* __restrict__ out) {
  const std::size_t entries = shape.n * shape.k;
  for (std::size_t e = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; e < entries;
       e += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t source_row = static_cast<std::size_t>(order[shape.row_of(e)]);
    out[e] = in[shape.at(source_row, shape.column_of(e))];
  }
}

template <class T>
__global__ void scatter_rows_kernel(const index_t* __restrict__ order, BlockShape shape,
                                    const T* __restrict__ in, T* __restrict__ out, T alpha,
                                    T beta) {
  const std::size_t entries = shape.n * shape.k;
  for (std::size_t e = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; e < entries;
       e += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t target_row = static_cast<std::size_t>(order[shape.row_of(e)]);
    T& target = out[shape.at(target_row, shape.column_of(e))];
    const T value = alpha * in[e];
    target = beta == T(0) ? value : value + beta * target;
  }
}

BlockShape shape_of(index_t n, index_t k, Layout layout) {
  return {static_cast<std::size_t>(n), static_cast<std::size_t>(k), layout == Layout::row_major};
}

unsigned grid_for(index_t n, index_t k) {
  return std::min(blocks_for(static_cast<std::size_t>(n) * k, threads_per_block), 65535u);
}

}  // namespace

template <class T>
void gather_rows(const index_t* order, index_t n, index_t k, Layout layout, const T* in, T* out,
                 cudaStream_t stream) {
  if (n == 0 || k == 0) return;
  gather_rows_kernel<<<grid_for(n, k), threads_per_block, 0, stream>>>(order, shape_of(n, k, layout),
                                                                        in, out);
  SPMV_LAUNCH_CHECK();
}

template <class T>
void scatter_rows(const index_t* order, index_t n, index_t k, Layout layout, const T* in, T* out,
                  T alpha, T beta, cudaStream_t stream) {
  if (n == 0 || k == 0) return;
  scatter_rows_kernel<<<grid_for(n, k), threads_per_block, 0, stream>>>(
      order, shape_of(n, k, layout), in, out, alpha, beta);
  SPMV_LAUNCH_CHECK();
}

#define SPMV_INSTANTIATE(T)                                                                    \
  template void gather_rows(const index_t*, index_t, index_t, Layout, const T*, T*,            \
                            cudaStream_t);                                                     \
  template void scatter_rows(const index_t*, index_t, index_t, Layout, const T*, T*, T, T,     \
                             cudaStream_t);
SPMV_INSTANTIATE(float)
SPMV_INSTANTIATE(double)
#undef SPMV_INSTANTIATE

}  // namespace spmv::detail
