// ELLR-T (Vázquez et al.; Ortega et al. 2013): ELLPACK-R with T threads per
// row.
//
// The T threads of a row read its entries in steps of T, thread i taking
// entries i, i + T, ...; the ELLR-T layout stores each step's T entries of
// the warp's 32 / T rows side by side, so every step of a warp is one
// coalesced, aligned load of 32 indices and 32 values. A thread stops at its
// row's length (rl), so padding is never read. The T partial sums are
// combined by a shuffle reduction (the paper used shared memory) and the
// row's first thread writes y. Matrix arrays are streamed (evict-first); x
// goes through the read-only cache. When T or BS is not given, the
// configuration model (ellrt_configuration) chooses them for the device.
#include "cuda/cuda_check.hpp"
#include "cuda/device_build.hpp"
#include "cuda/device_loads.cuh"
#include "cuda/ellpack_r_device.hpp"
#include "cuda/format_kernels.hpp"

namespace spmv::detail {

namespace {

template <class T, int ThreadsPerRow>
__global__ void spmv_ellr_t_kernel(EllrView<T> a, const T* __restrict__ x, T* __restrict__ y, T alpha, T beta) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t row = thread / ThreadsPerRow;
  const int lane = threadIdx.x % ThreadsPerRow;
  if (row >= a.rows) return;  // a row's threads leave together, so the mask below is exact
  const int first_lane_in_warp = (threadIdx.x % warp_size) / ThreadsPerRow * ThreadsPerRow;
  const unsigned mask =
      ThreadsPerRow == warp_size ? 0xffffffffu : ((1u << ThreadsPerRow) - 1u) << first_lane_in_warp;
  const index_t length = load_streaming(a.row_length + row);
  const std::size_t step = static_cast<std::size_t>(ThreadsPerRow) * a.stride;
  std::size_t slot = static_cast<std::size_t>(ThreadsPerRow) * row + lane;
  T sum = 0;
  for (index_t entry = lane; entry < length; entry += ThreadsPerRow, slot += step)
    sum += load_streaming(a.values + slot) * load_cached(x + load_streaming(a.col_idx + slot));
  sum = subwarp_sum<ThreadsPerRow>(sum, mask);
  if (lane == 0) store_result(y + row, sum, alpha, beta);
}

template <class T>
class EllrT final : public FormatKernel<T> {
 public:
  explicit EllrT(EllrtBuild<T>&& built)
      : block_size_(built.block_size), max_padding_(built.max_padding), matrix_(std::move(built.matrix)) {}

  void spmv(const T* x, T* y, T alpha, T beta, cudaStream_t stream) const override {
    if (matrix_.rows == 0) return;
    const EllrView<T> a = matrix_.view();
    const unsigned blocks = blocks_for(static_cast<std::size_t>(matrix_.rows) * matrix_.threads_per_row, block_size_);
    switch (matrix_.threads_per_row) {
      case 1: spmv_ellr_t_kernel<T, 1><<<blocks, block_size_, 0, stream>>>(a, x, y, alpha, beta); break;
      case 2: spmv_ellr_t_kernel<T, 2><<<blocks, block_size_, 0, stream>>>(a, x, y, alpha, beta); break;
      case 4: spmv_ellr_t_kernel<T, 4><<<blocks, block_size_, 0, stream>>>(a, x, y, alpha, beta); break;
      case 8: spmv_ellr_t_kernel<T, 8><<<blocks, block_size_, 0, stream>>>(a, x, y, alpha, beta); break;
      case 16: spmv_ellr_t_kernel<T, 16><<<blocks, block_size_, 0, stream>>>(a, x, y, alpha, beta); break;
      default: spmv_ellr_t_kernel<T, 32><<<blocks, block_size_, 0, stream>>>(a, x, y, alpha, beta); break;
    }
    SPMV_LAUNCH_CHECK();
  }
  KernelParams params() const override {
    return {{"threads_per_row", matrix_.threads_per_row}, {"block_size", block_size_}, {"max_padding", max_padding_}};
  }
  std::size_t device_bytes() const override { return matrix_.bytes(); }
  std::size_t matrix_bytes() const override { return matrix_.matrix_bytes(); }

 private:
  int block_size_;
  int max_padding_;
  DeviceEllpackR<T> matrix_;
};

}  // namespace

template <class T>
EllrtBuild<T> build_ellr_t(const CsrView<T>& a, const KernelParams& params, cudaStream_t stream) {
  return build_ellr_t(a, params, max_padding_param(params), stream);
}

template <class T>
EllrtBuild<T> build_ellr_t(const CsrView<T>& a, const KernelParams& params, double max_padding, cudaStream_t stream) {
  DeviceBuffer<index_t> lengths = device_row_lengths(a, stream);
  const index_t longest = device_max(lengths.data(), lengths.size(), stream);
  // The model chooses what the parameters leave open (its cost is O(rows)).
  EllrtConfiguration model;
  if (!params.count("threads_per_row") || !params.count("block_size"))
    model = ellrt_configuration(device_ellrt_warp_steps(lengths.data(), a.rows, stream), current_gpu_shape());
  const index_t threads_per_row = param_or(params, "threads_per_row", model.threads_per_row);
  EllrtBuild<T> built;
  built.max_padding = max_padding_param(params);
  built.block_size = param_or(params, "block_size", model.block_size);
  built.matrix = build_ellpack_r_on_device(a, std::move(lengths), longest, threads_per_row, max_padding, stream);
  return built;
}

template <class T>
std::unique_ptr<FormatKernel<T>> make_ellr_t(const FormatSource<T>& source, const KernelParams& params) {
  return std::make_unique<EllrT<T>>(build_ellr_t(source.device, params, source.stream));
}

#define SPMV_INSTANTIATE_ELLR_T(T)                                                                     \
  template EllrtBuild<T> build_ellr_t(const CsrView<T>&, const KernelParams&, cudaStream_t);                    \
  template EllrtBuild<T> build_ellr_t(const CsrView<T>&, const KernelParams&, double, cudaStream_t);            \
  template std::unique_ptr<FormatKernel<T>> make_ellr_t(const FormatSource<T>&, const KernelParams&);
SPMV_INSTANTIATE_ELLR_T(float)
SPMV_INSTANTIATE_ELLR_T(double)
#undef SPMV_INSTANTIATE_ELLR_T

}  // namespace spmv::detail
