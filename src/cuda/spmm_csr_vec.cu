// spmm-csr-vec: CSR SpMM with wide loads of B, a group of lanes per row of A.
//
// Row-major B and C: a row's group has EntryLanes x ColumnLanes lanes. The
// EntryLanes lanes of a column slot take the row's entries in turn (entry
// lanes e, e + EntryLanes, ...); the ColumnLanes lanes of an entry lane each
// own W = 16 bytes / sizeof(T) adjacent columns of C (2 doubles, 4 floats)
// and read B(col, j .. j + W) with one 16-byte load, so that the group's
// loads of one row of B are contiguous. A's entries are read once per pass
// of ColumnLanes * W columns (one pass for k <= 32 doubles or 128 floats);
// the partial sums are combined across entry lanes by shuffles and the
// first entry lane writes its W values of C with one 16-byte store. When k
// is not a multiple of W (or B, C are not 16-byte aligned), the same lanes
// use scalar accesses and guard the last columns.
//
// Column-major B and C: EntryLanes lanes per row share its entries; each
// lane keeps Columns sums (4 or 8) and reads B(col, j) column by column, the
// warp's 32 / EntryLanes adjacent rows touching nearby entries of each
// column of B. k is covered by ceil(k / Columns) column passes in one grid
// (spmm_common.cuh), so that A comes from L2 after the first pass. After the
// shuffle reduction, lane e writes the columns j with j % EntryLanes == e:
// each store instruction writes runs of adjacent rows of C.
//
// Rows far longer than the mean (power-law graphs' hubs, a few huge rows)
// would keep one lane group walking tens of thousands of entries after the
// rest of the product is done (R-MAT scale 20, k = 8, f32: 9.4 ms against
// cuSPARSE's 0.63 ms). The main kernels skip them, and a second kernel gives
// each one a block whose threads share its entries and sum each column in a
// fixed order (block_sum): still no atomics, so still deterministic.
//
// Matrix arrays are streamed (evict-first); B goes through the read-only
// cache. Tuning constants (entry lanes from the mean row length, columns per
// pass, block size) are first choices; docs/spmm.md has the measurements.
#include <algorithm>

#include "cuda/block_reduce.cuh"
#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/spmm_algorithm.hpp"
#include "cuda/spmm_common.cuh"
#include "spmv/error.hpp"
#include "spmv/formats/footprint.hpp"

namespace spmv::detail {

namespace {

// sum[w] += sum over this lane's entries of a_ij * B(col_ij, j + w), w < W.
template <class T, int EntryLanes, bool Wide>
__device__ __forceinline__ void accumulate_row_segment(const CsrView<T>& a, index_t first,
                                                       index_t end, const T* __restrict__ b,
                                                       index_t k, index_t j,
                                                       T (&sum)[widest_access<T>]) {
  constexpr int width = widest_access<T>;
#pragma unroll 4
  for (index_t p = first; p < end; p += EntryLanes) {
    const T value = load_streaming(a.values + p);
    const T* b_row = b + static_cast<std::size_t>(load_streaming(a.col_idx + p)) * k + j;
    T tile[width];
    if constexpr (Wide) {
      load_tile<width, width>(b_row, tile);
    } else {
#pragma unroll
      for (int w = 0; w < width; ++w) tile[w] = j + w < k ? load_cached(b_row + w) : T(0);
    }
#pragma unroll
    for (int w = 0; w < width; ++w) sum[w] += value * tile[w];
  }
}

// The long rows' kernel: a block per row of `rows`, its threads taking the
// row's entries in turn, long_row_columns columns of C per pass.
constexpr int long_row_block = 256;
constexpr int long_row_columns = 8;

template <class T>
__global__ void __launch_bounds__(long_row_block)
    spmm_csr_vec_long_rows_kernel(CsrView<T> a, const index_t* __restrict__ rows, const T* __restrict__ b,
                                  T* __restrict__ c, index_t k, bool row_major, T alpha, T beta) {
  __shared__ T warp_sums[long_row_columns][long_row_block / warp_size];
  const index_t row = rows[blockIdx.x];
  const index_t end = a.row_ptr[row + 1];
  for (index_t j0 = 0; j0 < k; j0 += long_row_columns) {
    const int columns = k - j0 < long_row_columns ? static_cast<int>(k - j0) : long_row_columns;
    T sum[long_row_columns] = {};
    for (index_t p = a.row_ptr[row] + static_cast<index_t>(threadIdx.x); p < end; p += long_row_block) {
      const T value = load_streaming(a.values + p);
      const std::size_t column = static_cast<std::size_t>(load_streaming(a.col_idx + p));
#pragma unroll
      for (int jj = 0; jj < long_row_columns; ++jj)
        if (jj < columns)
          sum[jj] += value * load_cached(row_major ? b + column * k + j0 + jj
                                                   : b + static_cast<std::size_t>(j0 + jj) * a.cols + column);
    }
#pragma unroll
    for (int jj = 0; jj < long_row_columns; ++jj) sum[jj] = block_sum<long_row_block>(sum[jj], warp_sums[jj]);
    if (threadIdx.x == 0)
      for (int jj = 0; jj < columns; ++jj)
        store_result(row_major ? c + static_cast<std::size_t>(row) * k + j0 + jj
                               : c + static_cast<std::size_t>(j0 + jj) * a.rows + row,
                     sum[jj], alpha, beta);
    __syncthreads();  // thread 0 has read warp_sums before the next pass writes them
  }
}

// Writes the rows longer than `threshold` to `rows` (in no particular order:
// each is multiplied alone) and counts them in `count`.
template <class T>
__global__ void list_long_rows_kernel(CsrView<T> a, index_t threshold, index_t* rows, index_t* count) {
  for (index_t row = blockIdx.x * blockDim.x + threadIdx.x; row < a.rows; row += gridDim.x * blockDim.x)
    if (a.row_ptr[row + 1] - a.row_ptr[row] > threshold) rows[atomicAdd(count, index_t(1))] = row;
}

template <class T, int EntryLanes, int ColumnLanes>
__global__ void spmm_csr_vec_row_major_kernel(CsrView<T> a, const T* __restrict__ b,
                                              T* __restrict__ c, index_t k, bool wide, T alpha,
                                              T beta, index_t long_row) {
  constexpr int group = EntryLanes * ColumnLanes;
  constexpr int width = widest_access<T>;
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t row = static_cast<index_t>(thread / group);
  if (row >= a.rows) return;  // whole groups leave together
  const int lane = threadIdx.x % group;
  const int column_lane = lane % ColumnLanes;
  const int entry_lane = lane / ColumnLanes;
  const unsigned mask = group_mask<group>();
  const index_t first = a.row_ptr[row] + entry_lane;
  const index_t end = a.row_ptr[row + 1];
  if (end - a.row_ptr[row] > long_row) return;  // the long rows' kernel's
  for (index_t pass_start = 0; pass_start < k; pass_start += ColumnLanes * width) {
    const index_t j = pass_start + column_lane * width;
    T sum[width] = {};
    if (j < k) {
      if (wide)
        accumulate_row_segment<T, EntryLanes, true>(a, first, end, b, k, j, sum);
      else
        accumulate_row_segment<T, EntryLanes, false>(a, first, end, b, k, j, sum);
    }
#pragma unroll
    for (int offset = group / 2; offset >= ColumnLanes; offset /= 2)
#pragma unroll
      for (int w = 0; w < width; ++w) sum[w] += __shfl_xor_sync(mask, sum[w], offset, group);
    if (entry_lane != 0 || j >= k) continue;
    T* c_row = c + static_cast<std::size_t>(row) * k + j;
    if (wide) {
      store_tile<width, width>(c_row, sum, alpha, beta);
    } else {
#pragma unroll
      for (int w = 0; w < width; ++w)
        if (j + w < k) store_result(c_row + w, sum[w], alpha, beta);
    }
  }
}

template <class T, int EntryLanes, int Columns>
__global__ void spmm_csr_vec_col_major_kernel(CsrView<T> a, const T* __restrict__ b,
                                              T* __restrict__ c, index_t k, unsigned passes,
                                              T alpha, T beta, index_t long_row) {
  const PassBlock block = pass_block(passes);
  const std::int64_t thread = static_cast<std::int64_t>(block.row_block) * blockDim.x + threadIdx.x;
  const index_t row = static_cast<index_t>(thread / EntryLanes);
  if (row >= a.rows) return;  // whole groups leave together
  const int lane = threadIdx.x % EntryLanes;
  const index_t j0 = static_cast<index_t>(block.pass) * Columns;
  const int columns = k - j0 < Columns ? static_cast<int>(k - j0) : Columns;
  T sum[Columns] = {};
  const index_t end = a.row_ptr[row + 1];
  if (end - a.row_ptr[row] > long_row) return;  // the long rows' kernel's
#pragma unroll 2
  for (index_t p = a.row_ptr[row] + lane; p < end; p += EntryLanes) {
    const T value = load_streaming(a.values + p);
    const T* b_entry = b + static_cast<std::size_t>(j0) * a.cols + load_streaming(a.col_idx + p);
#pragma unroll
    for (int jj = 0; jj < Columns; ++jj)
      if (jj < columns)
        sum[jj] += value * load_cached(b_entry + static_cast<std::size_t>(jj) * a.cols);
  }
  const unsigned mask = group_mask<EntryLanes>();
#pragma unroll
  for (int jj = 0; jj < Columns; ++jj) sum[jj] = subwarp_sum<EntryLanes>(sum[jj], mask);
#pragma unroll
  for (int jj = 0; jj < Columns; ++jj)
    if (jj % EntryLanes == lane && jj < columns)
      store_result(c + static_cast<std::size_t>(j0 + jj) * a.rows + row, sum[jj], alpha, beta);
}

int power_of_two_at_least(std::int64_t value) {
  int p = 1;
  while (p < 32 && p < value) p *= 2;
  return p;
}

template <class T>
class SpmmCsrVec final : public SpmmAlgorithm<T> {
 public:
  SpmmCsrVec(const SpmmSource<T>& source, int entry_lanes, int columns_per_pass, int block_size)
      : a_(source.device),
        entry_lanes_(entry_lanes),
        columns_per_pass_(columns_per_pass),
        block_size_(block_size),
        matrix_bytes_(csr_bytes(source.device.rows, source.device.nnz, sizeof(T))) {
    list_long_rows();
  }

  void spmm(const T* b, T* c, index_t k, Layout layout, T alpha, T beta,
            cudaStream_t stream) const override {
    if (a_.rows == 0 || k == 0) return;
    if (layout == Layout::row_major)
      launch_row_major(b, c, k, alpha, beta, stream);
    else
      launch_col_major(b, c, k, alpha, beta, stream);
    SPMV_LAUNCH_CHECK();
    if (long_row_count_ == 0) return;
    spmm_csr_vec_long_rows_kernel<T><<<static_cast<unsigned>(long_row_count_), long_row_block, 0, stream>>>(
        a_, long_rows_.data(), b, c, k, layout == Layout::row_major, alpha, beta);
    SPMV_LAUNCH_CHECK();
  }
  KernelParams params() const override {
    return {{"entry_lanes", entry_lanes_},
            {"columns_per_pass", columns_per_pass_},
            {"block_size", block_size_}};
  }
  std::size_t matrix_bytes() const override { return matrix_bytes_; }

 private:
  // Column lanes cover k in one pass where 32 lanes allow.
  void launch_row_major(const T* b, T* c, index_t k, T alpha, T beta, cudaStream_t stream) const {
    constexpr int width = widest_access<T>;
    const int column_lanes =
        power_of_two_at_least((static_cast<std::int64_t>(k) + width - 1) / width);
    const int entry_lanes = std::min(entry_lanes_, 32 / column_lanes);
    const bool wide = rows_allow_width(b, c, k, width);
    const unsigned blocks =
        blocks_for(static_cast<std::size_t>(a_.rows) * entry_lanes * column_lanes, block_size_);
    with_power_of_two(entry_lanes, [&](auto entry) {
      constexpr int e = decltype(entry)::value;
      with_power_of_two(column_lanes, [&](auto column) {
        constexpr int l = decltype(column)::value;
        if constexpr (e * l <= 32)
          spmm_csr_vec_row_major_kernel<T, e, l>
              <<<blocks, block_size_, 0, stream>>>(a_, b, c, k, wide, alpha, beta, long_row_);
      });
    });
  }

  void launch_col_major(const T* b, T* c, index_t k, T alpha, T beta, cudaStream_t stream) const {
    const int columns = k > 4 ? columns_per_pass_ : 4;
    const std::size_t passes = (static_cast<std::size_t>(k) + columns - 1) / columns;
    const std::size_t blocks =
        blocks_for(static_cast<std::size_t>(a_.rows) * entry_lanes_, block_size_) * passes;
    if (blocks > static_cast<std::size_t>(max_index))
      throw SizeError("spmm-csr-vec: " + std::to_string(blocks) + " blocks exceed the grid limit");
    with_power_of_two(entry_lanes_, [&](auto entry) {
      const auto launch = [&](auto kernel) {
        kernel<<<static_cast<unsigned>(blocks), block_size_, 0, stream>>>(
            a_, b, c, k, static_cast<unsigned>(passes), alpha, beta, long_row_);
      };
      if (columns == 8)
        launch(spmm_csr_vec_col_major_kernel<T, decltype(entry)::value, 8>);
      else
        launch(spmm_csr_vec_col_major_kernel<T, decltype(entry)::value, 4>);
    });
  }

  // A row is long beyond 32 times the mean length, and at least 512 entries
  // (two entries per thread of its block): one lane group would then still
  // be walking it long after the others finished. Listed on the device: the
  // host learns only how many there are (at most nnz / 512).
  void list_long_rows() {
    if (a_.rows == 0) return;
    const double mean = static_cast<double>(a_.nnz) / a_.rows;
    long_row_ = static_cast<index_t>(std::min<double>(max_index, std::max(512.0, 32 * mean)));
    const std::size_t most = static_cast<std::size_t>(a_.nnz) / (static_cast<std::size_t>(long_row_) + 1);
    if (most == 0) return;
    SPMV_CUDA_CHECK(cudaDeviceSynchronize());  // the CSR may have been built on any stream
    long_rows_ = DeviceBuffer<index_t>(most + 1, "spmm-csr-vec's long rows");  // the last entry: their count
    index_t* count = long_rows_.data() + most;
    SPMV_CUDA_CHECK(cudaMemset(count, 0, sizeof(index_t)));
    list_long_rows_kernel<T><<<blocks_for(static_cast<std::size_t>(a_.rows), default_block_size),
                                default_block_size>>>(a_, long_row_, long_rows_.data(), count);
    SPMV_LAUNCH_CHECK();
    SPMV_CUDA_CHECK(cudaMemcpy(&long_row_count_, count, sizeof(index_t), cudaMemcpyDeviceToHost));
  }

  CsrView<T> a_;
  int entry_lanes_;
  int columns_per_pass_;
  int block_size_;
  std::size_t matrix_bytes_;
  index_t long_row_ = max_index;  // rows longer than this are the long rows' kernel's
  DeviceBuffer<index_t> long_rows_;
  index_t long_row_count_ = 0;
};

}  // namespace

template <class T>
std::unique_ptr<SpmmAlgorithm<T>> make_spmm_csr_vec(const SpmmSource<T>& source,
                                                    const KernelParams& params) {
  const CsrView<T>& a = source.device;
  // About eight entries per entry lane (on an H200, 2 lanes beat 4 and 8
  // for the 27-point stencil's 26.5 entries per row: docs/spmm.md).
  const double mean = a.rows ? static_cast<double>(a.nnz) / a.rows : 0.0;
  return std::make_unique<SpmmCsrVec<T>>(source, param_or(params, "entry_lanes", power_of_two_at_most(mean / 8)),
                                         param_or(params, "columns_per_pass", 8),
                                         param_or(params, "block_size", default_block_size));
}
template std::unique_ptr<SpmmAlgorithm<float>> make_spmm_csr_vec(const SpmmSource<float>&,
                                                                 const KernelParams&);
template std::unique_ptr<SpmmAlgorithm<double>> make_spmm_csr_vec(const SpmmSource<double>&,
                                                                  const KernelParams&);

}  // namespace spmv::detail
