// ELLPACK-R in the ELLR-T layout: footprint, builder, reference product and
// the configuration model choosing T and BS.
#include "spmv/formats/ellpack_r.hpp"

#include <algorithm>
#include <cmath>

#include "core/parallel_from.hpp"
#include "formats/format_common.hpp"
#include "spmv/error.hpp"

namespace spmv {

namespace {

bool valid_threads_per_row(index_t t) { return t >= 1 && t <= 32 && (t & (t - 1)) == 0; }

index_t ceil_div(index_t a, index_t b) { return (a + b - 1) / b; }

// Position of entry e of row r in the ELLR-T layout.
std::size_t slot_of(index_t r, index_t e, index_t threads_per_row, index_t stride) {
  return static_cast<std::size_t>(threads_per_row) *
             (static_cast<std::size_t>(e / threads_per_row) * stride + r) +
         e % threads_per_row;
}

void check_threads_per_row(index_t threads_per_row) {
  if (!valid_threads_per_row(threads_per_row))
    throw InvalidArgument("ELLPACK-R: threads_per_row=" + std::to_string(threads_per_row) +
                          " is not a power of two in [1, 32]");
}

// The model's sums over the row lengths in one parallel pass over groups of
// 32 consecutive rows (a warp's rows at T = 1, T warps' at T > 1): at T = 32
// each row is a warp; halving T pairs neighbouring warps.
template <class LengthOf>
EllrtWarpSteps warp_steps(std::size_t rows, const LengthOf& length_of) {
  constexpr int group = 32;
  const auto groups = static_cast<std::int64_t>((rows + group - 1) / group);
  std::int64_t sums[6] = {};
  const bool in_parallel = static_cast<std::int64_t>(rows) >= detail::parallel_from;
#pragma omp parallel for schedule(static) reduction(+ : sums[:6]) if (in_parallel)
  for (std::int64_t g = 0; g < groups; ++g) {
    const std::size_t first = static_cast<std::size_t>(g) * group;
    const int in_group = static_cast<int>(std::min<std::size_t>(group, rows - first));
    index_t longest[group] = {};  // each warp's longest row; rows past the end count 0
    for (int i = 0; i < in_group; ++i) longest[i] = length_of(first + i);
    for (int log_t = 5, warps = group; log_t >= 0; --log_t, warps /= 2) {
      if (warps < group)
        for (int w = 0; w < warps; ++w) longest[w] = std::max(longest[2 * w], longest[2 * w + 1]);
      // ceil(longest / T) by a shift: a division here had cost 15 times the pass over the row pointers.
      const std::int64_t round_up = (std::int64_t{1} << log_t) - 1;
      for (int w = 0; w < warps; ++w) sums[log_t] += (longest[w] + round_up) >> log_t;
    }
  }
  EllrtWarpSteps steps;
  steps.rows = rows;
  std::copy(sums, sums + 6, steps.of_threads_per_row.begin());
  return steps;
}

}  // namespace

template <class T>
FormatFootprint ellpack_r_footprint(index_t rows, index_t longest, std::int64_t nnz, index_t threads_per_row) {
  check_threads_per_row(threads_per_row);
  FormatFootprint f;
  f.nnz = nnz;
  f.stored_entries = static_cast<std::int64_t>(ceil_div(longest, threads_per_row)) *
                     detail::aligned_stride(rows, ellpack_r_row_alignment) * threads_per_row;
  f.bytes = static_cast<std::size_t>(f.stored_entries) * (sizeof(index_t) + sizeof(T)) +
            static_cast<std::size_t>(rows) * sizeof(index_t);
  f.csr_bytes = csr_bytes(rows, nnz, sizeof(T));
  return f;
}

template <class T>
FormatFootprint ellpack_r_footprint(const Csr<T>& a, index_t threads_per_row) {
  return ellpack_r_footprint<T>(a.rows, detail::longest_row(a), a.nnz(), threads_per_row);
}

template <class T>
void check_ellpack_r_limit(index_t rows, index_t longest, std::int64_t nnz, index_t threads_per_row,
                           double max_padding) {
  detail::check_footprint("ELLPACK-R", ellpack_r_footprint<T>(rows, longest, nnz, threads_per_row), max_padding,
                          detail::row_length_summary(longest, rows ? double(nnz) / rows : 0.0), "hyb or sell");
}

template <class T>
EllpackR<T> ellpack_r_from_csr(const Csr<T>& a, const EllpackROptions& options) {
  const index_t t = options.threads_per_row;
  check_threads_per_row(t);
  EllpackR<T> ell;
  ell.rows = a.rows;
  ell.cols = a.cols;
  ell.threads_per_row = t;
  ell.stride = detail::aligned_stride(a.rows, ellpack_r_row_alignment);
  ell.nnz = a.nnz();
  ell.row_length = detail::row_lengths(a);
  const index_t longest =
      ell.row_length.empty() ? 0 : *std::max_element(ell.row_length.begin(), ell.row_length.end());
  const FormatFootprint f = ellpack_r_footprint<T>(a.rows, longest, a.nnz(), t);
  check_ellpack_r_limit<T>(a.rows, longest, a.nnz(), t, options.max_padding);
  ell.slots = ceil_div(longest, t);
  ell.col_idx.assign(static_cast<std::size_t>(f.stored_entries), padding_column);
  ell.values.assign(static_cast<std::size_t>(f.stored_entries), T(0));
#pragma omp parallel for schedule(static)
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t e = 0; e < ell.row_length[r]; ++e) {
      const std::size_t slot = slot_of(r, e, t, ell.stride);
      ell.col_idx[slot] = a.col_idx[a.row_ptr[r] + e];
      ell.values[slot] = a.values[a.row_ptr[r] + e];
    }
  return ell;
}

template <class T>
void multiply(const EllpackR<T>& a, const T* x, T* y, T alpha, T beta) {
  for (index_t r = 0; r < a.rows; ++r) {
    double sum = 0;
    for (index_t e = 0; e < a.row_length[r]; ++e) {
      const std::size_t slot = slot_of(r, e, a.threads_per_row, a.stride);
      sum += static_cast<double>(a.values[slot]) * static_cast<double>(x[a.col_idx[slot]]);
    }
    detail::store_scaled(y[r], sum, alpha, beta);
  }
}

EllrtWarpSteps ellrt_warp_steps(const std::vector<index_t>& row_lengths) {
  return warp_steps(row_lengths.size(), [&row_lengths](std::size_t r) { return row_lengths[r]; });
}

template <class T>
EllrtWarpSteps ellrt_warp_steps(const Csr<T>& a) {
  return warp_steps(static_cast<std::size_t>(a.rows),
                    [&a](std::size_t r) { return a.row_length(static_cast<index_t>(r)); });
}

double ellrt_cost(const EllrtWarpSteps& steps, int threads_per_row, const GpuShape& gpu) {
  check_threads_per_row(threads_per_row);
  const std::size_t rows_per_warp = 32 / threads_per_row;
  const std::size_t warps = (steps.rows + rows_per_warp - 1) / rows_per_warp;
  const double warp_steps = static_cast<double>(steps.of_threads_per_row[static_cast<int>(std::log2(threads_per_row))]);
  const double reduction = static_cast<double>(warps) * std::log2(threads_per_row) * ellrt_reduction_step_weight;
  const double resident_threads = static_cast<double>(gpu.multiprocessors) * gpu.threads_per_multiprocessor;
  const double fill = std::min(1.0, static_cast<double>(steps.rows) * threads_per_row / resident_threads);
  return fill > 0 ? (warp_steps + reduction) / fill : 0.0;
}

double ellrt_cost(const std::vector<index_t>& row_lengths, int threads_per_row, const GpuShape& gpu) {
  return ellrt_cost(ellrt_warp_steps(row_lengths), threads_per_row, gpu);
}

EllrtConfiguration ellrt_configuration(const EllrtWarpSteps& steps, const GpuShape& gpu) {
  if (gpu.multiprocessors < 1 || gpu.threads_per_multiprocessor < 32)
    throw InvalidArgument("ELLR-T model: a GPU needs at least one multiprocessor of 32 threads");
  EllrtConfiguration best;
  best.cost = ellrt_cost(steps, 1, gpu);
  for (int t = 2; t <= 32; t *= 2) {
    const double cost = ellrt_cost(steps, t, gpu);
    if (cost < best.cost) {
      best.threads_per_row = t;
      best.cost = cost;
    }
  }
  const double threads = static_cast<double>(steps.rows) * best.threads_per_row;
  best.block_size = 64;
  for (int block_size : {256, 128}) {
    if (threads / block_size >= double(gpu.multiprocessors) * ellrt_min_blocks_per_multiprocessor) {
      best.block_size = block_size;
      break;
    }
  }
  return best;
}

EllrtConfiguration ellrt_configuration(const std::vector<index_t>& row_lengths, const GpuShape& gpu) {
  return ellrt_configuration(ellrt_warp_steps(row_lengths), gpu);
}

#define SPMV_INSTANTIATE_ELLPACK_R(T)                                                     \
  template FormatFootprint ellpack_r_footprint(const Csr<T>&, index_t);                   \
  template FormatFootprint ellpack_r_footprint<T>(index_t, index_t, std::int64_t, index_t); \
  template EllrtWarpSteps ellrt_warp_steps(const Csr<T>&);                                \
  template void check_ellpack_r_limit<T>(index_t, index_t, std::int64_t, index_t, double); \
  template EllpackR<T> ellpack_r_from_csr(const Csr<T>&, const EllpackROptions&);         \
  template void multiply(const EllpackR<T>&, const T*, T*, T, T);
SPMV_INSTANTIATE_ELLPACK_R(float)
SPMV_INSTANTIATE_ELLPACK_R(double)
#undef SPMV_INSTANTIATE_ELLPACK_R

}  // namespace spmv
