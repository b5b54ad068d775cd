// BRO-COO on the device: its arrays, their build from the uploaded CSR
// (bro_coo_device_build.cu, bro_coo_from_csr's arrays) and the accumulating
// product, shared by the bro-coo and bro-hyb kernels.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/csr_algorithm.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_build.hpp"
#include "formats/bro_shapes.hpp"
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
  index_t rows = 0;
  index_t cols = 0;
  index_t interval = 0;
  index_t warps = 0;  // intervals
  DeviceBuffer<index_t> base_row;
  DeviceBuffer<index_t> symbol_offset;
  DeviceBuffer<std::uint8_t> widths;
  DeviceBuffer<std::uint32_t> symbols;
  DeviceBuffer<index_t> col_idx;
  DeviceBuffer<T> values;
  // Workspace, written by every product (hence mutable: the product is const).
  mutable DeviceBuffer<index_t> carry_row;
  mutable DeviceBuffer<T> carry_value;
  bool overlap_launches = false;  // dependent_launch.cuh: the device supports it

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
  BroCooShape shape() const {
    return {rows,
            cols,
            static_cast<std::int64_t>(values.size()),
            warps,
            static_cast<std::int64_t>(widths.size()),
            static_cast<std::int64_t>(symbols.size()),
            sizeof(T)};
  }
};

// The rows of a BRO-COO: each entry's row, column and value in row order
// (a row slice of the CSR gathered with its row indices), and the
// dimensions of the matrix.
template <class T>
struct BroCooEntries {
  index_t rows = 0;
  index_t cols = 0;
  DeviceRowSlice<T> entries;
};

// A BRO-COO planned but not packed: widths and symbol offsets, the symbols
// not yet allocated (bro-hyb refuses on the footprint of both its parts
// first).
template <class T>
struct BroCooDevicePlan {
  BroCooEntries<T> source;
  index_t interval = 0;
  DeviceBuffer<std::uint8_t> widths;
  DeviceBuffer<index_t> symbol_offset;
  BroCooShape shape;
};

// InvalidArgument for a bad interval, SizeError when the symbols exceed
// 32-bit offsets.
template <class T>
BroCooDevicePlan<T> plan_bro_coo_on_device(BroCooEntries<T>&& source, const BroCooOptions& options,
                                           cudaStream_t stream);
template <class T>
DeviceBroCoo<T> pack_bro_coo_on_device(BroCooDevicePlan<T>&& plan, cudaStream_t stream);

// bro_coo_from_csr(a, options) on the device.
template <class T>
DeviceBroCoo<T> build_bro_coo_on_device(const CsrView<T>& a, const BroCooOptions& options, cudaStream_t stream);

// y += alpha * A * x: y must already hold beta * y.
template <class T>
void accumulate_bro_coo(const DeviceBroCoo<T>& a, const T* x, T* y, T alpha, int block_size,
                        cudaStream_t stream);

}  // namespace spmv::detail
