// SELL-C-sigma, one thread per row (Kreutzer et al. 2014).
//
// Thread p takes sorted position p: chunk p / C, lane p % C. It reads its
// row's entries at chunk_ptr[chunk] + j * C + lane for j < row_length[p], so
// the C threads of a chunk read C adjacent indices and values per step
// (coalesced; with C = 32 one warp is one chunk). Rows of a chunk have
// similar lengths after sorting, so threads of a warp finish together and
// the padding (never read) stays small. y[row_of[p]] is written in the
// user's order. Matrix arrays are streamed; x goes through the read-only cache.
#include <utility>

#include "cuda/cuda_check.hpp"
#include "cuda/device_loads.cuh"
#include "cuda/format_kernels.hpp"
#include "cuda/sell_device.hpp"

namespace spmv::detail {

namespace {

template <class T>
struct SellView {
  index_t rows = 0;
  index_t chunk_rows = 0;
  const index_t* chunk_ptr = nullptr;
  const index_t* row_of = nullptr;
  const index_t* row_length = nullptr;
  const index_t* col_idx = nullptr;
  const T* values = nullptr;
};

template <class T>
__global__ void spmv_sell_thread_per_row_kernel(SellView<T> a, const T* __restrict__ x, T* __restrict__ y, T alpha,
                                                T beta) {
  const std::int64_t position = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (position >= a.rows) return;
  const index_t chunk = static_cast<index_t>(position / a.chunk_rows);
  std::size_t slot = static_cast<std::size_t>(load_streaming(a.chunk_ptr + chunk)) + position % a.chunk_rows;
  const index_t length = load_streaming(a.row_length + position);
  T sum = 0;
  for (index_t j = 0; j < length; ++j, slot += a.chunk_rows)
    sum += load_streaming(a.values + slot) * load_cached(x + load_streaming(a.col_idx + slot));
  store_result(y + load_streaming(a.row_of + position), sum, alpha, beta);
}

template <class T>
class SellThreadPerRow final : public FormatKernel<T> {
 public:
  SellThreadPerRow(DeviceSell<T> sell, int block_size, int max_padding)
      : sell_(std::move(sell)), block_size_(block_size), max_padding_(max_padding) {}

  void spmv(const T* x, T* y, T alpha, T beta, cudaStream_t stream) const override {
    if (sell_.rows == 0) return;
    const SellView<T> a{sell_.rows,
                        sell_.chunk_rows,
                        sell_.chunk_ptr.data(),
                        sell_.row_of.data(),
                        sell_.row_length.data(),
                        sell_.col_idx.data(),
                        sell_.values.data()};
    const unsigned blocks = blocks_for(sell_.rows, block_size_);
    spmv_sell_thread_per_row_kernel<<<blocks, block_size_, 0, stream>>>(a, x, y, alpha, beta);
    SPMV_LAUNCH_CHECK();
  }
  KernelParams params() const override {
    return {{"chunk_rows", sell_.chunk_rows},
            {"sigma", sell_.sigma},
            {"block_size", block_size_},
            {"max_padding", max_padding_}};
  }
  std::size_t device_bytes() const override {
    return sell_.chunk_ptr.bytes() + sell_.row_of.bytes() + sell_.row_length.bytes() + sell_.col_idx.bytes() +
           sell_.values.bytes();
  }
  // Chunk pointers, permutation, row lengths and the entries; never the padding.
  std::size_t matrix_bytes() const override {
    return sell_.chunk_ptr.bytes() + sell_.row_of.bytes() + sell_.row_length.bytes() +
           static_cast<std::size_t>(sell_.nnz) * (sizeof(index_t) + sizeof(T));
  }

 private:
  DeviceSell<T> sell_;
  int block_size_;
  int max_padding_;
};

}  // namespace

template <class T>
std::unique_ptr<FormatKernel<T>> make_sell_thread_per_row(const FormatSource<T>& source, const KernelParams& params) {
  SellOptions options;
  options.chunk_rows = param_or(params, "chunk_rows", options.chunk_rows);
  options.sigma = param_or(params, "sigma", options.sigma);
  options.max_padding = max_padding_param(params);
  const int block_size = param_or(params, "block_size", default_block_size);
  return std::make_unique<SellThreadPerRow<T>>(build_sell_on_device(source.device, options, source.stream),
                                               block_size, static_cast<int>(options.max_padding));
}

template std::unique_ptr<FormatKernel<float>> make_sell_thread_per_row(const FormatSource<float>&, const KernelParams&);
template std::unique_ptr<FormatKernel<double>> make_sell_thread_per_row(const FormatSource<double>&, const KernelParams&);

}  // namespace spmv::detail
