// ELLPACK-R on the device: its arrays in the ELLR-T layout and the build
// with the ELLR-T configuration, shared by the ellr-t SpMV (ellr_t.cu) and
// the SpMM kernels on ELLPACK-R (spmm_fastspmm.cu).
#pragma once

#include "cuda/csr_algorithm.hpp"
#include "cuda/device_buffer.hpp"
#include "spmv/formats/ellpack_r.hpp"

namespace spmv::detail {

template <class T>
struct EllrView {
  index_t rows = 0;
  index_t cols = 0;
  index_t stride = 0;
  const index_t* row_length = nullptr;
  const index_t* col_idx = nullptr;
  const T* values = nullptr;
};

template <class T>
struct DeviceEllpackR {
  index_t rows = 0;
  index_t cols = 0;
  index_t stride = 0;
  index_t nnz = 0;
  int threads_per_row = 1;
  DeviceBuffer<index_t> row_length;
  DeviceBuffer<index_t> col_idx;
  DeviceBuffer<T> values;

  EllrView<T> view() const { return {rows, cols, stride, row_length.data(), col_idx.data(), values.data()}; }
  std::size_t bytes() const { return row_length.bytes() + col_idx.bytes() + values.bytes(); }
  // The row lengths and the entries: the ELLR-T threads stop at each row's
  // length and never read the padding.
  std::size_t matrix_bytes() const {
    return row_length.bytes() + static_cast<std::size_t>(nnz) * (sizeof(index_t) + sizeof(T));
  }
};

// `a` in the ELLR-T layout for `threads_per_row` on the device
// (ellpack_r_from_csr's arrays), from its row lengths (device_row_lengths,
// kept as the format's rl) and longest row; FormatLimitError before the
// layout is allocated when its padding exceeds max_padding.
template <class T>
DeviceEllpackR<T> build_ellpack_r_on_device(const CsrView<T>& a, DeviceBuffer<index_t>&& row_lengths,
                                            index_t longest, index_t threads_per_row, double max_padding,
                                            cudaStream_t stream);

// The ELLR-T model's sums over the row lengths (ellrt_warp_steps), computed
// where the lengths are.
EllrtWarpSteps device_ellrt_warp_steps(const index_t* row_lengths, index_t rows, cudaStream_t stream);

// An ELLPACK-R matrix with the configuration an ELLR-T kernel runs it with.
template <class T>
struct EllrtBuild {
  DeviceEllpackR<T> matrix;
  int block_size = 0;
  int max_padding = 0;
};

// Builds `a` in the ELLR-T layout on the device: parameters
// threads_per_row, block_size and max_padding (ellr_t_specs), the
// configuration model choosing the first two when they are not given.
template <class T>
EllrtBuild<T> build_ellr_t(const CsrView<T>& a, const KernelParams& params, cudaStream_t stream);
// The same with the padding limit given (FormatLimitError above
// `max_padding` times the CSR's bytes), finer than the parameter's whole
// numbers; params' max_padding is only reported.
template <class T>
EllrtBuild<T> build_ellr_t(const CsrView<T>& a, const KernelParams& params, double max_padding, cudaStream_t stream);

}  // namespace spmv::detail
