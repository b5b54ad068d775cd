// ELL, one thread per row (Bell & Garland's ELL kernel).
//
// Thread r walks row r's slots k = 0, 1, ... at k * stride + r, so the
// threads of a warp read 32 adjacent column indices and values at every step:
// fully coalesced, the point of the column-major layout. A thread stops at
// its row's first padding slot (column -1), so padding costs one index read
// per row, not a value read or a multiply. Matrix arrays are streamed
// (evict-first); x goes through the read-only cache.
#include "cuda/cuda_check.hpp"
#include "cuda/device_loads.cuh"
#include "cuda/ell_device.hpp"
#include "cuda/format_kernels.hpp"

namespace spmv::detail {

namespace {

template <class T>
__global__ void spmv_ell_thread_per_row_kernel(EllView<T> a, const T* __restrict__ x, T* __restrict__ y,
                                               T alpha, T beta) {
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= a.rows) return;
  T sum = 0;
  for (index_t k = 0; k < a.width; ++k) {
    const std::size_t slot = static_cast<std::size_t>(k) * a.stride + row;
    const index_t col = load_streaming(a.col_idx + slot);
    if (col == padding_column) break;
    sum += load_streaming(a.values + slot) * load_cached(x + col);
  }
  store_result(y + row, sum, alpha, beta);
}

template <class T>
class EllThreadPerRow final : public FormatKernel<T> {
 public:
  EllThreadPerRow(const FormatSource<T>& a, int block_size, int max_padding)
      : block_size_(block_size),
        max_padding_(max_padding),
        matrix_(build_ell_on_device(a.device, max_padding, a.stream)) {}

  void spmv(const T* x, T* y, T alpha, T beta, cudaStream_t stream) const override {
    spmv_ell(matrix_.view(), x, y, alpha, beta, block_size_, stream);
  }
  KernelParams params() const override {
    return {{"block_size", block_size_}, {"max_padding", max_padding_}};
  }
  std::size_t device_bytes() const override { return matrix_.bytes(); }
  std::size_t matrix_bytes() const override { return matrix_.read_bytes; }

 private:
  int block_size_;
  int max_padding_;
  DeviceEll<T> matrix_;
};

}  // namespace

template <class T>
void spmv_ell(const EllView<T>& a, const T* x, T* y, T alpha, T beta, int block_size, cudaStream_t stream) {
  if (a.rows == 0) return;
  spmv_ell_thread_per_row_kernel<<<blocks_for(a.rows, block_size), block_size, 0, stream>>>(a, x, y, alpha, beta);
  SPMV_LAUNCH_CHECK();
}

template <class T>
std::unique_ptr<FormatKernel<T>> make_ell_thread_per_row(const FormatSource<T>& source, const KernelParams& params) {
  return std::make_unique<EllThreadPerRow<T>>(
      source, param_or(params, "block_size", default_block_size), max_padding_param(params));
}

#define SPMV_INSTANTIATE_ELL_KERNEL(T)                                                               \
  template void spmv_ell(const EllView<T>&, const T*, T*, T, T, int, cudaStream_t);                  \
  template std::unique_ptr<FormatKernel<T>> make_ell_thread_per_row(const FormatSource<T>&, const KernelParams&);
SPMV_INSTANTIATE_ELL_KERNEL(float)
SPMV_INSTANTIATE_ELL_KERNEL(double)
#undef SPMV_INSTANTIATE_ELL_KERNEL

}  // namespace spmv::detail
