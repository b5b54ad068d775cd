// BRO-COO on the device: its arrays and the accumulating product, shared by
// the bro-coo and bro-hyb kernels.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/device_buffer.hpp"
#include "spmv/formats/bro_coo.hpp"

namespace spmv::detail {

template <class T>
struct BroCooView {
  index_t nnz = 0;
  index_t interval = 0;  // entries per warp
  const index_t* base_row = nullptr;
  const index_t* symbol_offset = nullptr;
  const std::uint8_t* widths = nullptr;
  const std::uint32_t* symbols = nullptr;
  const index_t* col_idx = nullptr;
  const T* values = nullptr;
};

// The BRO-COO arrays (one warp per interval) and the kernel's workspace: each
// warp leaves the partial sum of its last row in (carry_row, carry_value)
// for a second pass.
template <class T>
struct DeviceBroCoo {
  index_t interval;
  index_t warps;  // intervals
  DeviceBuffer<index_t> base_row;
  DeviceBuffer<index_t> symbol_offset;
  DeviceBuffer<std::uint8_t> widths;
  DeviceBuffer<std::uint32_t> symbols;
  DeviceBuffer<index_t> col_idx;
  DeviceBuffer<T> values;
  // Workspace, written by every product (hence mutable: the product is const).
  mutable DeviceBuffer<index_t> carry_row;
  mutable DeviceBuffer<T> carry_value;

  explicit DeviceBroCoo(const BroCoo<T>& host);
  BroCooView<T> view() const {
    return {static_cast<index_t>(values.size()),
            interval,
            base_row.data(),
            symbol_offset.data(),
            widths.data(),
            symbols.data(),
            col_idx.data(),
            values.data()};
  }
  std::size_t matrix_bytes() const {
    return base_row.bytes() + symbol_offset.bytes() + widths.bytes() + symbols.bytes() +
           col_idx.bytes() + values.bytes();
  }
  std::size_t bytes() const { return matrix_bytes() + carry_row.bytes() + carry_value.bytes(); }
};

// y += alpha * A * x: y must already hold beta * y.
template <class T>
void accumulate_bro_coo(const DeviceBroCoo<T>& a, const T* x, T* y, T alpha, int block_size,
                        cudaStream_t stream);

}  // namespace spmv::detail
