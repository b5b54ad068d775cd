// DIA, one thread per row (Bell & Garland's DIA kernel).
//
// Thread r walks the stored diagonals d and reads A(r, r + offset_d) at
// d * stride + r: a warp's 32 rows read 32 adjacent values per diagonal,
// coalesced, and no column indices at all. The offsets are staged in shared
// memory, dia_offsets_per_pass at a time, by the whole block. x[r + offset_d]
// is contiguous across the warp too (read through the read-only cache).
// Values are streamed (evict-first).
#include <algorithm>
#include <utility>
#include <vector>

#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_loads.cuh"
#include "cuda/dia_device.hpp"
#include "cuda/format_kernels.hpp"

namespace spmv::detail {

namespace {

// Offsets staged in shared memory per pass: 1 KiB.
constexpr int dia_offsets_per_pass = 256;

template <class T>
struct DiaView {
  index_t rows = 0;
  index_t cols = 0;
  index_t stride = 0;
  index_t diagonals = 0;
  const index_t* offsets = nullptr;
  const T* values = nullptr;
};

template <class T>
__global__ void spmv_dia_thread_per_row_kernel(DiaView<T> a, const T* __restrict__ x, T* __restrict__ y, T alpha,
                                               T beta) {
  __shared__ index_t offsets[dia_offsets_per_pass];
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  T sum = 0;
  // Every thread of the block takes part in staging, rows beyond the matrix included.
  for (index_t first = 0; first < a.diagonals; first += dia_offsets_per_pass) {
    const int count = min(dia_offsets_per_pass, a.diagonals - first);
    __syncthreads();  // the previous pass has finished reading `offsets`
    for (int i = threadIdx.x; i < count; i += blockDim.x) offsets[i] = a.offsets[first + i];
    __syncthreads();
    if (row >= a.rows) continue;
    for (int d = 0; d < count; ++d) {
      const std::int64_t col = row + offsets[d];
      if (col >= 0 && col < a.cols)
        sum += load_streaming(a.values + static_cast<std::size_t>(first + d) * a.stride + row) * load_cached(x + col);
    }
  }
  if (row < a.rows) store_result(y + row, sum, alpha, beta);
}

template <class T>
class DiaThreadPerRow final : public FormatKernel<T> {
 public:
  // `offsets_on_host`: dia.offsets downloaded, for the byte model.
  DiaThreadPerRow(DeviceDia<T> dia, const std::vector<index_t>& offsets_on_host, int block_size, int max_padding)
      : dia_(std::move(dia)),
        view_{dia_.rows, dia_.cols, dia_.stride, dia_.diagonals(), dia_.offsets.data(), dia_.values.data()},
        block_size_(block_size),
        max_padding_(max_padding) {
    for (index_t offset : offsets_on_host) {
      const std::int64_t first_row = std::max<std::int64_t>(0, -std::int64_t(offset));
      const std::int64_t end_row = std::min<std::int64_t>(dia_.rows, std::int64_t(dia_.cols) - offset);
      values_read_ += static_cast<std::size_t>(std::max<std::int64_t>(0, end_row - first_row));
    }
  }

  void spmv(const T* x, T* y, T alpha, T beta, cudaStream_t stream) const override {
    if (view_.rows == 0) return;
    spmv_dia_thread_per_row_kernel<<<blocks_for(view_.rows, block_size_), block_size_, 0, stream>>>(view_, x, y,
                                                                                                    alpha, beta);
    SPMV_LAUNCH_CHECK();
  }
  KernelParams params() const override { return {{"block_size", block_size_}, {"max_padding", max_padding_}}; }
  std::size_t device_bytes() const override { return dia_.offsets.bytes() + dia_.values.bytes(); }
  // The offsets and every value of a diagonal inside the matrix (its zeros
  // included: there is no index to skip them).
  std::size_t matrix_bytes() const override { return dia_.offsets.bytes() + values_read_ * sizeof(T); }

 private:
  DeviceDia<T> dia_;
  DiaView<T> view_;
  int block_size_;
  int max_padding_;
  std::size_t values_read_ = 0;
};

}  // namespace

template <class T>
std::unique_ptr<FormatKernel<T>> make_dia_thread_per_row(const FormatSource<T>& source, const KernelParams& params) {
  const int block_size = param_or(params, "block_size", default_block_size);
  const int max_padding = max_padding_param(params);
  DeviceDia<T> dia = build_dia_on_device(source.device, {double(max_padding)}, source.stream);
  std::vector<index_t> offsets_on_host(dia.offsets.size());
  SPMV_CUDA_CHECK(cudaMemcpyAsync(offsets_on_host.data(), dia.offsets.data(), dia.offsets.bytes(),
                                  cudaMemcpyDeviceToHost, source.stream));
  SPMV_CUDA_CHECK(cudaStreamSynchronize(source.stream));
  return std::make_unique<DiaThreadPerRow<T>>(std::move(dia), offsets_on_host, block_size, max_padding);
}

template std::unique_ptr<FormatKernel<float>> make_dia_thread_per_row(const FormatSource<float>&, const KernelParams&);
template std::unique_ptr<FormatKernel<double>> make_dia_thread_per_row(const FormatSource<double>&, const KernelParams&);

}  // namespace spmv::detail
