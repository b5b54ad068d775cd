// Baskaran & Bordawekar's blocked format: one warp per row block, x of each
// block staged in shared memory.
//
// For each block of its row block, the warp first copies x[c, c + b_c) into
// its own shared-memory tile (one aligned, coalesced read, c being a
// half-warp multiple), then its two half-warps take the block's row segments
// 16 entries at a time (segment units u = 0, 2, 4, ... and 1, 3, 5, ...):
// each half-warp reads 16 adjacent values and 16-bit column offsets (one
// aligned access each) and multiplies by tile[offset], reusing x across the
// block's rows. Padding entries point at tile[b_c], which holds 0. Each lane
// keeps one partial sum per row of the row block (registers, b_r a template
// parameter); at the end the warp reduces them by shuffles and lane q writes
// row q. Matrix arrays are streamed (evict-first); x goes through the
// read-only cache into the tile.
#include <utility>

#include "cuda/blocked_device.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_loads.cuh"
#include "cuda/format_kernels.hpp"

namespace spmv::detail {

namespace {

constexpr int blocked_warps_per_block = 4;  // 128 threads; 33 KiB of tiles at b_c = 1024 in double

template <class T>
struct BlockedView {
  index_t rows = 0;
  index_t cols = 0;
  index_t row_blocks = 0;
  index_t block_cols = 0;
  const index_t* row_block_ptr = nullptr;
  const index_t* block_col = nullptr;
  const index_t* block_entry_ptr = nullptr;
  const std::uint8_t* row_units = nullptr;
  const std::uint16_t* col_offset = nullptr;
  const T* values = nullptr;
};

template <class T, int BlockRows>
__global__ void spmv_blocked_shared_x_kernel(BlockedView<T> a, const T* __restrict__ x, T* __restrict__ y, T alpha,
                                             T beta) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* tile = reinterpret_cast<T*>(shared_bytes) + (threadIdx.x / warp_size) * (a.block_cols + 1);
  const int lane = threadIdx.x % warp_size;
  const std::int64_t row_block = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / warp_size;
  if (row_block >= a.row_blocks) return;  // whole warps leave together
  if (lane == 0) tile[a.block_cols] = T(0);
  const int half = lane / blocked_alignment;
  const int half_lane = lane % blocked_alignment;
  T sums[BlockRows];
#pragma unroll
  for (int q = 0; q < BlockRows; ++q) sums[q] = 0;

  const index_t last_block = a.row_block_ptr[row_block + 1];
  for (index_t block = a.row_block_ptr[row_block]; block < last_block; ++block) {
    const std::int64_t first_col = a.block_col[block];
    __syncwarp();  // the previous block's reads of the tile are done
    for (int k = lane; k < a.block_cols; k += warp_size)
      tile[k] = first_col + k < a.cols ? load_cached(x + first_col + k) : T(0);
    __syncwarp();
    const std::uint8_t* units = a.row_units + static_cast<std::size_t>(block) * BlockRows;
    const index_t first_entry = a.block_entry_ptr[block] + half_lane;
    int unit = half;      // this half-warp's next unit, counted over the block's segments
    int segment_end = 0;  // first unit after row q's segment
#pragma unroll
    for (int q = 0; q < BlockRows; ++q) {
      segment_end += units[q];
      for (; unit < segment_end; unit += 2) {
        const index_t entry = first_entry + unit * blocked_alignment;
        sums[q] += load_streaming(a.values + entry) * tile[load_streaming(a.col_offset + entry)];
      }
    }
  }
#pragma unroll
  for (int q = 0; q < BlockRows; ++q) {
    const T total = subwarp_sum<warp_size>(sums[q], 0xffffffffu);
    const std::int64_t row = row_block * BlockRows + q;
    if (lane == q && row < a.rows) store_result(y + row, total, alpha, beta);
  }
}

template <class T>
class BlockedSharedX final : public FormatKernel<T> {
 public:
  BlockedSharedX(DeviceBlocked<T> blocked, int max_padding)
      : blocked_(std::move(blocked)),
        max_padding_(max_padding),
        view_{blocked_.rows,
              blocked_.cols,
              blocked_.row_blocks(),
              blocked_.block_cols,
              blocked_.row_block_ptr.data(),
              blocked_.block_col.data(),
              blocked_.block_entry_ptr.data(),
              blocked_.row_units.data(),
              blocked_.col_offset.data(),
              blocked_.values.data()} {}

  void spmv(const T* x, T* y, T alpha, T beta, cudaStream_t stream) const override {
    if (view_.rows == 0) return;
    const int threads = blocked_warps_per_block * warp_size;
    const unsigned blocks = blocks_for(static_cast<std::size_t>(view_.row_blocks) * warp_size, threads);
    const std::size_t shared = blocked_warps_per_block * (static_cast<std::size_t>(view_.block_cols) + 1) * sizeof(T);
    switch (blocked_.block_rows) {
      case 1: spmv_blocked_shared_x_kernel<T, 1><<<blocks, threads, shared, stream>>>(view_, x, y, alpha, beta); break;
      case 2: spmv_blocked_shared_x_kernel<T, 2><<<blocks, threads, shared, stream>>>(view_, x, y, alpha, beta); break;
      case 4: spmv_blocked_shared_x_kernel<T, 4><<<blocks, threads, shared, stream>>>(view_, x, y, alpha, beta); break;
      default: spmv_blocked_shared_x_kernel<T, 8><<<blocks, threads, shared, stream>>>(view_, x, y, alpha, beta); break;
    }
    SPMV_LAUNCH_CHECK();
  }
  KernelParams params() const override {
    return {{"block_rows", blocked_.block_rows}, {"block_cols", blocked_.block_cols}, {"max_padding", max_padding_}};
  }
  std::size_t device_bytes() const override { return matrix_bytes(); }
  // Every array once, the padding entries included (the half-warps read them).
  std::size_t matrix_bytes() const override {
    return blocked_.row_block_ptr.bytes() + blocked_.block_col.bytes() + blocked_.block_entry_ptr.bytes() +
           blocked_.row_units.bytes() + blocked_.col_offset.bytes() + blocked_.values.bytes();
  }

 private:
  DeviceBlocked<T> blocked_;
  int max_padding_;
  BlockedView<T> view_;
};

}  // namespace

template <class T>
std::unique_ptr<FormatKernel<T>> make_blocked_shared_x(const FormatSource<T>& source, const KernelParams& params) {
  BlockedOptions options;
  options.block_rows = param_or(params, "block_rows", options.block_rows);
  options.block_cols = param_or(params, "block_cols", options.block_cols);
  options.max_padding = max_padding_param(params);
  return std::make_unique<BlockedSharedX<T>>(build_blocked_on_device(source.device, options, source.stream),
                                             static_cast<int>(options.max_padding));
}

template std::unique_ptr<FormatKernel<float>> make_blocked_shared_x(const FormatSource<float>&, const KernelParams&);
template std::unique_ptr<FormatKernel<double>> make_blocked_shared_x(const FormatSource<double>&, const KernelParams&);

}  // namespace spmv::detail
