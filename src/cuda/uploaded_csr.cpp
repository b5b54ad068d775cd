// A host Csr uploaded once, or an A^T built on the device (uploaded_csr.hpp).
#include "cuda/uploaded_csr.hpp"

#include <chrono>

#include "cuda/device_csr.hpp"

namespace spmv::detail {

template <class T>
struct UploadedCsr<T>::Arrays {
  DeviceCsr<T> csr;
};

template <class T>
UploadedCsr<T>::UploadedCsr(const Csr<T>& a) {
  const auto start = std::chrono::steady_clock::now();
  arrays_ = std::make_unique<Arrays>(Arrays{DeviceCsr<T>(a)});
  SPMV_CUDA_CHECK(cudaDeviceSynchronize());
  seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <class T>
UploadedCsr<T> UploadedCsr<T>::transpose_of(const DeviceCsrView<T>& a) {
  const auto start = std::chrono::steady_clock::now();
  UploadedCsr transposed;
  const CsrView<T> source{a.rows, a.cols, a.nnz, a.row_ptr, a.col_idx, a.values};
  transposed.arrays_ = std::make_unique<Arrays>(Arrays{transpose_on_device(source, nullptr)});
  SPMV_CUDA_CHECK(cudaDeviceSynchronize());
  transposed.seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return transposed;
}

template <class T>
UploadedCsr<T>::~UploadedCsr() = default;
template <class T>
UploadedCsr<T>::UploadedCsr(UploadedCsr&&) noexcept = default;
template <class T>
UploadedCsr<T>& UploadedCsr<T>::operator=(UploadedCsr&&) noexcept = default;

template <class T>
DeviceCsrView<T> UploadedCsr<T>::view() const {
  const CsrView<T> v = arrays_->csr.view();
  return {v.rows, v.cols, v.nnz, v.row_ptr, v.col_idx, v.values};
}

template class UploadedCsr<float>;
template class UploadedCsr<double>;

}  // namespace spmv::detail
