// ELL on the device: its arrays and the thread-per-row product, shared by
// the ell and hyb kernels.
#pragma once

#include <cuda_runtime.h>

#include "cuda/csr_algorithm.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_build.hpp"
#include "spmv/formats/ell.hpp"

namespace spmv::detail {

template <class T>
struct EllView {
  index_t rows = 0;
  index_t width = 0;
  index_t stride = 0;
  const index_t* col_idx = nullptr;
  const T* values = nullptr;
};

template <class T>
struct DeviceEll {
  index_t rows = 0;
  index_t width = 0;
  index_t stride = 0;
  DeviceBuffer<index_t> col_idx;
  DeviceBuffer<T> values;
  // What the product reads: each row's columns up to and including its first
  // padding slot, and its values (not the padding's).
  std::size_t read_bytes = 0;

  EllView<T> view() const { return {rows, width, stride, col_idx.data(), values.data()}; }
  std::size_t bytes() const { return col_idx.bytes() + values.bytes(); }
};

// ELL of `a` on the device (ell_from_csr's arrays): the width is the longest
// row, and FormatLimitError comes before anything large is allocated when
// the padding exceeds max_padding.
template <class T>
DeviceEll<T> build_ell_on_device(const CsrView<T>& a, double max_padding, cudaStream_t stream);

// The first min(width, length) entries of every row in ELL of that width
// (ell_part_from_csr's arrays), for HYB; no limit applied.
template <class T>
DeviceEll<T> build_ell_part_on_device(const CsrView<T>& a, index_t width, cudaStream_t stream);

// HYB's ELL width K on the device: `ell_width` when given (>= 0), else the
// Bell-Garland rule over the row lengths (hyb_split_width's result). With
// it, whether some row is longer than K: false only where the rule's
// histogram of lengths shows none (a given K, or a K in the histogram's last
// bucket, which also counts the longer rows, leave it true).
struct DeviceHybWidth {
  index_t width = 0;
  bool rows_beyond = true;
};
template <class T>
DeviceHybWidth device_hyb_width(const CsrView<T>& a, index_t ell_width, cudaStream_t stream);

// The layout of the entries beyond K (HYB's COO part, BRO-HYB's tail): an
// empty one, without a pass over the rows, where no row is longer.
template <class T>
RowSliceLayout device_hyb_tail_layout(const CsrView<T>& a, const DeviceHybWidth& width, cudaStream_t stream);

// y = alpha * A * x + beta * y with one thread per row in blocks of
// `block_size`; with beta == 0, y is not read.
template <class T>
void spmv_ell(const EllView<T>& a, const T* x, T* y, T alpha, T beta, int block_size, cudaStream_t stream);

}  // namespace spmv::detail
