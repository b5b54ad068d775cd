// SELL-C-sigma on the device: the arrays of Sell<T> (spmv/formats/sell.hpp)
// in device memory, built from the uploaded CSR by sell_device_build.cu and
// run by sell_thread_per_row.cu.
#pragma once

#include <cuda_runtime.h>

#include "cuda/csr_algorithm.hpp"
#include "cuda/device_buffer.hpp"
#include "spmv/formats/sell.hpp"

namespace spmv::detail {

template <class T>
struct DeviceSell {
  index_t rows = 0;
  index_t cols = 0;
  index_t chunk_rows = 0;
  index_t sigma = 0;
  index_t nnz = 0;
  DeviceBuffer<index_t> chunk_ptr;
  DeviceBuffer<index_t> row_of;
  DeviceBuffer<index_t> row_length;
  DeviceBuffer<index_t> col_idx;
  DeviceBuffer<T> values;
};

// The arrays sell_from_csr(a, options) makes, built on `stream` (the last
// kernels may still run when it returns). Throws what sell_from_csr throws,
// deciding the refusal before the entries are allocated.
template <class T>
DeviceSell<T> build_sell_on_device(const CsrView<T>& a, const SellOptions& options, cudaStream_t stream);

// The same arrays on the host (after the build's stream has finished).
template <class T>
Sell<T> download(const DeviceSell<T>& sell) {
  return {sell.rows,
          sell.cols,
          sell.chunk_rows,
          sell.sigma,
          sell.nnz,
          sell.chunk_ptr.to_host(),
          sell.row_of.to_host(),
          sell.row_length.to_host(),
          sell.col_idx.to_host(),
          sell.values.to_host()};
}

}  // namespace spmv::detail
