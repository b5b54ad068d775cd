// HYB: the ELL part by the thread-per-row ELL kernel (which also applies
// beta), then the COO remainder accumulated by the warp-level segmented
// reduction (see ell_thread_per_row.cu and coo_segmented.cu for their work
// decompositions). Two launches per product, three when there is a COO part.
#include "cuda/coo_device.hpp"
#include "cuda/ell_device.hpp"
#include "cuda/format_kernels.hpp"
#include "spmv/formats/hyb.hpp"

namespace spmv::detail {

namespace {

template <class T>
class HybEllCoo final : public FormatKernel<T> {
 public:
  HybEllCoo(const Hyb<T>& host, int block_size, int max_padding, double build_seconds)
      : block_size_(block_size),
        max_padding_(max_padding),
        build_seconds_(build_seconds),
        ell_(host.ell),
        coo_(host.coo, current_gpu_shape()) {}

  void spmv(const T* x, T* y, T alpha, T beta, cudaStream_t stream) const override {
    spmv_ell(ell_.view(), x, y, alpha, beta, block_size_, stream);
    accumulate_coo(coo_, x, y, alpha, block_size_, stream);
  }
  KernelParams params() const override {
    return {{"ell_width", ell_.width}, {"block_size", block_size_}, {"max_padding", max_padding_}};
  }
  std::size_t device_bytes() const override { return ell_.bytes() + coo_.bytes(); }
  std::size_t matrix_bytes() const override { return ell_.read_bytes + coo_.matrix_bytes(); }

 private:
  int block_size_;
  int max_padding_;
  double build_seconds_;
  DeviceEll<T> ell_;
  DeviceCoo<T> coo_;
};

}  // namespace

template <class T>
std::unique_ptr<FormatKernel<T>> make_hyb_ell_coo(const FormatSource<T>& source, const KernelParams& params) {
  const Csr<T>& a = source.host_csr();
  const int block_size = param_or(params, "hyb", "block_size", 256, {64, 128, 256, 512, 1024});
  HybOptions options;
  options.max_padding = max_padding_param(params, "hyb");
  options.ell_width = ell_width_param(params, "hyb");
  double build_seconds = 0;
  const Hyb<T> host = timed_build(build_seconds, [&] { return hyb_from_csr(a, options); });
  return std::make_unique<HybEllCoo<T>>(host, block_size, static_cast<int>(options.max_padding), build_seconds);
}

template std::unique_ptr<FormatKernel<float>> make_hyb_ell_coo(const FormatSource<float>&, const KernelParams&);
template std::unique_ptr<FormatKernel<double>> make_hyb_ell_coo(const FormatSource<double>&, const KernelParams&);

}  // namespace spmv::detail
