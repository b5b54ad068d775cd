// CSR-Adaptive: row binning (Greathouse & Daga, SC'14, with the long-row
// handling of their 2015 CSR-Adaptive/CSR-VectorL follow-up).
//
// At plan time consecutive rows are grouped into row blocks of at most
// C - (V - 1) entries and rows, C = block_size * items_per_thread, V =
// vector_width; one thread block multiplies one row block, loading V
// consecutive entries at a time from the multiple of V below the block's
// first entry (the V - 1 spare entries keep that aligned window within C):
// - several rows (CSR-stream): the block loads the row block's entries
//   coalesced (col_idx/values evict-first, x through the read-only cache, all
//   of a thread's loads in flight at once) and keeps their products in shared
//   memory; then sub-warps of L lanes, L the power of two (<= 32) that spreads
//   the block's threads over its rows, each sum one row from shared memory.
//   A row of more than 4 times the block's mean row length (a hub row among
//   short ones; blocks holding one are marked at plan time) is left to a
//   whole warp once the other rows are done.
// - one row of up to 4C entries (a row too long to share a block): the whole
//   block strides over it in rounds of C entries, summing in registers, then
//   combines the threads' sums with a fixed-order block reduction.
// - a row longer than 4C is cut into chunks of about equal size (<= 4C), one
//   block each; a chunk writes its partial sum to workspace and a second pass
//   (SplitRowFixup) adds each cut row's partials in a fixed order and writes
//   y, so results are deterministic (no atomics).
// - a matrix whose row blocks all fit the GPU at once cuts every row longer
//   than C instead: its product lasts as long as its slowest block. There
//   the chunk's block that finishes last completes the row
//   (SplitRowCompletion), which saves the second launch; with several waves
//   of blocks that costs more than it saves (call 219).
// A matrix whose every row block holds one row, of entries spread thinly
// over x, is launched without CSR-stream's staging in shared memory, which
// would otherwise take the L1 that such rows' gathers of x reuse.
// With column_bits = 16 a row block whose columns span fewer than 2^16 reads
// 2-byte column offsets instead of the CSR's columns (csr_column_offsets.hpp).
// The workspace is the row-block table, the long-row marks, the chunk
// partials, the cut rows with their counts and the column offsets.
#include <algorithm>
#include <string>

#include "core/backends.hpp"
#include "cuda/block_reduce.cuh"
#include "cuda/csr_column_offsets.hpp"
#include "cuda/csr_kernels.hpp"
#include "cuda/csr_row_blocks.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/dependent_launch.cuh"
#include "cuda/device_loads.cuh"
#include "cuda/split_row_completion.cuh"
#include "cuda/vector_loads.cuh"
#include "spmv/error.hpp"

namespace spmv::detail {

namespace {

// A row longer than this many rounds of a block's capacity is cut into
// chunks (first choice, not yet measured: a lone block may work 4x longer
// than the others, and cut rows are few enough to make the fix-up cheap).
constexpr index_t max_rounds_per_block = 4;
// The same where every row block is resident at once (fits_at_once()).
constexpr index_t single_wave_rounds_per_block = 1;

// In CSR-stream, a row of more than this many times its block's mean row
// length (and more than a warp's) is summed by a whole warp: the lanes per row
// follow the block's row count, so the threads' sums would otherwise wait on
// the few lanes of one long row. Rows of about equal length keep their lanes.
constexpr int long_row_mean_multiple = 4;

// The density (entries over rows x columns) below which a matrix whose every
// row block holds one row is launched without CSR-stream's staging (Staged =
// false): its shared memory then goes to L1, where the rows' scattered
// gathers find x again. Denser rows read x as a stream that the L1 does not
// need to hold, and keep the staged launch's occupancy. H200, calls 216-217,
// 13 matrices of rows longer than a row block: uni_50k_1024 (2% dense) f32
// 2.8x faster without the staging, uni_20k_2048 (10%) 1.07-1.11x, dense_tall
// (100%) f64 0.77x.
constexpr double stageless_density_limit = 0.25;

// Row blocks per multiprocessor below which the default items_per_thread is
// halved (items_per_thread_for).
constexpr double min_row_blocks_per_multiprocessor = 8;

// Loads of one round: thread t takes the groups of V entries that start at
// origin + V * (group * BlockSize + t); of their entries those in [begin, end)
// are loaded, the others are left as zero. origin is a multiple of V, so a
// whole group is one aligned vector load of values and one of columns (or of
// their 16-bit offsets).
template <int BlockSize, int Items, int V, class T>
__device__ __forceinline__ void load_round(const CsrView<T>& a, index_t column_base, const std::uint16_t* offsets,
                                           index_t origin, index_t begin, index_t end, index_t (&cols)[Items],
                                           T (&vals)[Items]) {
  static_assert(Items % V == 0, "a thread's items are whole groups");
#pragma unroll
  for (int group = 0; group < Items / V; ++group) {
    const index_t first = origin + V * (group * BlockSize + static_cast<index_t>(threadIdx.x));
    index_t c[V] = {};
    T v[V] = {};
    if (first >= begin && first + V <= end) {
      load_streaming_vector<V>(a.values + first, v);
      load_columns<V>(column_base, offsets, a.col_idx, first, c);
    } else {
#pragma unroll
      for (int j = 0; j < V; ++j)
        if (first + j >= begin && first + j < end) {
          c[j] = column_of(column_base, offsets, a.col_idx, first + j);
          v[j] = load_streaming(a.values + first + j);
        }
    }
#pragma unroll
    for (int j = 0; j < V; ++j) {
      cols[group * V + j] = c[j];
      vals[group * V + j] = v[j];
    }
  }
}

// The products of a thread's loads (zero outside [begin, end), whose x is not read).
template <int BlockSize, int Items, int V, class T>
__device__ __forceinline__ void multiply_round(const T* x, index_t origin, index_t begin, index_t end,
                                               const index_t (&cols)[Items], T (&vals)[Items]) {
#pragma unroll
  for (int item = 0; item < Items; ++item) {
    const index_t k = origin + V * ((item / V) * BlockSize + static_cast<index_t>(threadIdx.x)) + item % V;
    if (k >= begin && k < end) vals[item] *= load_cached(x + cols[item]);
  }
}

// CSR-stream's lanes per row: the power of two (<= 32) that spreads the
// block's threads over its rows.
__device__ __forceinline__ int stream_lanes(index_t rows, int block_size) {
  int lanes = 1;
  while (lanes < warp_size && 2 * lanes * rows <= block_size) lanes *= 2;
  return lanes;
}

// The length above which a row of a CSR-stream block is left to a warp (see
// long_row_mean_multiple); at least a warp's, so a block has fewer than
// capacity / warp_size such rows. None when the rows already get a warp each.
__device__ __forceinline__ index_t long_row_length(const RowBlock& block, int block_size, index_t capacity) {
  const index_t rows = block.row_end - block.row_begin;
  if (stream_lanes(rows, block_size) == warp_size) return capacity;
  return max(warp_size, long_row_mean_multiple * (block.entry_end - block.entry_begin) / rows);
}

// has_long_rows[b]: whether CSR-stream block b has a row longer than
// long_row_length (one warp per row block). Marked at plan time so that the
// product's other blocks keep the plain CSR-stream sums, with no extra barrier.
// *stream_blocks becomes nonzero if any block holds more than one row.
__global__ void mark_long_row_blocks_kernel(const index_t* __restrict__ row_ptr, const RowBlock* __restrict__ blocks,
                                            index_t block_count, int block_size, index_t capacity,
                                            std::uint8_t* __restrict__ has_long_rows, int* __restrict__ stream_blocks) {
  const index_t b = static_cast<index_t>((blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x) /
                                         warp_size);
  if (b >= block_count) return;  // warp-uniform
  const RowBlock block = blocks[b];
  const index_t rows = block.row_end - block.row_begin;
  const index_t longest = long_row_length(block, block_size, capacity);
  bool found = false;
  if (rows > 1)
    for (index_t r = block.row_begin + static_cast<index_t>(threadIdx.x % warp_size); r < block.row_end;
         r += warp_size)
      found |= row_ptr[r + 1] - row_ptr[r] > longest;
  found = __any_sync(0xffffffffu, found);
  if (threadIdx.x % warp_size == 0) {
    has_long_rows[b] = found;
    if (rows > 1) atomicOr(stream_blocks, 1);
  }
}

// CSR-stream's sums, from the products and rows' starts staged in shared
// memory: sub-warps of `lanes` threads each sum one row. With LeaveLongRows,
// rows longer than `long_row` are listed instead and then summed by a warp
// each (the plain instance is the one most blocks run, kept free of that).
template <int BlockSize, bool LeaveLongRows, class T>
__device__ __forceinline__ void sum_stream_rows(const T* products, const std::uint16_t* row_starts, index_t rows,
                                                index_t long_row, index_t* long_rows, int* long_row_count, T* y,
                                                T alpha, T beta) {
  const int lanes = stream_lanes(rows, BlockSize);
  const int lane = threadIdx.x % lanes;
  for (index_t first = 0; first < rows; first += BlockSize / lanes) {
    const index_t r = first + static_cast<index_t>(threadIdx.x) / lanes;
    bool summed = r < rows;
    T sum = 0;
    if constexpr (LeaveLongRows) {
      if (summed && row_starts[r + 1] - row_starts[r] > long_row) {
        summed = false;
        if (lane == 0) long_rows[atomicAdd(long_row_count, 1)] = r;
      }
    }
    if (summed)
      for (index_t k = row_starts[r] + lane; k < index_t{row_starts[r + 1]}; k += lanes) sum += products[k];
    // Every lane of the warp gets here (the loop bounds are block-uniform).
    for (int offset = lanes / 2; offset > 0; offset /= 2)
      sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    if (lane == 0 && summed) store_result(y + r, sum, alpha, beta);
  }
  if constexpr (LeaveLongRows) {
    __syncthreads();
    // The long rows, one warp each; the order of the list does not change any row's sum.
    const int warp_lane = threadIdx.x % warp_size;
    for (int i = threadIdx.x / warp_size; i < *long_row_count; i += BlockSize / warp_size) {
      const index_t row = long_rows[i];
      T sum = 0;
      for (index_t k = row_starts[row] + warp_lane; k < index_t{row_starts[row + 1]}; k += warp_size)
        sum += products[k];
      sum = subwarp_sum<warp_size>(sum, 0xffffffffu);
      if (warp_lane == 0) store_result(y + row, sum, alpha, beta);
    }
  }
}

// No __launch_bounds__: with it, ptxas (CUDA 13) trades small spills for occupancy here.
// V entries per load; the row blocks leave room for the V - 1 entries between
// a block's first entry and the multiple of V below it (`origin`). The cut
// rows' chunks complete their rows where CompletesCutRows, else the fix-up
// launched after this kernel does. Without Staged every row block must hold
// one row: CSR-stream and its shared memory are left out.
template <class T, int BlockSize, int ItemsPerThread, int V, bool CompletesCutRows, bool Staged>
__global__ void spmv_csr_adaptive_kernel(CsrView<T> a, const RowBlock* __restrict__ row_blocks,
                                         const std::uint8_t* __restrict__ has_long_rows, ColumnSource columns,
                                         const T* __restrict__ x, T* __restrict__ y, T alpha, T beta,
                                         T* __restrict__ partials, SplitRowsInKernel cut_rows) {
  constexpr index_t capacity = BlockSize * ItemsPerThread;
  constexpr index_t staged = Staged ? capacity : 1;  // the staging's entries
  __shared__ alignas(16) T products[staged];
  // Relative to origin, so 16 bits hold them: less shared memory leaves more
  // of the SM's to L1 (call 209: 1.004x -> 1.016x the best cuSPARSE on 25 units).
  static_assert(capacity + V <= 0xffff, "a row block's starts fit 16 bits");
  __shared__ std::uint16_t row_starts[staged + 1];
  __shared__ T warp_sums[BlockSize / warp_size];
  __shared__ index_t long_rows[Staged ? capacity / warp_size : 1];  // rows longer than a warp, at most this many
  __shared__ int long_row_count;
  if constexpr (!CompletesCutRows) let_next_kernel_start();  // the fix-up, which waits for this kernel's end

  const RowBlock block = row_blocks[blockIdx.x];
  const index_t rows = block.row_end - block.row_begin;
  const index_t origin = block.entry_begin / V * V;
  const index_t column_base = columns.base_of(blockIdx.x);
  index_t cols[ItemsPerThread];
  T vals[ItemsPerThread];

  if (!Staged || rows == 1) {
    T sum = 0;
    for (index_t round = origin; round < block.entry_end; round += capacity) {
      load_round<BlockSize, ItemsPerThread, V>(a, column_base, columns.offsets, round, block.entry_begin,
                                               block.entry_end, cols, vals);
      multiply_round<BlockSize, ItemsPerThread, V>(x, round, block.entry_begin, block.entry_end, cols, vals);
#pragma unroll
      for (int item = 0; item < ItemsPerThread; ++item) sum += vals[item];
    }
    sum = block_sum<BlockSize>(sum, warp_sums);
    if constexpr (CompletesCutRows) {
      if (block.partial >= 0)
        return complete_split_row_piece<BlockSize>(cut_rows, block.partial, sum, partials, y, alpha, beta,
                                                   warp_sums);
    }
    if (threadIdx.x == 0) {
      if (block.partial < 0)
        store_result(y + block.row_begin, sum, alpha, beta);
      else
        partials[block.partial] = sum;
    }
    return;
  }

  // CSR-stream: stage the products and the rows' starts (relative to origin).
  const bool long_rows_left = has_long_rows[blockIdx.x];
  load_round<BlockSize, ItemsPerThread, V>(a, column_base, columns.offsets, origin, block.entry_begin,
                                           block.entry_end, cols, vals);
#pragma unroll
  for (int item = 0; item <= ItemsPerThread; ++item) {
    const index_t i = item * BlockSize + static_cast<index_t>(threadIdx.x);
    if (i <= rows)
      row_starts[i] = static_cast<std::uint16_t>(load_streaming(a.row_ptr + block.row_begin + i) - origin);
  }
  multiply_round<BlockSize, ItemsPerThread, V>(x, origin, block.entry_begin, block.entry_end, cols, vals);
#pragma unroll
  for (int group = 0; group < ItemsPerThread / V; ++group) {
    const index_t slot = V * (group * BlockSize + static_cast<index_t>(threadIdx.x));
    if (origin + slot < block.entry_end) {
      T group_products[V];
#pragma unroll
      for (int j = 0; j < V; ++j) group_products[j] = vals[group * V + j];
      store_vector<V>(products + slot, group_products);
    }
  }
  if (long_rows_left && threadIdx.x == 0) long_row_count = 0;
  __syncthreads();

  if (long_rows_left)
    sum_stream_rows<BlockSize, true>(products, row_starts, rows, long_row_length(block, BlockSize, capacity),
                                     long_rows, &long_row_count, y + block.row_begin, alpha, beta);
  else
    sum_stream_rows<BlockSize, false>(products, row_starts, rows, capacity, long_rows, &long_row_count,
                                      y + block.row_begin, alpha, beta);
}

template <class T>
class CsrAdaptive final : public CsrAlgorithm<T> {
 public:
  // items_per_thread and vector_width of 0: chosen by prepare() for the matrix (items_per_thread_for).
  CsrAdaptive(int block_size, int items_per_thread, int vector_width, int column_bits)
      : block_size_(block_size),
        items_requested_(items_per_thread),
        width_requested_(vector_width),
        column_bits_(column_bits) {
    if (items_requested_ && width_requested_ && items_requested_ % width_requested_ != 0)
      throw InvalidArgument("csr-adaptive: vector_width " + std::to_string(width_requested_) +
                            " does not divide items_per_thread " + std::to_string(items_requested_) +
                            " (a thread loads whole groups of vector_width entries)");
  }

  void prepare(const CsrView<T>& device) override {
    items_per_thread_ =
        items_requested_ ? items_requested_ : items_per_thread_for(device, std::max(width_requested_, 2));
    vector_width_ = width_requested_ ? width_requested_ : std::min(items_per_thread_, 4);
    if (vector_width_ > 1) require_vector_alignment(device, "csr-adaptive");
    const index_t capacity = block_size_ * items_per_thread_;
    const index_t grouped = capacity - (vector_width_ - 1);  // room for the block's alignment
    completes_cut_rows_ = fits_at_once(device, grouped);
    const index_t rounds = completes_cut_rows_ ? single_wave_rounds_per_block : max_rounds_per_block;
    const std::int64_t max_chunk = static_cast<std::int64_t>(rounds) * capacity;
    DeviceRowBlocks pieces = build_row_blocks_on_device(device.row_ptr, device.rows, grouped, grouped, max_chunk,
                                                        nullptr);
    row_blocks_ = std::move(pieces.blocks);
    partials_ = DeviceBuffer<T>(pieces.partial_count, "csr-adaptive chunk partials");
    if (completes_cut_rows_)
      cut_rows_ = SplitRowCompletion(pieces.cut_rows, pieces.partial_count);
    else
      fixup_ = SplitRowFixup(pieces.cut_rows);
    has_long_rows_ = DeviceBuffer<std::uint8_t>(row_blocks_.size(), "csr-adaptive long-row marks");
    staged_ = true;
    if (row_blocks_.size() > 0) {
      const auto count = static_cast<index_t>(row_blocks_.size());
      DeviceBuffer<int> stream_blocks(1, "csr-adaptive stream-block flag");
      SPMV_CUDA_CHECK(cudaMemset(stream_blocks.data(), 0, sizeof(int)));
      mark_long_row_blocks_kernel<<<blocks_for(static_cast<std::size_t>(count) * warp_size, 256), 256>>>(
          device.row_ptr, row_blocks_.data(), count, block_size_, capacity, has_long_rows_.data(),
          stream_blocks.data());
      SPMV_LAUNCH_CHECK();
      int any_stream_block = 0;
      SPMV_CUDA_CHECK(cudaMemcpy(&any_stream_block, stream_blocks.data(), sizeof(int), cudaMemcpyDeviceToHost));
      const double density = static_cast<double>(device.nnz) /
                             (static_cast<double>(device.rows) * static_cast<double>(std::max<index_t>(device.cols, 1)));
      staged_ = any_stream_block != 0 || density >= stageless_density_limit;
    }
    if (column_bits_ == 16)
      column_offsets_ =
          build_column_offsets_on_device(row_blocks_.data(), row_blocks_.size(), device.col_idx, device.nnz, nullptr);
  }

  void spmv(const CsrView<T>& a, const T* x, T* y, T alpha, T beta,
            cudaStream_t stream) const override {
    if (row_blocks_.size() == 0) return;
    if (block_size_ == 128)
      launch<128>(a, x, y, alpha, beta, stream);
    else
      launch<256>(a, x, y, alpha, beta, stream);
    SPMV_LAUNCH_CHECK();
    fixup_.launch(partials_.data(), y, alpha, beta, stream);  // none where the kernel completes the cut rows
  }

  KernelParams params() const override {
    return {{"block_size", block_size_},
            {"items_per_thread", items_per_thread_},
            {"vector_width", vector_width_},
            {"column_bits", column_bits_}};
  }
  std::size_t workspace_bytes() const override {
    return row_blocks_.bytes() + has_long_rows_.bytes() + partials_.bytes() + fixup_.bytes() + cut_rows_.bytes() +
           column_offsets_.bytes();
  }

 private:
  // The largest of the precision's default and its halves (down to
  // `fewest`) at which the matrix still gives every multiprocessor
  // min_row_blocks_per_multiprocessor row blocks: a matrix small enough for
  // the L2 in few large blocks leaves multiprocessors idle. H200, call 152, 56
  // real matrices and 12 generated ones of 11 k - 7 M entries against cuSPARSE
  // (geomean): 0.932x at 128 x 8 in f32, 1.207x by this rule; 1.031x -> 1.093x
  // in f64 (NSR8K f32: 45 blocks of 1,024 entries for 132 SMs, 0.89x; 1.27x in
  // blocks of 256). 4 to 64 blocks per SM all gave 1.20-1.21x in f32.
  int items_per_thread_for(const CsrView<T>& a, int fewest) const {
    const double row_blocks_wanted = min_row_blocks_per_multiprocessor * current_gpu_shape().multiprocessors;
    const double work = std::max<double>(a.nnz, a.rows);  // a row block holds at most capacity entries and rows
    int items = sizeof(T) == 4 ? 8 : 4;
    while (items / 2 >= fewest && work / (block_size_ * items) < row_blocks_wanted) items /= 2;
    return items;
  }

  // Whether the row blocks (at least `work` / `grouped` of them) all fit on
  // the GPU at once, as resident blocks of block_size threads.
  bool fits_at_once(const CsrView<T>& a, index_t grouped) const {
    const GpuShape gpu = current_gpu_shape();
    const double resident_blocks =
        static_cast<double>(gpu.multiprocessors) * (gpu.threads_per_multiprocessor / block_size_);
    const double work = std::max<double>(a.nnz, a.rows);
    return work / grouped <= resident_blocks;
  }

  int block_size_;
  int items_requested_;  // 0: chosen by prepare()
  int width_requested_;  // 0: chosen by prepare()
  int column_bits_;
  int items_per_thread_ = 0;  // as prepared
  int vector_width_ = 0;
  DeviceBuffer<RowBlock> row_blocks_;
  DeviceBuffer<std::uint8_t> has_long_rows_;  // per row block (mark_long_row_blocks_kernel)
  DeviceColumnOffsets column_offsets_;  // empty with 32-bit columns
  mutable DeviceBuffer<T> partials_;  // written by every product
  bool completes_cut_rows_ = false;  // by the kernel's blocks (cut_rows_), else by fixup_
  bool staged_ = true;  // false: every row block one row, launched without CSR-stream's staging
  SplitRowFixup fixup_;
  SplitRowCompletion cut_rows_;

  template <int BlockSize>
  void launch(const CsrView<T>& a, const T* x, T* y, T alpha, T beta, cudaStream_t stream) const {
    switch (items_per_thread_) {
      case 2: launch<BlockSize, 2>(a, x, y, alpha, beta, stream); break;
      case 4: launch<BlockSize, 4>(a, x, y, alpha, beta, stream); break;
      case 8: launch<BlockSize, 8>(a, x, y, alpha, beta, stream); break;
      default: launch<BlockSize, 12>(a, x, y, alpha, beta, stream); break;
    }
  }
  template <int BlockSize, int Items>
  void launch(const CsrView<T>& a, const T* x, T* y, T alpha, T beta, cudaStream_t stream) const {
    const auto run = [&](auto kernel) {
      kernel<<<static_cast<unsigned>(row_blocks_.size()), BlockSize, 0, stream>>>(
          a, row_blocks_.data(), has_long_rows_.data(), column_offsets_.view(), x, y, alpha, beta, partials_.data(),
          cut_rows_.view());
    };
    if (completes_cut_rows_)
      run_staged<BlockSize, Items, true>(run);
    else
      run_staged<BlockSize, Items, false>(run);
  }
  template <int BlockSize, int Items, bool CompletesCutRows, class Run>
  void run_staged(const Run& run) const {
    if (staged_)
      run_with_width<BlockSize, Items, CompletesCutRows, true>(run);
    else
      run_with_width<BlockSize, Items, CompletesCutRows, false>(run);
  }
  template <int BlockSize, int Items, bool CompletesCutRows, bool Staged, class Run>
  void run_with_width(const Run& run) const {
    if constexpr (Items % 4 == 0) {
      if (vector_width_ == 4) return run(spmv_csr_adaptive_kernel<T, BlockSize, Items, 4, CompletesCutRows, Staged>);
    }
    if (vector_width_ == 2)
      run(spmv_csr_adaptive_kernel<T, BlockSize, Items, 2, CompletesCutRows, Staged>);
    else
      run(spmv_csr_adaptive_kernel<T, BlockSize, Items, 1, CompletesCutRows, Staged>);
  }
};

}  // namespace

template <class T>
std::unique_ptr<CsrAlgorithm<T>> make_csr_adaptive(const KernelParams& params) {
  return std::make_unique<CsrAdaptive<T>>(
      // H200, call 147 (2026-11-29), 16 matrices per precision against cuSPARSE: loads of 4
      // entries 0.855x -> 1.042x in f32 at 128 x 8 (1.028x at 256 x 8), 0.968x -> 1.033x in f64
      // at 128 x 4 (1.015x at 128 x 8); the bytes of a row block about equal in both. Smaller
      // matrices take fewer items (items_per_thread_for).
      param_or(params, "block_size", 128), param_or(params, "items_per_thread", 0), param_or(params, "vector_width", 0),
      param_or(params, "column_bits", 16));
}
template std::unique_ptr<CsrAlgorithm<float>> make_csr_adaptive(const KernelParams&);
template std::unique_ptr<CsrAlgorithm<double>> make_csr_adaptive(const KernelParams&);

}  // namespace spmv::detail
