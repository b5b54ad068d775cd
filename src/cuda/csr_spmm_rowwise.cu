// Row-wise CSR SpMM: a warp per row of A, its lanes over columns of B and C.
//
// For each entry a_ij of the row (read by all lanes: one broadcast load), lane
// l adds a_ij * B(j, j0 + l). With row-major B the lanes read one contiguous
// piece of row j of B (coalesced); with column-major B they read a strided
// pattern (correct, slower). A is read once per 32 columns of B.
#include "cuda/csr_spmm.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_loads.cuh"

namespace spmv::detail {

namespace {
template <class T, bool RowMajor>
__global__ void spmm_csr_rowwise_kernel(CsrView<T> a, const T* __restrict__ b, T* __restrict__ c,
                                        index_t k, T alpha, T beta) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t row = static_cast<index_t>(thread / warp_size);
  const int lane = threadIdx.x % warp_size;
  if (row >= a.rows) return;
  const index_t begin = a.row_ptr[row];
  const index_t end = a.row_ptr[row + 1];
  for (index_t j0 = 0; j0 < k; j0 += warp_size) {
    const index_t j = j0 + lane;
    if (j >= k) break;
    T sum = 0;
    for (index_t p = begin; p < end; ++p) {
      const index_t col = a.col_idx[p];
      const T b_value = RowMajor ? load_cached(b + static_cast<std::size_t>(col) * k + j)
                                 : load_cached(b + static_cast<std::size_t>(j) * a.cols + col);
      sum += a.values[p] * b_value;
    }
    T* out = RowMajor ? c + static_cast<std::size_t>(row) * k + j
                      : c + static_cast<std::size_t>(j) * a.rows + row;
    store_result(out, sum, alpha, beta);
  }
}
}  // namespace

template <class T>
void spmm_csr_rowwise(const CsrView<T>& a, const T* b, T* c, index_t k, Layout layout, T alpha,
                      T beta, cudaStream_t stream) {
  if (a.rows == 0 || k == 0) return;
  constexpr int block = 256;
  const unsigned blocks = blocks_for(static_cast<std::size_t>(a.rows) * warp_size, block);
  if (layout == Layout::row_major)
    spmm_csr_rowwise_kernel<T, true><<<blocks, block, 0, stream>>>(a, b, c, k, alpha, beta);
  else
    spmm_csr_rowwise_kernel<T, false><<<blocks, block, 0, stream>>>(a, b, c, k, alpha, beta);
  SPMV_LAUNCH_CHECK();
}
template void spmm_csr_rowwise(const CsrView<float>&, const float*, float*, index_t, Layout, float,
                               float, cudaStream_t);
template void spmm_csr_rowwise(const CsrView<double>&, const double*, double*, index_t, Layout,
                               double, double, cudaStream_t);

}  // namespace spmv::detail
