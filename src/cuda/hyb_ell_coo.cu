// HYB: the ELL part by the thread-per-row ELL kernel (which also applies
// beta), then the COO remainder accumulated by the warp-level segmented
// reduction (see ell_thread_per_row.cu and coo_segmented.cu for their work
// decompositions). Two launches per product, three when there is a COO part.
#include <algorithm>
#include <vector>

#include "cuda/coo_device.hpp"
#include "cuda/device_build.hpp"
#include "cuda/ell_device.hpp"
#include "cuda/format_kernels.hpp"
#include "spmv/formats/hyb.hpp"
#include "spmv/stats.hpp"

namespace spmv::detail {

namespace {

template <class T>
class HybEllCoo final : public FormatKernel<T> {
 public:
  HybEllCoo(DeviceEll<T>&& ell, DeviceCoo<T>&& coo, int block_size, int max_padding)
      : block_size_(block_size), max_padding_(max_padding), ell_(std::move(ell)), coo_(std::move(coo)) {}

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
  DeviceEll<T> ell_;
  DeviceCoo<T> coo_;
};

}  // namespace

template <class T>
DeviceHybWidth device_hyb_width(const CsrView<T>& a, index_t ell_width, cudaStream_t stream) {
  if (ell_width >= 0) return {ell_width, true};
  const DeviceBuffer<index_t> lengths = device_row_lengths(a, stream);
  // rows_of_length[L]: rows of length L; the last entry also counts the longer rows.
  const std::vector<std::int64_t> rows_of_length = device_capped_histogram(
      lengths.data(), lengths.size(), static_cast<index_t>(hyb_length_cap(a.nnz, a.rows)), stream);
  DeviceHybWidth hyb;
  hyb.width = hyb_split_width_of_counts(rows_of_length, a.rows);
  const auto last = static_cast<index_t>(rows_of_length.size()) - 1;
  hyb.rows_beyond = hyb.width >= last || std::any_of(rows_of_length.begin() + hyb.width + 1, rows_of_length.end(),
                                                     [](std::int64_t rows) { return rows > 0; });
  return hyb;
}

template <class T>
RowSliceLayout device_hyb_tail_layout(const CsrView<T>& a, const DeviceHybWidth& width, cudaStream_t stream) {
  if (width.rows_beyond) return device_row_slice_layout(a, width.width, static_cast<index_t>(max_index), stream);
  RowSliceLayout none;
  none.first = width.width;
  return none;
}

template <class T>
std::unique_ptr<FormatKernel<T>> make_hyb_ell_coo(const FormatSource<T>& source, const KernelParams& params) {
  const CsrView<T>& a = source.device;
  const int block_size = param_or(params, "block_size", default_block_size);
  const int max_padding = max_padding_param(params);
  const DeviceHybWidth width = device_hyb_width(a, ell_width_param(params), source.stream);
  RowSliceLayout beyond_width = device_hyb_tail_layout(a, width, source.stream);
  check_hyb_limit<T>(a.rows, width.width, a.nnz, beyond_width.nnz, max_padding);
  DeviceCoo<T> coo(device_gather_row_slice(a, std::move(beyond_width), true, source.stream), current_gpu_shape());
  return std::make_unique<HybEllCoo<T>>(build_ell_part_on_device(a, width.width, source.stream), std::move(coo),
                                        block_size, max_padding);
}

template DeviceHybWidth device_hyb_width(const CsrView<float>&, index_t, cudaStream_t);
template DeviceHybWidth device_hyb_width(const CsrView<double>&, index_t, cudaStream_t);
template RowSliceLayout device_hyb_tail_layout(const CsrView<float>&, const DeviceHybWidth&, cudaStream_t);
template RowSliceLayout device_hyb_tail_layout(const CsrView<double>&, const DeviceHybWidth&, cudaStream_t);
template std::unique_ptr<FormatKernel<float>> make_hyb_ell_coo(const FormatSource<float>&, const KernelParams&);
template std::unique_ptr<FormatKernel<double>> make_hyb_ell_coo(const FormatSource<double>&, const KernelParams&);

}  // namespace spmv::detail
