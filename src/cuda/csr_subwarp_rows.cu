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
// Each sub-warp takes rows_per_subwarp rows: consecutive (blocked), strided
// by the number of sub-warps (cyclic: neighbouring sub-warps take
// neighbouring rows, so row_ptr and y accesses of a warp are contiguous), or
// swept by the block (each block owns a contiguous range of rows and its
// sub-warps take neighbouring rows at each round: the rows of one block reuse
// the x lines of the rows before them from L1, and a block lives long enough
// that the time its warps wait for the slowest one is small).
#include "cuda/csr_subwarp_rows.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_loads.cuh"
#include "cuda/vector_loads.cuh"

namespace spmv::detail {

namespace {

// How the sub-warps' rows are chosen (see RowOrder).
struct RowAssignment {
  int alignment;
  int rows_per_subwarp;
  RowOrder order;
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
__device__ __forceinline__ T entries_sum(const CsrView<T>& a, const T* x, unsigned k,
                                         unsigned begin, unsigned end) {
  T sum = 0;
  // The matrix's last entries: no load past the arrays.
  if (k + VectorWidth > static_cast<unsigned>(a.nnz)) {
    for (unsigned e = 0; e < VectorWidth; ++e)
      if (k + e >= begin && k + e < end)
        sum += load_streaming(a.values + k + e) *
               load_x<CachedX>(x + load_streaming(a.col_idx + k + e));
    return sum;
  }
  index_t cols[VectorWidth];
  T vals[VectorWidth];
  load_streaming_vector(a.col_idx + k, cols);
  load_streaming_vector(a.values + k, vals);
#pragma unroll
  for (unsigned e = 0; e < VectorWidth; ++e)
    if (k + e >= begin && k + e < end) sum += vals[e] * load_x<CachedX>(x + cols[e]);
  return sum;
}

// Registers decide how many warps an SM holds, and this kernel lives on
// warps in flight: at most 32 registers keep 2048 threads resident. Measured
// on H200 (2026-11-22): stencil27 n=150 f64 with 8 rows per sub-warp swept
// by blocks took 0.329 ms capped at 32 registers and 0.360 ms at the 42 the
// compiler chose; a variant multiplying two rows at once (more loads in
// flight, 40 registers) was slower everywhere (docs/perf-notes.md).
constexpr int subwarp_max_registers = 32;

// Row indices are unsigned 32-bit: first_row + j * stride stays below
// rows + stride < 2^32, and 32-bit arithmetic keeps the register count low.
template <class T, int ThreadsPerRow, int VectorWidth, bool CachedX>
__global__ void __maxnreg__(subwarp_max_registers)
    spmv_csr_subwarp_rows_kernel(CsrView<T> a, const T* __restrict__ x, T* __restrict__ y, T alpha,
                                 T beta, RowAssignment rows) {
  constexpr unsigned step = ThreadsPerRow * VectorWidth;
  const unsigned subwarps_per_block = blockDim.x / ThreadsPerRow;
  const unsigned subwarp_in_block = threadIdx.x / ThreadsPerRow;
  const unsigned lane = threadIdx.x % ThreadsPerRow;
  const unsigned row_count = a.rows;
  unsigned first_row = 0, stride = 1;
  switch (rows.order) {
    case RowOrder::blocked:
      first_row = (blockIdx.x * subwarps_per_block + subwarp_in_block) * rows.rows_per_subwarp;
      break;
    case RowOrder::cyclic:
      first_row = blockIdx.x * subwarps_per_block + subwarp_in_block;
      stride = gridDim.x * subwarps_per_block;
      break;
    case RowOrder::block_sweep:
      first_row = blockIdx.x * subwarps_per_block * rows.rows_per_subwarp + subwarp_in_block;
      stride = subwarps_per_block;
      break;
  }
  // The sub-warp's lanes: rows are uniform over a sub-warp, so its lanes stay
  // or leave together and the mask is exact.
  const unsigned first_lane_in_warp = (threadIdx.x % warp_size) / ThreadsPerRow * ThreadsPerRow;
  const unsigned mask =
      ThreadsPerRow == warp_size ? 0xffffffffu : ((1u << ThreadsPerRow) - 1u) << first_lane_in_warp;
  const unsigned round_down = ~static_cast<unsigned>(rows.alignment - 1);
  for (int i = 0; i < rows.rows_per_subwarp; ++i) {
    const unsigned row = first_row + i * stride;
    if (row >= row_count) break;
    const unsigned begin = load_streaming(a.row_ptr + row);
    const unsigned end = load_streaming(a.row_ptr + row + 1);
    T sum = 0;
#pragma unroll 2
    for (unsigned k = (begin & round_down) + lane * VectorWidth; k < end; k += step)
      sum += entries_sum<VectorWidth, CachedX>(a, x, k, begin, end);
    sum = subwarp_sum<ThreadsPerRow>(sum, mask);
    if (lane == 0) store_result(y + row, sum, alpha, beta);
  }
}

template <class T, int ThreadsPerRow, int VectorWidth>
void launch_with_x_policy(const SubwarpRowsConfig& config, unsigned blocks, const CsrView<T>& a,
                          const T* x, T* y, T alpha, T beta, cudaStream_t stream) {
  const RowAssignment rows{config.alignment, config.rows_per_subwarp, config.row_order};
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
    case 1:
      launch_with_x_policy<T, ThreadsPerRow, 1>(config, blocks, a, x, y, alpha, beta, stream);
      break;
    case 2:
      launch_with_x_policy<T, ThreadsPerRow, 2>(config, blocks, a, x, y, alpha, beta, stream);
      break;
    default:
      launch_with_x_policy<T, ThreadsPerRow, 4>(config, blocks, a, x, y, alpha, beta, stream);
      break;
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
