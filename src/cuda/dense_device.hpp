// The dense column-major copy of a CSR, built on the device for the
// dense-cublas kernel.
#pragma once

#include <cuda_runtime.h>

#include "cuda/csr_algorithm.hpp"
#include "cuda/device_buffer.hpp"

namespace spmv::detail {

// dense_from_csr's values (rows * cols, column-major); FormatLimitError
// before allocating when they exceed max_bytes.
template <class T>
DeviceBuffer<T> build_dense_on_device(const CsrView<T>& a, std::size_t max_bytes, cudaStream_t stream);

}  // namespace spmv::detail
