// BRO-COO with the warp-level segmented reduction of the COO kernel
// (warp_segmented_sum.cuh; Tang et al. 2013, section 3.2).
//
// One warp per interval, as in coo_segmented.cu: the warp walks its interval
// 32 entries at a time, lane i taking entry chunk + i. Lane i decodes its
// row from its own bit stream: it starts at the interval's base row and adds
// the next field at every chunk, a field as wide as the step's width, which
// all lanes read from the same address (a broadcast; one width per step, so
// the reader's load branch is taken by all lanes alike). The 32 streams are
// multiplexed, so a warp's symbol loads are coalesced; column indices and
// values are read as in COO (coalesced, evict-first; x through the read-only
// cache). Lanes past the last entry decode the last entry's row, as the
// reduction requires. The carries of the intervals are reduced by the
// shared second kernel. y is scaled by beta first.
#include <algorithm>

#include "cuda/bro_coo_device.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/dense_ops.hpp"
#include "cuda/device_loads.cuh"
#include "cuda/format_kernels.hpp"
#include "cuda/warp_segmented_sum.cuh"
#include "formats/bro_symbols.hpp"

namespace spmv::detail {

namespace {

template <class T>
__global__ void spmv_bro_coo_segmented_kernel(BroCooView<T> a, const T* __restrict__ x, T* y,
                                              T alpha, index_t warps, index_t* carry_row,
                                              T* carry_value) {
  wait_for_previous_kernel();  // which wrote or scaled y
  let_next_kernel_start();     // the carries' pass, which waits for this kernel's end
  const std::int64_t warp =
      (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / warp_size;
  if (warp >= warps) return;  // whole warps leave together
  const std::int64_t begin = warp * a.interval;
  const std::int64_t end = std::min<std::int64_t>(a.nnz, begin + a.interval);
  const int lane = threadIdx.x % warp_size;
  SymbolReader row_deltas(a.symbols + load_cached(a.symbol_offset + warp) + lane, warp_size);
  const std::uint8_t* width = a.widths + warp * (a.interval / warp_size);
  index_t decoded_row = load_cached(a.base_row + warp);
  index_t row;
  T sum;
  warp_segmented_sum(
      begin, end,
      [&](std::int64_t k, index_t& r, T& v) {
        decoded_row += static_cast<index_t>(row_deltas.get(load_cached(width++)));
        r = decoded_row;
        v = load_streaming(a.values + k) * load_cached(x + load_streaming(a.col_idx + k));
      },
      y, alpha, row, sum);
  if (lane == 0) {
    carry_row[warp] = row;
    carry_value[warp] = sum;
  }
}

template <class T>
class BroCooSegmented final : public FormatKernel<T> {
 public:
  BroCooSegmented(DeviceBroCoo<T>&& matrix, int block_size) : block_size_(block_size), matrix_(std::move(matrix)) {}

  void spmv(const T* x, T* y, T alpha, T beta, cudaStream_t stream) const override {
    scale_vector(y, matrix_.rows, beta, stream);
    accumulate_bro_coo(matrix_, x, y, alpha, block_size_, stream);
  }
  KernelParams params() const override {
    return {{"interval", matrix_.interval}, {"block_size", block_size_}};
  }
  std::size_t device_bytes() const override { return matrix_.bytes(); }
  std::size_t matrix_bytes() const override { return matrix_.matrix_bytes(); }
  std::optional<CompressionMetrics> index_compression() const override { return bro_coo_metrics(matrix_.shape()); }

 private:
  int block_size_;
  DeviceBroCoo<T> matrix_;
};

}  // namespace

template <class T>
void accumulate_bro_coo(const DeviceBroCoo<T>& a, const T* x, T* y, T alpha, int block_size,
                        cudaStream_t stream) {
  if (a.warps == 0) return;
  const unsigned blocks = blocks_for(static_cast<std::size_t>(a.warps) * warp_size, block_size);
  launch_kernel(a.overlap_launches, blocks, block_size, 0, stream, spmv_bro_coo_segmented_kernel<T>, a.view(), x, y,
                alpha, a.warps, a.carry_row.data(), a.carry_value.data());
  add_interval_carries(a.carry_row.data(), a.carry_value.data(), a.warps, y, alpha, stream, a.overlap_launches);
}

template <class T>
std::unique_ptr<FormatKernel<T>> make_bro_coo_segmented(const FormatSource<T>& source,
                                                        const KernelParams& params) {
  const CsrView<T>& a = source.device;
  const int block_size = param_or(params, "block_size", default_block_size);
  // Default: the coo kernel's split, one interval per resident warp. Below
  // about 1024 entries per warp (8.6M entries on an H200) each lane's stream
  // is padded to whole symbols over few fields, which takes part of the
  // savings (stencil27 on the host: eta 0.93 with 1024 entries per interval,
  // 0.86 with 256); whether a longer minimum pays on the GPU is not measured.
  const index_t interval = param_or(params, "interval", interval_per_resident_warp(a.nnz, current_gpu_shape()));
  return std::make_unique<BroCooSegmented<T>>(build_bro_coo_on_device(a, {interval}, source.stream), block_size);
}

#define SPMV_INSTANTIATE_BRO_COO_KERNEL(T)                                                      \
  template void accumulate_bro_coo(const DeviceBroCoo<T>&, const T*, T*, T, int, cudaStream_t); \
  template std::unique_ptr<FormatKernel<T>> make_bro_coo_segmented(const FormatSource<T>&,               \
                                                                   const KernelParams&);
SPMV_INSTANTIATE_BRO_COO_KERNEL(float)
SPMV_INSTANTIATE_BRO_COO_KERNEL(double)
#undef SPMV_INSTANTIATE_BRO_COO_KERNEL

}  // namespace spmv::detail
