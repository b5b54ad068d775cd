// BRO-HYB built on the device from the uploaded CSR: HYB's split into two
// row slices of the CSR (device_gather_row_slice; the head is the CSR itself
// where the tail is empty), the head compressed by the BRO-ELL build and the
// tail by the BRO-COO build (see bro_ell_device_build.cu and
// bro_coo_device_build.cu for their work decompositions). Both parts are
// planned, the whole refused on its footprint as on the host, and only then
// packed.
#include "cuda/bro_hyb_device.hpp"
#include "cuda/ell_device.hpp"

namespace spmv::detail {

template <class T>
BroHybSplit<T> split_bro_hyb_on_device(const CsrView<T>& a, index_t ell_width, cudaStream_t stream) {
  BroHybSplit<T> split;
  const DeviceHybWidth width = device_hyb_width(a, ell_width, stream);
  split.ell_width = width.width;
  split.rows = a.rows;
  split.cols = a.cols;
  split.tail = device_gather_row_slice(a, device_hyb_tail_layout(a, width, stream), /*with_row_idx=*/true, stream);
  split.head = a;
  if (split.tail.nnz > 0) {
    split.head_copy = device_gather_row_slice(a, device_row_slice_layout(a, 0, split.ell_width, stream),
                                              /*with_row_idx=*/false, stream);
    const DeviceRowSlice<T>& copy = split.head_copy;
    split.head = {split.rows, split.cols, copy.nnz, copy.row_ptr.data(), copy.col_idx.data(), copy.values.data()};
  }
  return split;
}

template <class T>
DeviceBroHyb<T> build_bro_hyb_on_device(BroHybSplit<T>&& split, const BroHybOptions& options, cudaStream_t stream) {
  BroEllDevicePlan<T> ell = plan_bro_ell_on_device(split.head, options.ell, stream);
  BroCooDevicePlan<T> coo =
      plan_bro_coo_on_device(BroCooEntries<T>{split.rows, split.cols, std::move(split.tail)}, options.coo, stream);
  // The whole is within the limit; the ELL part alone may pad more, as in HYB.
  check_bro_hyb_limit(bro_hyb_footprint(ell.bro.shape, coo.shape), split.ell_width, split.rows,
                      options.ell.max_padding);
  DeviceBroHyb<T> hyb;
  hyb.ell_width = split.ell_width;
  hyb.ell = pack_bro_ell_on_device(split.head, std::move(ell), stream);
  hyb.coo = pack_bro_coo_on_device(std::move(coo), stream);
  return hyb;
}

template <class T>
DeviceBroHyb<T> build_bro_hyb_on_device(const CsrView<T>& a, const BroHybOptions& options, cudaStream_t stream) {
  return build_bro_hyb_on_device(split_bro_hyb_on_device(a, options.ell_width, stream), options, stream);
}

#define SPMV_INSTANTIATE_BRO_HYB_DEVICE_BUILD(T)                                                                 \
  template BroHybSplit<T> split_bro_hyb_on_device(const CsrView<T>&, index_t, cudaStream_t);                  \
  template DeviceBroHyb<T> build_bro_hyb_on_device(BroHybSplit<T>&&, const BroHybOptions&, cudaStream_t);     \
  template DeviceBroHyb<T> build_bro_hyb_on_device(const CsrView<T>&, const BroHybOptions&, cudaStream_t);
SPMV_INSTANTIATE_BRO_HYB_DEVICE_BUILD(float)
SPMV_INSTANTIATE_BRO_HYB_DEVICE_BUILD(double)
#undef SPMV_INSTANTIATE_BRO_HYB_DEVICE_BUILD

}  // namespace spmv::detail
