// The dense copy built on the device: zeros, then one thread per CSR entry
// writes its value at (column * rows + row), its row found by binary search
// of the row offsets.
#include "cuda/cuda_check.hpp"
#include "cuda/dense_device.hpp"
#include "cuda/device_build.hpp"
#include "spmv/formats/dense.hpp"

namespace spmv::detail {

namespace {

template <class T>
__global__ void scatter_dense_kernel(CsrView<T> a, T* dense) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= a.nnz) return;
  const index_t row = row_of_slot(a.row_ptr, a.rows, static_cast<index_t>(k));
  dense[static_cast<std::size_t>(a.col_idx[k]) * a.rows + row] = a.values[k];
}

}  // namespace

template <class T>
DeviceBuffer<T> build_dense_on_device(const CsrView<T>& a, std::size_t max_bytes, cudaStream_t stream) {
  check_dense_limit<T>(a.rows, a.cols, a.nnz, max_bytes);
  DeviceBuffer<T> dense(static_cast<std::size_t>(a.rows) * a.cols, "dense matrix");
  if (dense.size() == 0) return dense;
  SPMV_CUDA_CHECK(cudaMemsetAsync(dense.data(), 0, dense.bytes(), stream));
  if (a.nnz > 0) {
    constexpr int block = 256;
    scatter_dense_kernel<<<blocks_for(a.nnz, block), block, 0, stream>>>(a, dense.data());
    SPMV_LAUNCH_CHECK();
  }
  return dense;
}

template DeviceBuffer<float> build_dense_on_device(const CsrView<float>&, std::size_t, cudaStream_t);
template DeviceBuffer<double> build_dense_on_device(const CsrView<double>&, std::size_t, cudaStream_t);

}  // namespace spmv::detail
