// ELLPACK-R on the device: its arrays in the ELLR-T layout and the build
// with the ELLR-T configuration, shared by the ellr-t SpMV (ellr_t.cu) and
// the SpMM kernels on ELLPACK-R (spmm_fastspmm.cu).
#pragma once

#include <string>

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
  index_t rows;
  index_t cols;
  index_t stride;
  index_t nnz;
  int threads_per_row;
  DeviceBuffer<index_t> row_length;
  DeviceBuffer<index_t> col_idx;
  DeviceBuffer<T> values;

  explicit DeviceEllpackR(const EllpackR<T>& host)
      : rows(host.rows),
        cols(host.cols),
        stride(host.stride),
        nnz(host.nnz),
        threads_per_row(host.threads_per_row),
        row_length(host.row_length, "ELLPACK-R row lengths"),
        col_idx(host.col_idx, "ELLPACK-R column indices"),
        values(host.values, "ELLPACK-R values") {}
  EllrView<T> view() const { return {rows, cols, stride, row_length.data(), col_idx.data(), values.data()}; }
  std::size_t bytes() const { return row_length.bytes() + col_idx.bytes() + values.bytes(); }
  // The row lengths and the entries: the ELLR-T threads stop at each row's
  // length and never read the padding.
  std::size_t matrix_bytes() const {
    return row_length.bytes() + static_cast<std::size_t>(nnz) * (sizeof(index_t) + sizeof(T));
  }
};

// An ELLPACK-R matrix with the configuration an ELLR-T kernel runs it with.
template <class T>
struct EllrtBuild {
  EllpackR<T> host;
  int block_size = 0;
  int max_padding = 0;
  double build_seconds = 0;  // the model (when it ran) and the conversion
};

// Builds `a` in the ELLR-T layout for the kernel named `kernel`: parameters
// threads_per_row, block_size and max_padding, the configuration model
// choosing the first two when they are not given.
template <class T>
EllrtBuild<T> build_ellr_t(const Csr<T>& a, const KernelParams& params, const std::string& kernel);

}  // namespace spmv::detail
