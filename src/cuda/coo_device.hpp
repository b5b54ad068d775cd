// Row-ordered COO on the device and its accumulating product, shared by the
// coo and hyb kernels.
#pragma once

#include <cuda_runtime.h>

#include "cuda/device_build.hpp"
#include "spmv/formats/coo.hpp"
#include "spmv/formats/ellpack_r.hpp"

namespace spmv::detail {

template <class T>
struct CooView {
  index_t nnz = 0;
  const index_t* row_idx = nullptr;  // non-decreasing
  const index_t* col_idx = nullptr;
  const T* values = nullptr;
};

// The COO arrays and the kernel's workspace: the entries are cut into
// intervals of `interval` entries (a multiple of 32), one per warp, and each
// warp leaves the partial sum of its last row in (carry_row, carry_value)
// for a second pass.
template <class T>
struct DeviceCoo {
  DeviceBuffer<index_t> row_idx;
  DeviceBuffer<index_t> col_idx;
  DeviceBuffer<T> values;
  index_t interval = 32;
  index_t warps = 0;  // intervals: ceil(nnz / interval)
  // Workspace, written by every product (hence mutable: the product is const).
  mutable DeviceBuffer<index_t> carry_row;
  mutable DeviceBuffer<T> carry_value;
  bool overlap_launches = false;  // dependent_launch.cuh: the device supports it

  // The entries of a row slice built with row indices (device_build.hpp),
  // moved in; the intervals suit `gpu`.
  DeviceCoo(DeviceRowSlice<T>&& entries, const GpuShape& gpu);
  CooView<T> view() const { return {static_cast<index_t>(values.size()), row_idx.data(), col_idx.data(), values.data()}; }
  std::size_t bytes() const {
    return row_idx.bytes() + col_idx.bytes() + values.bytes() + carry_row.bytes() + carry_value.bytes();
  }
  std::size_t matrix_bytes() const { return row_idx.bytes() + col_idx.bytes() + values.bytes(); }
};

// y += alpha * A * x: y must already hold beta * y.
template <class T>
void accumulate_coo(const DeviceCoo<T>& a, const T* x, T* y, T alpha, int block_size, cudaStream_t stream);

}  // namespace spmv::detail
