// Sub-warp-per-row CSR kernels with compile-time load policies (the engine of
// csr-aligned and csr-vector-tuned; see csr_subwarp_rows.hpp).
//
// A sub-warp of ThreadsPerRow lanes multiplies one row at a time. Its lanes
// step through the row together, each taking VectorWidth consecutive entries
// per step with one 4/8/16-byte load of col_idx and one (or two, for 4
// doubles) of values, so that a step reads ThreadsPerRow * VectorWidth
// consecutive entries, coalesced and evict-first. The first step starts at
// the row start rounded down to `alignment` entries: every load is then
// aligned to its width (and, with alignment = the step, a step covers one
// aligned segment, Baskaran & Bordawekar's aligned access); the lanes whose
// entries lie before the row start or past its end load them (they are the
// neighbours' entries, in the same sectors) but do not use them. x is read
// through the read-only cache or with plain loads. The lanes' sums are
// combined with a shuffle reduction and the first lane writes y.
// Each sub-warp takes rows_per_subwarp rows, consecutive (blocked) or
// strided by the number of sub-warps (cyclic: neighbouring sub-warps take
// neighbouring rows, so row_ptr and y accesses of a warp are contiguous).
#include "cuda/csr_subwarp_rows.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_loads.cuh"
#include "cuda/vector_loads.cuh"

namespace spmv::detail {

namespace {

struct RowAssignment {
  int alignment;
  int rows_per_subwarp;
  bool cyclic;
};

template <bool Cached, class T>
__device__ __forceinline__ T load_x(const T* p) {
  if constexpr (Cached)
    return load_cached(p);
  else
    return *p;
}

// Sum of a_k * x[col_k] over the VectorWidth entries from k (aligned) that lie
// in [begin, end).
template <int VectorWidth, bool CachedX, class T>
__device__ __forceinline__ T entries_sum(const CsrView<T>& a, const T* x, std::int64_t k,
                                         index_t begin, index_t end) {
  T sum = 0;
  if (k + VectorWidth > a.nnz) {  // the matrix's last entries: no load past the arrays
    for (int e = 0; e < VectorWidth; ++e)
      if (k + e >= begin && k + e < end)
        sum += load_streaming(a.values + k + e) * load_x<CachedX>(x + load_streaming(a.col_idx + k + e));
    return sum;
  }
  index_t cols[VectorWidth];
  T vals[VectorWidth];
  load_streaming_vector(a.col_idx + k, cols);
  load_streaming_vector(a.values + k, vals);
#pragma unroll
  for (int e = 0; e < VectorWidth; ++e)
    if (k + e >= begin && k + e < end) sum += vals[e] * load_x<CachedX>(x + cols[e]);
  return sum;
}

template <class T, int ThreadsPerRow, int VectorWidth, bool CachedX>
__global__ void spmv_csr_subwarp_rows_kernel(CsrView<T> a, const T* __restrict__ x,
                                             T* __restrict__ y, T alpha, T beta,
                                             RowAssignment rows) {
  constexpr int step = ThreadsPerRow * VectorWidth;
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t subwarp = thread / ThreadsPerRow;
  const std::int64_t subwarps = static_cast<std::int64_t>(gridDim.x) * blockDim.x / ThreadsPerRow;
  const int lane = threadIdx.x % ThreadsPerRow;
  // The sub-warp's lanes: rows are uniform over a sub-warp, so its lanes stay
  // or leave together and the mask is exact.
  const int first_lane_in_warp = (threadIdx.x % warp_size) / ThreadsPerRow * ThreadsPerRow;
  const unsigned mask =
      ThreadsPerRow == warp_size ? 0xffffffffu : ((1u << ThreadsPerRow) - 1u) << first_lane_in_warp;
  for (int i = 0; i < rows.rows_per_subwarp; ++i) {
    const std::int64_t row = rows.cyclic ? subwarp + i * subwarps : subwarp * rows.rows_per_subwarp + i;
    if (row >= a.rows) break;
    const index_t begin = load_streaming(a.row_ptr + row);
    const index_t end = load_streaming(a.row_ptr + row + 1);
    const std::int64_t first = (begin & ~(rows.alignment - 1)) + lane * VectorWidth;
    T sum = 0;
#pragma unroll 2
    for (std::int64_t k = first; k < end; k += step)
      sum += entries_sum<VectorWidth, CachedX>(a, x, k, begin, end);
    sum = subwarp_sum<ThreadsPerRow>(sum, mask);
    if (lane == 0) store_result(y + row, sum, alpha, beta);
  }
}

template <class T, int ThreadsPerRow, int VectorWidth>
void launch_with_x_policy(const SubwarpRowsConfig& config, unsigned blocks, const CsrView<T>& a,
                          const T* x, T* y, T alpha, T beta, cudaStream_t stream) {
  const RowAssignment rows{config.alignment, config.rows_per_subwarp, config.cyclic_rows};
  if (config.cached_x)
    spmv_csr_subwarp_rows_kernel<T, ThreadsPerRow, VectorWidth, true>
        <<<blocks, config.block_size, 0, stream>>>(a, x, y, alpha, beta, rows);
  else
    spmv_csr_subwarp_rows_kernel<T, ThreadsPerRow, VectorWidth, false>
        <<<blocks, config.block_size, 0, stream>>>(a, x, y, alpha, beta, rows);
}

template <class T, int ThreadsPerRow>
void launch_with_width(const SubwarpRowsConfig& config, unsigned blocks, const CsrView<T>& a,
                       const T* x, T* y, T alpha, T beta, cudaStream_t stream) {
  switch (config.vector_width) {
    case 1: launch_with_x_policy<T, ThreadsPerRow, 1>(config, blocks, a, x, y, alpha, beta, stream); break;
    case 2: launch_with_x_policy<T, ThreadsPerRow, 2>(config, blocks, a, x, y, alpha, beta, stream); break;
    default: launch_with_x_policy<T, ThreadsPerRow, 4>(config, blocks, a, x, y, alpha, beta, stream); break;
  }
}

}  // namespace

template <class T>
void spmv_csr_subwarp_rows(const SubwarpRowsConfig& config, const CsrView<T>& a, const T* x, T* y,
                           T alpha, T beta, cudaStream_t stream) {
  if (a.rows == 0) return;
  const std::size_t subwarps =
      (static_cast<std::size_t>(a.rows) + config.rows_per_subwarp - 1) / config.rows_per_subwarp;
  const unsigned blocks = blocks_for(subwarps * config.threads_per_row, config.block_size);
  switch (config.threads_per_row) {
    case 1: launch_with_width<T, 1>(config, blocks, a, x, y, alpha, beta, stream); break;
    case 2: launch_with_width<T, 2>(config, blocks, a, x, y, alpha, beta, stream); break;
    case 4: launch_with_width<T, 4>(config, blocks, a, x, y, alpha, beta, stream); break;
    case 8: launch_with_width<T, 8>(config, blocks, a, x, y, alpha, beta, stream); break;
    case 16: launch_with_width<T, 16>(config, blocks, a, x, y, alpha, beta, stream); break;
    default: launch_with_width<T, 32>(config, blocks, a, x, y, alpha, beta, stream); break;
  }
  SPMV_LAUNCH_CHECK();
}
template void spmv_csr_subwarp_rows(const SubwarpRowsConfig&, const CsrView<float>&, const float*,
                                    float*, float, float, cudaStream_t);
template void spmv_csr_subwarp_rows(const SubwarpRowsConfig&, const CsrView<double>&, const double*,
                                    double*, double, double, cudaStream_t);

}  // namespace spmv::detail
