// A Csr uploaded to the device: its three arrays and a view for kernels.
#pragma once

#include "cuda/csr_algorithm.hpp"
#include "cuda/device_buffer.hpp"

namespace spmv::detail {

// Throws InvalidArgument naming the first entry of `host` whose column is
// out of range, out of order or repeated, found on `device`, its upload; the
// row pointers are valid (validate_row_pointers). As validate() does on the
// host, in a fraction of the upload's time.
template <class T>
void check_columns_on_device(const Csr<T>& host, const CsrView<T>& device);

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
        values(a.values, "CSR values") {
    check_columns_on_device(a, view());
  }

  // Unfilled arrays for a rows x cols matrix of nnz entries.
  DeviceCsr(index_t rows_, index_t cols_, index_t nnz)
      : rows(rows_),
        cols(cols_),
        row_ptr(static_cast<std::size_t>(rows_) + 1, "CSR row pointers"),
        col_idx(static_cast<std::size_t>(nnz), "CSR column indices"),
        values(static_cast<std::size_t>(nnz), "CSR values") {}

  CsrView<T> view() const {
    return {rows, cols, static_cast<index_t>(col_idx.size()), row_ptr.data(), col_idx.data(),
            values.data()};
  }
  std::size_t bytes() const { return row_ptr.bytes() + col_idx.bytes() + values.bytes(); }
};

// Aᵀ of `a` built on the device: transpose()'s arrays (each row of Aᵀ sorted
// by column, as a stable sort by column leaves it).
template <class T>
DeviceCsr<T> transpose_on_device(const CsrView<T>& a, cudaStream_t stream);

}  // namespace spmv::detail
