// A CSR handed over on the device (spmv::DeviceCsrView): its checks and its
// analysis, neither of which copies the matrix back.
#include <string>

#include "core/backends.hpp"
#include "core/row_source.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/device_fetcher.hpp"
#include "spmv/error.hpp"

namespace spmv::detail {

namespace {

// `name` must be memory of `device` (or managed memory) when it has entries.
void check_device_array(const void* data, std::int64_t count, int device, const std::string& name) {
  if (count == 0) return;
  if (!data) throw InvalidArgument("device CSR: " + name + " is null");
  cudaPointerAttributes attributes{};
  const cudaError_t status = cudaPointerGetAttributes(&attributes, data);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();  // the attribute query's error is reported here, not by the next call
    throw InvalidArgument("device CSR: " + name + " is not a pointer CUDA knows (" + cudaGetErrorString(status) + ")");
  }
  if (attributes.type == cudaMemoryTypeManaged) return;
  if (attributes.type != cudaMemoryTypeDevice)
    throw InvalidArgument("device CSR: " + name + " is host memory, not memory of device " + std::to_string(device) +
                          " (a matrix on the host takes the Csr overload)");
  if (attributes.device != device)
    throw InvalidArgument("device CSR: " + name + " is memory of device " + std::to_string(attributes.device) +
                          ", not of device " + std::to_string(device) + " (PlanOptions::device)");
}

}  // namespace

template <class T>
void check_device_csr(const DeviceCsrView<T>& a, int device) {
  check_index_range(a.rows, a.cols, a.nnz, "device CSR");
  check_device_array(a.row_ptr, std::int64_t{a.rows} + 1, device, "row_ptr");
  check_device_array(a.col_idx, a.nnz, device, "col_idx");
  check_device_array(a.values, a.nnz, device, "values");
  check_row_pointers_on_device(view_of(a));
  check_columns_on_device(view_of(a));
}

template <class T>
MatrixStats analyse_on_device(const DeviceCsrView<T>& a, const StatsOptions& options, std::uint64_t& fingerprint) {
  DeviceCsrFetcher<T> fetcher(view_of(a));
  MatrixStats stats = analyse_fetched(fetcher, options);
  fingerprint = fetcher.fingerprint();
  return stats;
}

#define SPMV_INSTANTIATE_DEVICE_CSR(T)                                         \
  template void check_device_csr(const DeviceCsrView<T>&, int);               \
  template MatrixStats analyse_on_device(const DeviceCsrView<T>&, const StatsOptions&, std::uint64_t&);
SPMV_INSTANTIATE_DEVICE_CSR(float)
SPMV_INSTANTIATE_DEVICE_CSR(double)
#undef SPMV_INSTANTIATE_DEVICE_CSR

}  // namespace spmv::detail
