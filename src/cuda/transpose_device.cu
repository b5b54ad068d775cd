// Aᵀ built on the device. The entries are sorted by column with a stable
// radix sort (CUB) carrying each entry's position, so entries of one column
// keep their row order; the sorted columns give Aᵀ's row offsets by binary
// search, and the positions gather each entry's row and value.
#include <cub/device/device_radix_sort.cuh>

#include "cuda/cuda_check.hpp"
#include "cuda/device_build.hpp"
#include "cuda/device_csr.hpp"

namespace spmv::detail {

namespace {

constexpr int build_block = 256;

__global__ void iota_kernel(index_t* positions, index_t n) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) positions[i] = static_cast<index_t>(i);
}

// Row c of Aᵀ starts at the first sorted entry of column >= c.
__global__ void transposed_row_ptr_kernel(const index_t* sorted_columns, index_t nnz, index_t cols,
                                          index_t* row_ptr) {
  const std::int64_t c = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c > cols) return;
  index_t low = 0, high = nnz;
  while (low < high) {
    const index_t middle = low + (high - low) / 2;
    if (sorted_columns[middle] < c)
      low = middle + 1;
    else
      high = middle;
  }
  row_ptr[c] = low;
}

template <class T>
__global__ void gather_transposed_kernel(CsrView<T> a, const index_t* positions, index_t* t_col_idx, T* t_values) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= a.nnz) return;
  const index_t k = positions[i];
  t_col_idx[i] = row_of_slot(a.row_ptr, a.rows, k);
  t_values[i] = a.values[k];
}

int significant_bits(index_t largest) {
  int bits = 1;
  while (bits < 31 && (index_t{1} << bits) <= largest) ++bits;
  return bits;
}

}  // namespace

template <class T>
DeviceCsr<T> transpose_on_device(const CsrView<T>& a, cudaStream_t stream) {
  DeviceCsr<T> t(a.cols, a.rows, a.nnz);
  const auto n = static_cast<std::size_t>(a.nnz);
  DeviceBuffer<index_t> positions(n, "transpose positions");
  DeviceBuffer<index_t> sorted_positions(n, "transpose sorted positions");
  if (n > 0) {
    iota_kernel<<<blocks_for(n, build_block), build_block, 0, stream>>>(positions.data(), a.nnz);
    SPMV_LAUNCH_CHECK();
    // Sorted columns land in t.col_idx for now (it is overwritten below);
    // only the bits a column can have are sorted.
    const int end_bit = significant_bits(a.cols);
    std::size_t workspace_bytes = 0;
    SPMV_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, workspace_bytes, a.col_idx, t.col_idx.data(),
                                                    positions.data(), sorted_positions.data(), a.nnz, 0, end_bit,
                                                    stream));
    DeviceBuffer<unsigned char> workspace(workspace_bytes, "transpose sort workspace");
    SPMV_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(workspace.data(), workspace_bytes, a.col_idx, t.col_idx.data(),
                                                    positions.data(), sorted_positions.data(), a.nnz, 0, end_bit,
                                                    stream));
  }
  transposed_row_ptr_kernel<<<blocks_for(static_cast<std::size_t>(a.cols) + 1, build_block), build_block, 0,
                              stream>>>(t.col_idx.data(), a.nnz, a.cols, t.row_ptr.data());
  SPMV_LAUNCH_CHECK();
  if (n > 0) {
    gather_transposed_kernel<<<blocks_for(n, build_block), build_block, 0, stream>>>(
        a, sorted_positions.data(), t.col_idx.data(), t.values.data());
    SPMV_LAUNCH_CHECK();
  }
  return t;
}

template DeviceCsr<float> transpose_on_device(const CsrView<float>&, cudaStream_t);
template DeviceCsr<double> transpose_on_device(const CsrView<double>&, cudaStream_t);

}  // namespace spmv::detail
