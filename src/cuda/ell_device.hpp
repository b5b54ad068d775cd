// ELL on the device: its arrays and the thread-per-row product, shared by
// the ell and hyb kernels.
#pragma once

#include <cuda_runtime.h>

#include "cuda/device_buffer.hpp"
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
  index_t rows;
  index_t width;
  index_t stride;
  DeviceBuffer<index_t> col_idx;
  DeviceBuffer<T> values;
  // What the product reads: each row's columns up to and including its first
  // padding slot, and its values (not the padding's).
  std::size_t read_bytes = 0;

  explicit DeviceEll(const Ell<T>& host)
      : rows(host.rows),
        width(host.width),
        stride(host.stride),
        col_idx(host.col_idx, "ELL column indices"),
        values(host.values, "ELL values") {
    std::size_t columns_read = 0;
    for (index_t r = 0; r < host.rows; ++r) {
      index_t k = 0;
      while (k < host.width && host.col_idx[static_cast<std::size_t>(k) * host.stride + r] != padding_column) ++k;
      columns_read += static_cast<std::size_t>(k < host.width ? k + 1 : k);
    }
    read_bytes = columns_read * sizeof(index_t) + static_cast<std::size_t>(host.nnz) * sizeof(T);
  }
  EllView<T> view() const { return {rows, width, stride, col_idx.data(), values.data()}; }
  std::size_t bytes() const { return col_idx.bytes() + values.bytes(); }
};

// y = alpha * A * x + beta * y with one thread per row in blocks of
// `block_size`; with beta == 0, y is not read.
template <class T>
void spmv_ell(const EllView<T>& a, const T* x, T* y, T alpha, T beta, int block_size, cudaStream_t stream);

}  // namespace spmv::detail
