// The segmented-scan format on the device: the CSR arrays and a head flag at
// the first entry of every non-empty row (segmented_from_csr's arrays).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/csr_algorithm.hpp"
#include "cuda/device_buffer.hpp"

namespace spmv::detail {

template <class T>
struct DeviceSegmented {
  index_t rows = 0;
  index_t nnz = 0;
  DeviceBuffer<index_t> row_ptr;
  DeviceBuffer<index_t> col_idx;
  DeviceBuffer<T> values;
  DeviceBuffer<std::uint8_t> head_flags;
};

// Copies the CSR arrays and flags each non-empty row's first entry.
template <class T>
DeviceSegmented<T> build_segmented_on_device(const CsrView<T>& a, cudaStream_t stream);

}  // namespace spmv::detail
