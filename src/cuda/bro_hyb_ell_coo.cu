// BRO-HYB: the BRO-ELL part by the bro-ell decode kernel (which also applies
// beta), then the BRO-COO remainder accumulated by the bro-coo segmented
// reduction (see bro_ell_decode.cu and bro_coo_segmented.cu for their work
// decompositions). Two launches per product, three when there is a BRO-COO
// part.
#include "cuda/bro_hyb_device.hpp"
#include "cuda/format_kernels.hpp"
#include "cuda/warp_segmented_sum.cuh"

namespace spmv::detail {

namespace {

template <class T>
class BroHybEllCoo final : public FormatKernel<T> {
 public:
  BroHybEllCoo(DeviceBroHyb<T>&& matrix, int block_size, int max_padding)
      : ell_width_(matrix.ell_width),
        block_size_(block_size),
        max_padding_(max_padding),
        compression_(bro_hyb_metrics(matrix.ell.shape, matrix.coo.shape())),
        ell_(make_bro_ell_decode_of(std::move(matrix.ell), max_padding)),
        ell_params_(ell_->params()),
        coo_(std::move(matrix.coo)) {}

  void spmv(const T* x, T* y, T alpha, T beta, cudaStream_t stream) const override {
    ell_->spmv(x, y, alpha, beta, stream);
    accumulate_bro_coo(coo_, x, y, alpha, block_size_, stream);
  }
  KernelParams params() const override {
    return {{"ell_width", ell_width_},
            {"slice_height", ell_params_.at("slice_height")},
            {"threads_per_row", ell_params_.at("threads_per_row")},
            {"interval", coo_.interval},
            {"block_size", block_size_},
            {"max_padding", max_padding_}};
  }
  std::size_t device_bytes() const override { return ell_->device_bytes() + coo_.bytes(); }
  std::size_t matrix_bytes() const override { return ell_->matrix_bytes() + coo_.matrix_bytes(); }
  std::optional<CompressionMetrics> index_compression() const override { return compression_; }

 private:
  index_t ell_width_;
  int block_size_;
  int max_padding_;
  CompressionMetrics compression_;
  std::unique_ptr<FormatKernel<T>> ell_;
  KernelParams ell_params_;
  DeviceBroCoo<T> coo_;
};

}  // namespace

template <class T>
std::unique_ptr<FormatKernel<T>> make_bro_hyb_ell_coo(const FormatSource<T>& source, const KernelParams& params) {
  const CsrView<T>& a = source.device;
  BroHybOptions options;
  options.ell.slice_height = param_or(params, "slice_height", options.ell.slice_height);
  options.ell.threads_per_row = param_or(params, "threads_per_row", 1);
  options.ell.max_padding = max_padding_param(params);
  const int block_size = param_or(params, "block_size", default_block_size);
  BroHybSplit<T> split = split_bro_hyb_on_device(a, ell_width_param(params), source.stream);
  options.ell_width = split.ell_width;
  // One BRO-COO interval per resident warp unless given, as for bro-coo.
  options.coo.interval =
      param_or(params, "interval", interval_per_resident_warp(split.tail.nnz, current_gpu_shape()));
  return std::make_unique<BroHybEllCoo<T>>(build_bro_hyb_on_device(std::move(split), options, source.stream),
                                           block_size, static_cast<int>(options.ell.max_padding));
}

template std::unique_ptr<FormatKernel<float>> make_bro_hyb_ell_coo(const FormatSource<float>&,
                                                                   const KernelParams&);
template std::unique_ptr<FormatKernel<double>> make_bro_hyb_ell_coo(const FormatSource<double>&,
                                                                    const KernelParams&);

}  // namespace spmv::detail
