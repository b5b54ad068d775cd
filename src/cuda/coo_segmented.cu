// COO with a warp-level segmented reduction (Bell & Garland 2008, as in
// CUSP's coo_flat kernel).
//
// The row-ordered entries are cut into equal intervals (multiples of 32),
// one per warp, enough warps for one full wave of the GPU. A warp walks its
// interval 32 entries at a time: lane i forms a_k * x[col_k] for entry
// k = chunk + i (coalesced reads of row_idx, col_idx, values; x through the
// read-only cache), then a shuffle segmented scan over the lanes sums runs of
// equal row. A lane whose row ends inside the chunk adds its sum to y; the
// warp's last row carries into the next chunk. A row ending inside an
// interval is written by that warp only, so plain read-modify-writes are
// safe. The partial sum of each interval's last row, which may continue in
// the next interval, is left in the carry arrays; a second kernel (one warp)
// reduces the carries with the same routine and adds them to y.
// y is scaled by beta first, so every write is y += alpha * sum. The
// reduction is shared with BRO-COO (warp_segmented_sum.cuh).
#include <algorithm>

#include "cuda/coo_device.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/dense_ops.hpp"
#include "cuda/device_loads.cuh"
#include "cuda/format_kernels.hpp"
#include "cuda/warp_segmented_sum.cuh"

namespace spmv::detail {

namespace {

template <class T>
__global__ void spmv_coo_segmented_kernel(CooView<T> a, const T* __restrict__ x, T* y, T alpha, index_t interval,
                                          index_t warps, index_t* carry_row, T* carry_value) {
  wait_for_previous_kernel();  // which wrote or scaled y
  let_next_kernel_start();     // the carries' pass, which waits for this kernel's end
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / warp_size;
  if (warp >= warps) return;  // whole warps leave together
  const std::int64_t begin = warp * interval;
  const std::int64_t end = std::min<std::int64_t>(a.nnz, begin + interval);
  index_t row;
  T sum;
  warp_segmented_sum(
      begin, end,
      [&](std::int64_t k, index_t& r, T& v) {
        r = load_streaming(a.row_idx + k);
        v = load_streaming(a.values + k) * load_cached(x + load_streaming(a.col_idx + k));
      },
      y, alpha, row, sum);
  if (threadIdx.x % warp_size == 0) {
    carry_row[warp] = row;
    carry_value[warp] = sum;
  }
}

template <class T>
class CooSegmented final : public FormatKernel<T> {
 public:
  CooSegmented(const CsrView<T>& a, int block_size, cudaStream_t stream)
      : rows_(a.rows),
        block_size_(block_size),
        matrix_(device_gather_row_slice(a, device_row_slice_layout(a, 0, max_index, stream), true, stream),
                current_gpu_shape()) {}

  void spmv(const T* x, T* y, T alpha, T beta, cudaStream_t stream) const override {
    scale_vector(y, rows_, beta, stream);
    accumulate_coo(matrix_, x, y, alpha, block_size_, stream);
  }
  KernelParams params() const override { return {{"block_size", block_size_}}; }
  std::size_t device_bytes() const override { return matrix_.bytes(); }
  std::size_t matrix_bytes() const override { return matrix_.matrix_bytes(); }

 private:
  index_t rows_;
  int block_size_;
  DeviceCoo<T> matrix_;
};

}  // namespace

template <class T>
DeviceCoo<T>::DeviceCoo(DeviceRowSlice<T>&& entries, const GpuShape& gpu)
    : row_idx(std::move(entries.row_idx)), col_idx(std::move(entries.col_idx)), values(std::move(entries.values)) {
  interval = interval_per_resident_warp(entries.nnz, gpu);
  warps = static_cast<index_t>((static_cast<std::int64_t>(entries.nnz) + interval - 1) / interval);
  carry_row = DeviceBuffer<index_t>(warps, "COO carry rows");
  carry_value = DeviceBuffer<T>(warps, "COO carry values");
  overlap_launches = device_overlaps_launches();
}

template <class T>
void accumulate_coo(const DeviceCoo<T>& a, const T* x, T* y, T alpha, int block_size, cudaStream_t stream) {
  if (a.warps == 0) return;
  const unsigned blocks = blocks_for(static_cast<std::size_t>(a.warps) * warp_size, block_size);
  launch_kernel(a.overlap_launches, blocks, block_size, 0, stream, spmv_coo_segmented_kernel<T>, a.view(), x, y, alpha,
                a.interval, a.warps, a.carry_row.data(), a.carry_value.data());
  add_interval_carries(a.carry_row.data(), a.carry_value.data(), a.warps, y, alpha, stream, a.overlap_launches);
}

template <class T>
std::unique_ptr<FormatKernel<T>> make_coo_segmented(const FormatSource<T>& source, const KernelParams& params) {
  return std::make_unique<CooSegmented<T>>(source.device, param_or(params, "block_size", default_block_size),
                                           source.stream);
}

#define SPMV_INSTANTIATE_COO_KERNEL(T)                                                              \
  template struct DeviceCoo<T>;                                                                     \
  template void accumulate_coo(const DeviceCoo<T>&, const T*, T*, T, int, cudaStream_t);            \
  template std::unique_ptr<FormatKernel<T>> make_coo_segmented(const FormatSource<T>&, const KernelParams&);
SPMV_INSTANTIATE_COO_KERNEL(float)
SPMV_INSTANTIATE_COO_KERNEL(double)
#undef SPMV_INSTANTIATE_COO_KERNEL

}  // namespace spmv::detail
