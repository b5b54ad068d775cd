// DIA on the device: the arrays of Dia<T> (spmv/formats/dia.hpp) in device
// memory, built from the uploaded CSR by dia_device_build.cu and run by
// dia_thread_per_row.cu.
#pragma once

#include <cuda_runtime.h>

#include "cuda/csr_algorithm.hpp"
#include "cuda/device_buffer.hpp"
#include "spmv/formats/dia.hpp"

namespace spmv::detail {

template <class T>
struct DeviceDia {
  index_t rows = 0;
  index_t cols = 0;
  index_t stride = 0;
  index_t nnz = 0;
  DeviceBuffer<index_t> offsets;
  DeviceBuffer<T> values;

  index_t diagonals() const { return static_cast<index_t>(offsets.size()); }
};

// The arrays dia_from_csr(a, options) makes, built on `stream` (the last
// kernels may still run when it returns). Throws what dia_from_csr throws,
// deciding the refusal before the values are allocated.
template <class T>
DeviceDia<T> build_dia_on_device(const CsrView<T>& a, const DiaOptions& options, cudaStream_t stream);

// The same arrays on the host (after the build's stream has finished).
template <class T>
Dia<T> download(const DeviceDia<T>& dia) {
  return {dia.rows, dia.cols, dia.stride, dia.nnz, dia.offsets.to_host(), dia.values.to_host()};
}

}  // namespace spmv::detail
