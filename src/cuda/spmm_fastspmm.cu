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
#include "cuda/cuda_check.hpp"
#include "cuda/ellpack_r_device.hpp"
#include "cuda/format_kernels.hpp"
#include "cuda/spmm_algorithm.hpp"
#include "cuda/spmm_common.cuh"

namespace spmv::detail {

namespace {

// Values per access of a row-major tile of `Columns` values.
template <class T, int Columns>
constexpr int tile_width = Columns < widest_access<T> ? Columns : widest_access<T>;

template <class T, int ThreadsPerRow, int Columns, bool RowMajor>
__global__ void spmm_ellr_t_kernel(EllrView<T> a, const T* __restrict__ b, T* __restrict__ c,
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
  EllrSpmm(EllrtBuild<T>&& built, double build_seconds, ColumnPasses passes, int columns_per_pass)
      : passes_(passes),
        columns_per_pass_(columns_per_pass),
        block_size_(built.block_size),
        max_padding_(built.max_padding),
        build_seconds_(build_seconds),
        matrix_(std::move(built.matrix)) {}

  void spmm(const T* b, T* c, index_t k, Layout layout, T alpha, T beta,
            cudaStream_t stream) const override {
    if (matrix_.rows == 0 || k == 0) return;
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
    KernelParams p{{"threads_per_row", matrix_.threads_per_row},
                   {"block_size", block_size_},
                   {"max_padding", max_padding_}};
    if (passes_ == ColumnPasses::fastspmm) p["columns_per_pass"] = columns_per_pass_;
    return p;
  }
  std::size_t device_bytes() const override { return matrix_.bytes(); }
  std::size_t matrix_bytes() const override { return matrix_.matrix_bytes(); }
  double build_seconds() const override { return build_seconds_; }

 private:
  // One grid of `passes` passes of `columns` columns from `first_column`.
  void launch(int columns, index_t first_column, index_t passes, const T* b, T* c, index_t k,
              Layout layout, T alpha, T beta, cudaStream_t stream) const {
    const std::size_t blocks =
        blocks_for(static_cast<std::size_t>(matrix_.rows) * matrix_.threads_per_row, block_size_) *
        static_cast<std::size_t>(passes);
    if (blocks > static_cast<std::size_t>(max_index))
      throw SizeError("ELLR-T SpMM: " + std::to_string(blocks) + " blocks exceed the grid limit");
    const EllrView<T> a = matrix_.view();
    const bool row_major = layout == Layout::row_major;
    with_power_of_two(matrix_.threads_per_row, [&](auto threads) {
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

  ColumnPasses passes_;
  int columns_per_pass_;
  int block_size_;
  int max_padding_;
  double build_seconds_;
  DeviceEllpackR<T> matrix_;
};

template <class T>
std::unique_ptr<SpmmAlgorithm<T>> make_ellr_spmm(const CsrView<T>& a, const KernelParams& params,
                                                 ColumnPasses passes, double max_padding) {
  // The paper settles on L* = 4 for Fermi (its Fig. 3); on an H200, 8 was
  // as fast for k = 8 and halves the passes over A for larger k (docs/spmm.md).
  const int columns_per_pass = passes == ColumnPasses::fastspmm ? param_or(params, "columns_per_pass", 8) : 1;
  double build_seconds = 0;
  EllrtBuild<T> built = timed_build(build_seconds, [&] {
    EllrtBuild<T> on_device = build_ellr_t(a, params, max_padding, nullptr);
    SPMV_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    return on_device;
  });
  return std::make_unique<EllrSpmm<T>>(std::move(built), build_seconds, passes, columns_per_pass);
}

}  // namespace

template <class T>
std::unique_ptr<SpmmAlgorithm<T>> make_spmm_fastspmm(const SpmmSource<T>& source,
                                                     const KernelParams& params) {
  return make_ellr_spmm(source.device, params, ColumnPasses::fastspmm, max_padding_param(params));
}
template <class T>
std::unique_ptr<SpmmAlgorithm<T>> make_spmm_setspmvs(const SpmmSource<T>& source,
                                                     const KernelParams& params) {
  return make_ellr_spmm(source.device, params, ColumnPasses::setspmvs, max_padding_param(params));
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
