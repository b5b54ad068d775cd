// A Csr uploaded to the device, or copied from one handed over there: its
// three arrays and a view for kernels.
#pragma once

#include "cuda/csr_algorithm.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"

namespace spmv::detail {

// Throws InvalidArgument naming the first entry of `device` whose column is
// out of range, out of order or repeated; its row pointers are valid. As
// validate() does on the host, in a fraction of the upload's time.
template <class T>
void check_columns_on_device(const CsrView<T>& device);
// Throws InvalidArgument unless row_ptr runs from 0 to nnz without
// decreasing (validate_row_pointers's checks and messages).
template <class T>
void check_row_pointers_on_device(const CsrView<T>& device);

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
    check_columns_on_device(view());
  }

  // A copy of `source`, a CSR on the device already (checked).
  explicit DeviceCsr(const CsrView<T>& source) : DeviceCsr(source.rows, source.cols, source.nnz) {
    copy_on_device(row_ptr.data(), source.row_ptr, row_ptr.size());
    copy_on_device(col_idx.data(), source.col_idx, col_idx.size());
    copy_on_device(values.data(), source.values, values.size());
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

 private:
  template <class X>
  static void copy_on_device(X* to, const X* from, std::size_t count) {
    if (count > 0) SPMV_CUDA_CHECK(cudaMemcpyAsync(to, from, count * sizeof(X), cudaMemcpyDeviceToDevice, nullptr));
  }
};

// Aᵀ of `a` built on the device: transpose()'s arrays (each row of Aᵀ sorted
// by column, as a stable sort by column leaves it).
template <class T>
DeviceCsr<T> transpose_on_device(const CsrView<T>& a, cudaStream_t stream);

}  // namespace spmv::detail
