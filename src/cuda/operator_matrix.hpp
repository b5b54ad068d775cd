// The matrix a cuda or cusparse operator is built from: a host Csr, which
// the operator uploads, or a CSR handed over on the device (checked by the
// plan), which it copies there.
#pragma once

#include <vector>

#include "cuda/csr_algorithm.hpp"
#include "cuda/device_csr.hpp"
#include "spmv/matrix.hpp"

namespace spmv::detail {

template <class T>
class OperatorMatrix {
 public:
  explicit OperatorMatrix(const Csr<T>& host) : rows(host.rows), cols(host.cols), nnz(host.nnz()), host_(&host) {}
  explicit OperatorMatrix(const DeviceCsrView<T>& device)
      : rows(device.rows), cols(device.cols), nnz(device.nnz), device_(view_of(device)) {}

  // The operator's own copy on the device (a host matrix's columns are
  // checked there as it is uploaded).
  DeviceCsr<T> copy_to_device() const { return host_ ? DeviceCsr<T>(*host_) : DeviceCsr<T>(device_); }
  // The host matrix, or null where the matrix came on the device.
  const Csr<T>* host_matrix() const { return host_; }
  KernelChoice default_kernel() const { return host_ ? default_csr_kernel(*host_) : default_csr_kernel(device_); }

  index_t rows;
  index_t cols;
  index_t nnz;

 private:
  const Csr<T>* host_ = nullptr;
  CsrView<T> device_;
};

}  // namespace spmv::detail
