// Dense matrix-vector product through cuBLAS gemv, on a column-major copy of
// the matrix: the baseline of the thesis's sparse-versus-dense crossover.
// cuBLAS decides the work decomposition; the copy is read once per product
// (rows * cols values, no indices).
#include <cublas_v2.h>

#include "cuda/cuda_check.hpp"
#include "cuda/dense_device.hpp"
#include "cuda/dense_ops.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/format_kernels.hpp"

namespace spmv::detail {

namespace {

void gemv(cublasHandle_t handle, int rows, int cols, const float* alpha, const float* a, const float* x,
          const float* beta, float* y) {
  SPMV_CUBLAS_CHECK(cublasSgemv(handle, CUBLAS_OP_N, rows, cols, alpha, a, rows, x, 1, beta, y, 1));
}
void gemv(cublasHandle_t handle, int rows, int cols, const double* alpha, const double* a, const double* x,
          const double* beta, double* y) {
  SPMV_CUBLAS_CHECK(cublasDgemv(handle, CUBLAS_OP_N, rows, cols, alpha, a, rows, x, 1, beta, y, 1));
}

template <class T>
class DenseCublas final : public FormatKernel<T> {
 public:
  DenseCublas(const FormatSource<T>& a, int max_dense_mib)
      : rows_(a.device.rows),
        cols_(a.device.cols),
        max_dense_mib_(max_dense_mib),
        values_(build_dense_on_device(a.device, static_cast<std::size_t>(max_dense_mib) << 20, a.stream)) {
    SPMV_CUBLAS_CHECK(cublasCreate(&handle_));
  }
  ~DenseCublas() override { cublasDestroy(handle_); }
  DenseCublas(const DenseCublas&) = delete;
  DenseCublas& operator=(const DenseCublas&) = delete;

  void spmv(const T* x, T* y, T alpha, T beta, cudaStream_t stream) const override {
    if (rows_ == 0) return;
    if (cols_ == 0) {  // gemv returns at once on an empty dimension: y = beta * y is ours
      scale_vector(y, rows_, beta, stream);
      return;
    }
    SPMV_CUBLAS_CHECK(cublasSetStream(handle_, stream));
    // With beta == 0, gemv does not read y (BLAS semantics).
    gemv(handle_, rows_, cols_, &alpha, values_.data(), x, &beta, y);
  }
  KernelParams params() const override { return {{"max_dense_mib", max_dense_mib_}}; }
  std::size_t device_bytes() const override { return values_.bytes(); }
  std::size_t matrix_bytes() const override { return values_.bytes(); }

 private:
  index_t rows_;
  index_t cols_;
  int max_dense_mib_;
  DeviceBuffer<T> values_;
  cublasHandle_t handle_ = nullptr;
};

}  // namespace

template <class T>
std::unique_ptr<FormatKernel<T>> make_dense_cublas(const FormatSource<T>& source, const KernelParams& params) {
  return std::make_unique<DenseCublas<T>>(source, param_or(params, "max_dense_mib", default_max_dense_mib));
}

template std::unique_ptr<FormatKernel<float>> make_dense_cublas(const FormatSource<float>&, const KernelParams&);
template std::unique_ptr<FormatKernel<double>> make_dense_cublas(const FormatSource<double>&, const KernelParams&);

}  // namespace spmv::detail
