// BRO-HYB: the BRO-ELL part by the bro-ell decode kernel (which also applies
// beta), then the BRO-COO remainder accumulated by the bro-coo segmented
// reduction (see bro_ell_decode.cu and bro_coo_segmented.cu for their work
// decompositions). Two launches per product, three when there is a BRO-COO
// part.
#include "cuda/bro_coo_device.hpp"
#include "cuda/format_kernels.hpp"
#include "cuda/warp_segmented_sum.cuh"
#include "spmv/formats/bro_hyb.hpp"
#include "spmv/formats/hyb.hpp"

namespace spmv::detail {

namespace {

template <class T>
class BroHybEllCoo final : public FormatKernel<T> {
 public:
  BroHybEllCoo(const BroHyb<T>& host, index_t ell_width, int block_size, int max_padding,
               double build_seconds)
      : ell_width_(ell_width),
        block_size_(block_size),
        max_padding_(max_padding),
        build_seconds_(build_seconds),
        compression_(bro_hyb_metrics(host)),
        ell_(make_bro_ell_decode_of(host.ell, max_padding, build_seconds)),
        ell_params_(ell_->params()),
        coo_(host.coo) {}

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
  double build_seconds_;
  CompressionMetrics compression_;
  std::unique_ptr<FormatKernel<T>> ell_;
  KernelParams ell_params_;
  DeviceBroCoo<T> coo_;
};

}  // namespace

template <class T>
std::unique_ptr<FormatKernel<T>> make_bro_hyb_ell_coo(const FormatSource<T>& source, const KernelParams& params) {
  const Csr<T>& a = source.host_csr();
  BroHybOptions options;
  options.ell_width = ell_width_param(params, "bro-hyb");
  options.ell.slice_height = param_or(params, "bro-hyb", "slice_height", options.ell.slice_height,
                                      {32, 64, 128, 256, 512, 1024});
  options.ell.threads_per_row =
      param_or(params, "bro-hyb", "threads_per_row", 1, {1, 2, 4, 8, 16, 32});
  options.ell.max_padding = max_padding_param(params, "bro-hyb");
  const int block_size = param_or(params, "bro-hyb", "block_size", 256, {64, 128, 256, 512, 1024});
  double build_seconds = 0;
  const index_t width = hyb_ell_width(a, HybOptions{options.ell_width});
  // One BRO-COO interval per resident warp unless given, as for bro-coo.
  options.coo.interval =
      param_or(params, "bro-hyb", "interval",
               interval_per_resident_warp(hyb_coo_nnz(a, width), current_gpu_shape()));
  options.ell_width = width;
  const BroHyb<T> host = timed_build(build_seconds, [&] { return bro_hyb_from_csr(a, options); });
  return std::make_unique<BroHybEllCoo<T>>(
      host, width, block_size, static_cast<int>(options.ell.max_padding), build_seconds);
}

template std::unique_ptr<FormatKernel<float>> make_bro_hyb_ell_coo(const FormatSource<float>&,
                                                                   const KernelParams&);
template std::unique_ptr<FormatKernel<double>> make_bro_hyb_ell_coo(const FormatSource<double>&,
                                                                    const KernelParams&);

}  // namespace spmv::detail
