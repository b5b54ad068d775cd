// A Csr uploaded to the device: its three arrays and a view for kernels.
#pragma once

#include "cuda/csr_algorithm.hpp"
#include "cuda/device_buffer.hpp"

namespace spmv::detail {

template <class T>
struct DeviceCsr {
  index_t rows = 0;
  index_t cols = 0;
  DeviceBuffer<index_t> row_ptr;
  DeviceBuffer<index_t> col_idx;
  DeviceBuffer<T> values;

  explicit DeviceCsr(const Csr<T>& a)
      : rows(a.rows),
        cols(a.cols),
        row_ptr(a.row_ptr, "CSR row pointers"),
        col_idx(a.col_idx, "CSR column indices"),
        values(a.values, "CSR values") {}

  CsrView<T> view() const {
    return {rows, cols, static_cast<index_t>(col_idx.size()), row_ptr.data(), col_idx.data(),
            values.data()};
  }
  std::size_t bytes() const { return row_ptr.bytes() + col_idx.bytes() + values.bytes(); }
};

// Compulsory bytes of a CSR matrix (row pointers, indices, values read once).
template <class T>
std::size_t csr_matrix_bytes(const Csr<T>& a) {
  return (static_cast<std::size_t>(a.rows) + 1) * sizeof(index_t) +
         static_cast<std::size_t>(a.nnz()) * (sizeof(index_t) + sizeof(T));
}

}  // namespace spmv::detail
