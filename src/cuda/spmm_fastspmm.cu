// spmm-fastspmm (Ortega et al. 2013, Algorithm 1, SSFastSpMM) and
// spmm-setspmvs (the paper's SetSpMVs baseline): SpMM on ELLPACK-R with the
// ELLR-T thread mapping.
//
// T threads per row of A: thread i of a row reads the row's entries i,
// i + T, ... and stops at the row's length; in the ELLR-T layout every step
// of a warp is one coalesced, aligned load of 32 values and 32 column
// indices. FastSpMM: each thread keeps L_c sums, one per column of the
// current pass, and for each entry reads B(col, j0 .. j0 + L_c): with
// row-major B, L_c adjacent values in 16-byte loads; with column-major B,
// one value per column, adjacent rows of the warp reading nearby values. A
// is read once per L_c columns of C. The T partial sums of each column are
// combined by shuffles (the paper: shared memory); with row-major C the
// row's first thread writes its L_c values in 16-byte stores, with
// column-major C the row's threads share the columns.
//
// The passes of L_c columns over k run in one grid (spmm_common.cuh: A comes
// from L2 after the first pass; the paper launches them one after another);
// the last k mod L_c columns take passes of L_c/2, L_c/4, ..., 1 columns.
//
// SetSpMVs: k separate ELLR-T SpMVs, one launch per column of B (L_c = 1),
// each reading all of A. Both take T and the block size from the ELLR-T
// configuration model unless given.
#include <chrono>

#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/format_kernels.hpp"
#include "cuda/spmm_algorithm.hpp"
#include "cuda/spmm_common.cuh"
#include "formats/format_common.hpp"

namespace spmv::detail {

namespace {

template <class T>
struct EllrSpmmView {
  index_t rows = 0;
  index_t cols = 0;
  index_t stride = 0;
  const index_t* row_length = nullptr;
  const index_t* col_idx = nullptr;
  const T* values = nullptr;
};

// Values per access of a row-major tile of `Columns` values.
template <class T, int Columns>
constexpr int tile_width = Columns < widest_access<T> ? Columns : widest_access<T>;

template <class T, int ThreadsPerRow, int Columns, bool RowMajor>
__global__ void spmm_ellr_t_kernel(EllrSpmmView<T> a, const T* __restrict__ b, T* __restrict__ c,
                                   index_t k, index_t first_column, unsigned passes, bool wide,
                                   T alpha, T beta) {
  const PassBlock block = pass_block(passes);
  const std::int64_t thread = static_cast<std::int64_t>(block.row_block) * blockDim.x + threadIdx.x;
  const std::int64_t row = thread / ThreadsPerRow;
  if (row >= a.rows) return;  // a row's threads leave together
  const int lane = threadIdx.x % ThreadsPerRow;
  const index_t j0 = first_column + static_cast<index_t>(block.pass) * Columns;
  const index_t length = load_streaming(a.row_length + row);
  const std::size_t step = static_cast<std::size_t>(ThreadsPerRow) * a.stride;
  std::size_t slot = static_cast<std::size_t>(ThreadsPerRow) * row + lane;
  T sum[Columns] = {};
#pragma unroll 4
  for (index_t entry = lane; entry < length; entry += ThreadsPerRow, slot += step) {
    const T value = load_streaming(a.values + slot);
    const index_t col = load_streaming(a.col_idx + slot);
    T tile[Columns];
    if constexpr (RowMajor) {
      const T* b_row = b + static_cast<std::size_t>(col) * k + j0;
      if (wide)
        load_tile<Columns, tile_width<T, Columns>>(b_row, tile);
      else
        load_tile<Columns, 1>(b_row, tile);
    } else {
#pragma unroll
      for (int jj = 0; jj < Columns; ++jj)
        tile[jj] = load_cached(b + static_cast<std::size_t>(j0 + jj) * a.cols + col);
    }
#pragma unroll
    for (int jj = 0; jj < Columns; ++jj) sum[jj] += value * tile[jj];
  }
  const unsigned mask = group_mask<ThreadsPerRow>();
#pragma unroll
  for (int jj = 0; jj < Columns; ++jj) sum[jj] = subwarp_sum<ThreadsPerRow>(sum[jj], mask);
  if constexpr (RowMajor) {
    if (lane != 0) return;
    T* c_row = c + static_cast<std::size_t>(row) * k + j0;
    if (wide)
      store_tile<Columns, tile_width<T, Columns>>(c_row, sum, alpha, beta);
    else
      store_tile<Columns, 1>(c_row, sum, alpha, beta);
  } else {
#pragma unroll
    for (int jj = 0; jj < Columns; ++jj)
      if (jj % ThreadsPerRow == lane)
        store_result(c + static_cast<std::size_t>(j0 + jj) * a.rows + row, sum[jj], alpha, beta);
  }
}

// How the columns of B are covered.
enum class ColumnPasses {
  fastspmm,  // passes of columns_per_pass columns, A read once per pass
  setspmvs,  // one SpMV launch per column
};

template <class T>
class EllrSpmm final : public SpmmAlgorithm<T> {
 public:
  EllrSpmm(const EllpackR<T>& host, ColumnPasses passes, int columns_per_pass, int block_size,
           int max_padding, double build_seconds)
      : rows_(host.rows),
        cols_(host.cols),
        stride_(host.stride),
        nnz_(host.nnz),
        threads_per_row_(host.threads_per_row),
        passes_(passes),
        columns_per_pass_(columns_per_pass),
        block_size_(block_size),
        max_padding_(max_padding),
        build_seconds_(build_seconds),
        row_length_(host.row_length, "ELLPACK-R row lengths (SpMM)"),
        col_idx_(host.col_idx, "ELLPACK-R column indices (SpMM)"),
        values_(host.values, "ELLPACK-R values (SpMM)") {}

  void spmm(const T* b, T* c, index_t k, Layout layout, T alpha, T beta,
            cudaStream_t stream) const override {
    if (rows_ == 0 || k == 0) return;
    if (passes_ == ColumnPasses::setspmvs) {
      for (index_t j = 0; j < k; ++j) launch(1, j, 1, b, c, k, layout, alpha, beta, stream);
      return;
    }
    const index_t full_passes = k / columns_per_pass_;
    if (full_passes > 0)
      launch(columns_per_pass_, 0, full_passes, b, c, k, layout, alpha, beta, stream);
    index_t done = full_passes * columns_per_pass_;
    for (int columns = columns_per_pass_ / 2; columns >= 1; columns /= 2)
      if (k - done >= columns) {
        launch(columns, done, 1, b, c, k, layout, alpha, beta, stream);
        done += columns;
      }
  }

  KernelParams params() const override {
    KernelParams p{{"threads_per_row", threads_per_row_},
                   {"block_size", block_size_},
                   {"max_padding", max_padding_}};
    if (passes_ == ColumnPasses::fastspmm) p["columns_per_pass"] = columns_per_pass_;
    return p;
  }
  std::size_t device_bytes() const override {
    return row_length_.bytes() + col_idx_.bytes() + values_.bytes();
  }
  // The row lengths and the entries; the threads never read the padding.
  std::size_t matrix_bytes() const override {
    return row_length_.bytes() + static_cast<std::size_t>(nnz_) * (sizeof(index_t) + sizeof(T));
  }
  double build_seconds() const override { return build_seconds_; }

 private:
  // One grid of `passes` passes of `columns` columns from `first_column`.
  void launch(int columns, index_t first_column, index_t passes, const T* b, T* c, index_t k,
              Layout layout, T alpha, T beta, cudaStream_t stream) const {
    const std::size_t blocks =
        blocks_for(static_cast<std::size_t>(rows_) * threads_per_row_, block_size_) *
        static_cast<std::size_t>(passes);
    if (blocks > static_cast<std::size_t>(max_index))
      throw SizeError("ELLR-T SpMM: " + std::to_string(blocks) + " blocks exceed the grid limit");
    const EllrSpmmView<T> a{rows_,           cols_,         stride_, row_length_.data(),
                            col_idx_.data(), values_.data()};
    const bool row_major = layout == Layout::row_major;
    with_power_of_two(threads_per_row_, [&](auto threads) {
      constexpr int t = decltype(threads)::value;
      with_power_of_two(columns, [&](auto width) {
        constexpr int l = decltype(width)::value;
        if constexpr (l <= 8) {
          const bool wide = row_major && rows_allow_width(b, c, k, tile_width<T, l>);
          const auto kernel =
              row_major ? spmm_ellr_t_kernel<T, t, l, true> : spmm_ellr_t_kernel<T, t, l, false>;
          kernel<<<static_cast<unsigned>(blocks), block_size_, 0, stream>>>(
              a, b, c, k, first_column, static_cast<unsigned>(passes), wide, alpha, beta);
        }
      });
    });
    SPMV_LAUNCH_CHECK();
  }

  index_t rows_;
  index_t cols_;
  index_t stride_;
  index_t nnz_;
  int threads_per_row_;
  ColumnPasses passes_;
  int columns_per_pass_;
  int block_size_;
  int max_padding_;
  double build_seconds_;
  DeviceBuffer<index_t> row_length_;
  DeviceBuffer<index_t> col_idx_;
  DeviceBuffer<T> values_;
};

template <class T>
std::unique_ptr<SpmmAlgorithm<T>> make_ellr_spmm(const Csr<T>& a, const KernelParams& params,
                                                 const std::string& name, ColumnPasses passes) {
  double build_seconds = 0;
  EllrtConfiguration model;
  if (!params.count("threads_per_row") || !params.count("block_size"))
    model = timed_build(build_seconds,
                        [&] { return ellrt_configuration(row_lengths(a), current_gpu_shape()); });
  EllpackROptions options;
  options.threads_per_row =
      param_or(params, name, "threads_per_row", model.threads_per_row, {1, 2, 4, 8, 16, 32});
  options.max_padding = max_padding_param(params, name);
  const int block_size =
      param_or(params, name, "block_size", model.block_size, {32, 64, 128, 256, 512, 1024});
  // The paper settles on L* = 4 for Fermi (its Fig. 3); on an H200, 8 was
  // as fast for k = 8 and halves the passes over A for larger k (docs/spmm.md).
  const int columns_per_pass = passes == ColumnPasses::fastspmm
                                   ? param_or(params, name, "columns_per_pass", 8, {1, 2, 4, 8})
                                   : 1;
  const EllpackR<T> host =
      timed_build(build_seconds, [&] { return ellpack_r_from_csr(a, options); });
  return std::make_unique<EllrSpmm<T>>(host, passes, columns_per_pass, block_size,
                                       static_cast<int>(options.max_padding), build_seconds);
}

}  // namespace

template <class T>
std::unique_ptr<SpmmAlgorithm<T>> make_spmm_fastspmm(const SpmmSource<T>& source,
                                                     const KernelParams& params) {
  return make_ellr_spmm(source.host, params, "spmm-fastspmm", ColumnPasses::fastspmm);
}
template <class T>
std::unique_ptr<SpmmAlgorithm<T>> make_spmm_setspmvs(const SpmmSource<T>& source,
                                                     const KernelParams& params) {
  return make_ellr_spmm(source.host, params, "spmm-setspmvs", ColumnPasses::setspmvs);
}

#define SPMV_INSTANTIATE_ELLR_SPMM(T)                                                 \
  template std::unique_ptr<SpmmAlgorithm<T>> make_spmm_fastspmm(const SpmmSource<T>&, \
                                                                const KernelParams&); \
  template std::unique_ptr<SpmmAlgorithm<T>> make_spmm_setspmvs(const SpmmSource<T>&, \
                                                                const KernelParams&);
SPMV_INSTANTIATE_ELLR_SPMM(float)
SPMV_INSTANTIATE_ELLR_SPMM(double)
#undef SPMV_INSTANTIATE_ELLR_SPMM

}  // namespace spmv::detail
