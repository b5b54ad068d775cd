// CSR-scalar: one thread per row (the papers' "naive" kernel).
//
// Thread r walks row r alone. Neighbouring threads read entries far apart, so
// loads of col_idx/values are not coalesced once rows are longer than a few
// entries; x is read through the read-only cache. Fast only for very short rows.
#include "cuda/csr_kernels.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_loads.cuh"

namespace spmv::detail {

namespace {

template <class T>
__global__ void spmv_csr_scalar_kernel(CsrView<T> a, const T* __restrict__ x, T* __restrict__ y,
                                       T alpha, T beta) {
  const index_t row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= a.rows) return;
  T sum = 0;
  const index_t end = a.row_ptr[row + 1];
  for (index_t k = a.row_ptr[row]; k < end; ++k)
    sum += load_streaming(a.values + k) * load_cached(x + load_streaming(a.col_idx + k));
  store_result(y + row, sum, alpha, beta);
}

template <class T>
class CsrScalar final : public CsrAlgorithm<T> {
 public:
  explicit CsrScalar(int block_size) : block_size_(block_size) {}
  void spmv(const CsrView<T>& a, const T* x, T* y, T alpha, T beta,
            cudaStream_t stream) const override {
    if (a.rows == 0) return;
    spmv_csr_scalar_kernel<<<blocks_for(a.rows, block_size_), block_size_, 0, stream>>>(a, x, y,
                                                                                        alpha, beta);
    SPMV_LAUNCH_CHECK();
  }
  KernelParams params() const override { return {{"block_size", block_size_}}; }

 private:
  int block_size_;
};

}  // namespace

template <class T>
std::unique_ptr<CsrAlgorithm<T>> make_csr_scalar(const KernelParams& params) {
  return std::make_unique<CsrScalar<T>>(param_or(params, "block_size", default_block_size));
}
template std::unique_ptr<CsrAlgorithm<float>> make_csr_scalar(const KernelParams&);
template std::unique_ptr<CsrAlgorithm<double>> make_csr_scalar(const KernelParams&);

}  // namespace spmv::detail
