// Segmented-scan SpMV (Sengupta et al. 2007 / CUDPP; the baseline of
// Baskaran & Bordawekar), in four launches:
//  1. products: one thread per entry forms a_k * x[col_k] into a workspace
//     (coalesced reads of values and col_idx; x through the read-only cache).
//  2. tiles: a block of 256 threads scans a tile of 2048 products with the
//     head flags (the reduce-then-scan structure of Dotsenko et al.'s
//     matrix-based scan): the tile is staged through shared memory so that
//     global reads and writes are coalesced, each thread scans 8 consecutive
//     products serially, the threads' (sum, has-head) pairs are scanned
//     across the block by warp shuffles, and each thread rescans its items
//     from its prefix, writing the in-tile segmented scan back in place.
//     The tile's own (sum after its last head, has-head) pair is saved.
//  3. carries: one block scans the tiles' pairs, giving each tile the
//     segmented sum carried into it.
//  4. gather: one thread per row reads the scan at its row's last entry and
//     adds the carry of that tile when the row started in an earlier tile.
// Combining (a, then b): sum = b.has_head ? b.sum : a.sum + b.sum,
// has_head = a.has_head || b.has_head.
#include <algorithm>

#include "cuda/cuda_check.hpp"
#include "cuda/device_build.hpp"
#include "cuda/device_loads.cuh"
#include "cuda/format_kernels.hpp"
#include "cuda/segmented_device.hpp"

namespace spmv::detail {

namespace {

constexpr int tile_threads = 256;
constexpr int items_per_thread = 8;
constexpr int tile_items = tile_threads * items_per_thread;
constexpr int carry_threads = 1024;

template <class T>
struct ScanPair {
  T sum;
  bool has_head;
};

template <class T>
__device__ __forceinline__ ScanPair<T> combine(ScanPair<T> a, ScanPair<T> b) {
  return {b.has_head ? b.sum : a.sum + b.sum, a.has_head || b.has_head};
}

template <class T>
__device__ __forceinline__ ScanPair<T> shuffle_up(ScanPair<T> p, int offset) {
  return {__shfl_up_sync(0xffffffffu, p.sum, offset), __shfl_up_sync(0xffffffffu, static_cast<int>(p.has_head), offset) != 0};
}

// Exclusive segmented scan of one pair per thread over a block of
// BlockThreads threads (a multiple of 32, at most 32 warps); `warp_pairs` is
// shared scratch of BlockThreads / 32 pairs. Returns this thread's exclusive
// prefix; `total` receives the whole block's combination (in every thread).
template <int BlockThreads, class T>
__device__ ScanPair<T> block_exclusive_scan(ScanPair<T> mine, ScanPair<T>* warp_pairs, ScanPair<T>& total) {
  constexpr int warps = BlockThreads / warp_size;
  const int lane = threadIdx.x % warp_size;
  const int warp = threadIdx.x / warp_size;
  ScanPair<T> inclusive = mine;
#pragma unroll
  for (int offset = 1; offset < warp_size; offset *= 2) {
    const ScanPair<T> before = shuffle_up(inclusive, offset);
    if (lane >= offset) inclusive = combine(before, inclusive);
  }
  ScanPair<T> exclusive = shuffle_up(inclusive, 1);
  if (lane == 0) exclusive = {T(0), false};
  if (lane == warp_size - 1) warp_pairs[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    ScanPair<T> w = lane < warps ? warp_pairs[lane] : ScanPair<T>{T(0), false};
#pragma unroll
    for (int offset = 1; offset < warps; offset *= 2) {
      const ScanPair<T> before = shuffle_up(w, offset);
      if (lane >= offset) w = combine(before, w);
    }
    if (lane < warps) warp_pairs[lane] = w;  // inclusive over warps
  }
  __syncthreads();
  total = warp_pairs[warps - 1];
  const ScanPair<T> result = warp > 0 ? combine(warp_pairs[warp - 1], exclusive) : exclusive;
  __syncthreads();  // warp_pairs may be reused by the caller
  return result;
}

template <class T>
__global__ void spmv_segscan_products_kernel(index_t nnz, const index_t* __restrict__ col_idx,
                                             const T* __restrict__ values, const T* __restrict__ x,
                                             T* __restrict__ products) {
  for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < nnz;
       k += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    products[k] = load_streaming(values + k) * load_cached(x + load_streaming(col_idx + k));
}

template <class T>
__global__ void __launch_bounds__(tile_threads)
    spmv_segscan_tiles_kernel(index_t nnz, const std::uint8_t* __restrict__ head_flags, T* products,
                              T* tile_sum, std::uint8_t* tile_has_head) {
  __shared__ T staged_values[tile_items];
  __shared__ std::uint8_t staged_flags[tile_items];
  __shared__ ScanPair<T> warp_pairs[tile_threads / warp_size];
  const std::int64_t tile_start = static_cast<std::int64_t>(blockIdx.x) * tile_items;
  const int count = static_cast<int>(std::min<std::int64_t>(tile_items, nnz - tile_start));
  for (int i = threadIdx.x; i < tile_items; i += tile_threads) {
    staged_values[i] = i < count ? products[tile_start + i] : T(0);
    staged_flags[i] = i < count ? load_streaming(head_flags + tile_start + i) : std::uint8_t(0);
  }
  __syncthreads();
  T items[items_per_thread];
  bool heads[items_per_thread];
  ScanPair<T> mine{T(0), false};
#pragma unroll
  for (int i = 0; i < items_per_thread; ++i) {
    items[i] = staged_values[threadIdx.x * items_per_thread + i];
    heads[i] = staged_flags[threadIdx.x * items_per_thread + i] != 0;
    mine = combine(mine, ScanPair<T>{items[i], heads[i]});
  }
  ScanPair<T> tile_total;
  ScanPair<T> running = block_exclusive_scan<tile_threads>(mine, warp_pairs, tile_total);
#pragma unroll
  for (int i = 0; i < items_per_thread; ++i) {
    running = combine(running, ScanPair<T>{items[i], heads[i]});
    staged_values[threadIdx.x * items_per_thread + i] = running.sum;
  }
  __syncthreads();
  for (int i = threadIdx.x; i < count; i += tile_threads) products[tile_start + i] = staged_values[i];
  if (threadIdx.x == 0) {
    tile_sum[blockIdx.x] = tile_total.sum;
    tile_has_head[blockIdx.x] = tile_total.has_head;
  }
}

// One block: carry_in[t] = combination of tiles 0 .. t-1.
template <class T>
__global__ void __launch_bounds__(carry_threads)
    spmv_segscan_carries_kernel(index_t tiles, const T* tile_sum, const std::uint8_t* tile_has_head, T* carry_in) {
  __shared__ ScanPair<T> warp_pairs[carry_threads / warp_size];
  ScanPair<T> carried{T(0), false};
  for (index_t first = 0; first < tiles; first += carry_threads) {
    const index_t t = first + threadIdx.x;
    const ScanPair<T> mine = t < tiles ? ScanPair<T>{tile_sum[t], tile_has_head[t] != 0} : ScanPair<T>{T(0), false};
    ScanPair<T> chunk_total;
    const ScanPair<T> before = block_exclusive_scan<carry_threads>(mine, warp_pairs, chunk_total);
    if (t < tiles) carry_in[t] = combine(carried, before).sum;
    carried = combine(carried, chunk_total);
  }
}

template <class T>
__global__ void spmv_segscan_gather_kernel(index_t rows, const index_t* __restrict__ row_ptr,
                                           const T* __restrict__ scanned, const T* __restrict__ carry_in,
                                           T* __restrict__ y, T alpha, T beta) {
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const index_t begin = row_ptr[row];
  const index_t end = row_ptr[row + 1];
  T sum = 0;
  if (end > begin) {
    const index_t last_tile = (end - 1) / tile_items;
    sum = scanned[end - 1];
    if (begin < static_cast<std::int64_t>(last_tile) * tile_items) sum += carry_in[last_tile];
  }
  store_result(y + row, sum, alpha, beta);
}

// The head flags: one thread per row marks its first entry if it has one.
__global__ void flag_row_heads_kernel(const index_t* row_ptr, index_t rows, std::uint8_t* head_flags) {
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row < rows && row_ptr[row + 1] > row_ptr[row]) head_flags[row_ptr[row]] = 1;
}

template <class T>
class SegmentedScan final : public FormatKernel<T> {
 public:
  explicit SegmentedScan(DeviceSegmented<T>&& matrix)
      : rows_(matrix.rows),
        nnz_(matrix.nnz),
        tiles_(static_cast<index_t>((static_cast<std::int64_t>(nnz_) + tile_items - 1) / tile_items)),
        row_ptr_(std::move(matrix.row_ptr)),
        col_idx_(std::move(matrix.col_idx)),
        values_(std::move(matrix.values)),
        head_flags_(std::move(matrix.head_flags)),
        products_(nnz_, "segmented-scan products"),
        tile_sum_(tiles_, "segmented-scan tile sums"),
        tile_has_head_(tiles_, "segmented-scan tile flags"),
        carry_in_(tiles_, "segmented-scan tile carries") {}

  void spmv(const T* x, T* y, T alpha, T beta, cudaStream_t stream) const override {
    if (rows_ == 0) return;
    if (nnz_ > 0) {
      const unsigned product_blocks = std::min(blocks_for(nnz_, 256), 65535u * 16);
      spmv_segscan_products_kernel<<<product_blocks, 256, 0, stream>>>(nnz_, col_idx_.data(), values_.data(), x,
                                                                       products_.data());
      SPMV_LAUNCH_CHECK();
      spmv_segscan_tiles_kernel<<<tiles_, tile_threads, 0, stream>>>(nnz_, head_flags_.data(), products_.data(),
                                                                     tile_sum_.data(), tile_has_head_.data());
      SPMV_LAUNCH_CHECK();
      spmv_segscan_carries_kernel<<<1, carry_threads, 0, stream>>>(tiles_, tile_sum_.data(), tile_has_head_.data(),
                                                                   carry_in_.data());
      SPMV_LAUNCH_CHECK();
    }
    spmv_segscan_gather_kernel<<<blocks_for(rows_, 256), 256, 0, stream>>>(rows_, row_ptr_.data(), products_.data(),
                                                                           carry_in_.data(), y, alpha, beta);
    SPMV_LAUNCH_CHECK();
  }
  KernelParams params() const override { return {}; }
  std::size_t device_bytes() const override {
    return row_ptr_.bytes() + col_idx_.bytes() + values_.bytes() + head_flags_.bytes() + products_.bytes() +
           tile_sum_.bytes() + tile_has_head_.bytes() + carry_in_.bytes();
  }
  // The format's arrays once (the products' round trip through the
  // workspace is the method's own cost, not counted).
  std::size_t matrix_bytes() const override {
    return row_ptr_.bytes() + col_idx_.bytes() + values_.bytes() + head_flags_.bytes();
  }

 private:
  index_t rows_;
  index_t nnz_;
  index_t tiles_;
  DeviceBuffer<index_t> row_ptr_;
  DeviceBuffer<index_t> col_idx_;
  DeviceBuffer<T> values_;
  DeviceBuffer<std::uint8_t> head_flags_;
  // Workspace, written by every product (hence mutable: the product is const).
  mutable DeviceBuffer<T> products_;
  mutable DeviceBuffer<T> tile_sum_;
  mutable DeviceBuffer<std::uint8_t> tile_has_head_;
  mutable DeviceBuffer<T> carry_in_;
};

}  // namespace

template <class T>
DeviceSegmented<T> build_segmented_on_device(const CsrView<T>& a, cudaStream_t stream) {
  DeviceSegmented<T> s;
  s.rows = a.rows;
  s.nnz = a.nnz;
  s.row_ptr = device_copy(a.row_ptr, static_cast<std::size_t>(a.rows) + 1, "segmented row pointers", stream);
  s.col_idx = device_copy(a.col_idx, static_cast<std::size_t>(a.nnz), "segmented column indices", stream);
  s.values = device_copy(a.values, static_cast<std::size_t>(a.nnz), "segmented values", stream);
  s.head_flags = DeviceBuffer<std::uint8_t>(static_cast<std::size_t>(a.nnz), "segmented head flags");
  device_fill(s.head_flags.data(), s.head_flags.size(), std::uint8_t{0}, stream);
  if (a.rows > 0) {
    flag_row_heads_kernel<<<blocks_for(a.rows, 256), 256, 0, stream>>>(a.row_ptr, a.rows, s.head_flags.data());
    SPMV_LAUNCH_CHECK();
  }
  return s;
}

template <class T>
std::unique_ptr<FormatKernel<T>> make_segmented_scan(const FormatSource<T>& source, const KernelParams& params) {
  (void)params;  // takes none (the registry says so)
  return std::make_unique<SegmentedScan<T>>(build_segmented_on_device(source.device, source.stream));
}

template DeviceSegmented<float> build_segmented_on_device(const CsrView<float>&, cudaStream_t);
template DeviceSegmented<double> build_segmented_on_device(const CsrView<double>&, cudaStream_t);
template std::unique_ptr<FormatKernel<float>> make_segmented_scan(const FormatSource<float>&, const KernelParams&);
template std::unique_ptr<FormatKernel<double>> make_segmented_scan(const FormatSource<double>&, const KernelParams&);

}  // namespace spmv::detail
