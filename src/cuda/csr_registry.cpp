// The catalogue of CSR kernels of the cuda backend and the default choice.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>

#include "core/determinism.hpp"
#include "core/parallel_from.hpp"
#include "cuda/csr_kernels.hpp"
#include "cuda/param_specs.hpp"

namespace spmv::detail {

template <class T>
const std::vector<CsrKernelEntry<T>>& csr_kernel_registry() {
  // Every CSR kernel sums each row in an order fixed by the matrix and its
  // parameters: no atomics (the transposed product is another matter:
  // csr_transposed.hpp).
  static const std::vector<CsrKernelEntry<T>> registry = {
      {deterministic_kernel({"csr-scalar", "csr", Backend::cuda, "one thread per row (the papers' naive kernel)",
                             {block_size_spec()}, true, false}),
       make_csr_scalar<T>},
      {deterministic_kernel({"csr-vector", "csr", Backend::cuda,
                             "a sub-warp of T lanes per row, shuffle reduction (thread mapping)",
                             {threads_per_row_spec({2, 4, 8, 16, 32}, "32"), block_size_spec()}, true, false}),
       make_csr_vector<T>},
      {deterministic_kernel({"csr-aligned", "csr", Backend::cuda,
                             "csr-vector whose steps read aligned segments, the row's unaligned head first (Baskaran)",
                             {threads_per_row_spec({2, 4, 8, 16, 32}, "16")}, true, false}),
       make_csr_aligned<T>},
      // Unnamed, the plan picks this kernel with parameters from the matrix
      // (default_csr_kernel); the defaults below are for a forced one.
      {deterministic_kernel({"csr-vector-tuned", "csr", Backend::cuda,
                             "csr-vector with the thesis's variants: load width, x path, rows per sub-warp, order",
                             {threads_per_row_spec({1, 2, 4, 8, 16, 32}, "8"),
                              one_of("vector_width", {1, 2, 4}, "4", "entries per lane and load"),
                              one_of("cached_x", {0, 1}, "1", "1: x through the read-only cache; 0: plain loads"),
                              one_of("rows_per_subwarp", {1, 2, 4, 8, 16, 32}, "1", "rows each sub-warp multiplies"),
                              one_of("cyclic_rows", {0, 1, 2}, "0",
                                     "row order: 0 consecutive, 1 cyclic over the grid, 2 each block sweeps a range"),
                              block_size_spec()},
                             true, false}),
       make_csr_vector_tuned<T>},
      {deterministic_kernel({"csr-pcsr", "csr", Backend::cuda,
                             "PCSR: products into a middle array, then per-row sums through shared memory",
                             {block_size_spec({64, 128, 256, 512})}, true, false}),
       make_csr_pcsr<T>},
      {deterministic_kernel({"csr-merge", "csr", Backend::cuda,
                             "merge path: equal shares of rows + entries per block, carries fixed up in a second pass",
                             {one_of("items_per_thread", {4, 8, 12, 16}, "8",
                                     "merge-path steps (rows + entries) per thread")},
                             true, false}),
       make_csr_merge<T>},
      {deterministic_kernel({"csr-adaptive", "csr", Backend::cuda,
                             "row blocks of ~constant entries: CSR-stream for short rows (a warp for a row over 4x "
                             "its block's mean), block reduction for long ones",
                             {block_size_spec({128, 256}, "128"),
                              one_of("items_per_thread", {2, 4, 8, 12},
                                     "8 in f32, 4 in f64, halved (to 2 at least) while the matrix gives fewer than "
                                     "8 row blocks per SM",
                                     "a row block holds block_size x this many entries"),
                              one_of("vector_width", {1, 2, 4}, "4, or items_per_thread when fewer",
                                     "entries per load (a row block's entries from the multiple of this below its "
                                     "first)"),
                              one_of("column_bits", {16, 32}, "16",
                                     "16: a row block whose columns span fewer than 2^16 reads 2-byte offsets "
                                     "from its first column; 32: every block reads the CSR's columns")},
                             true, false}),
       make_csr_adaptive<T>},
      {deterministic_kernel({"csr-hub", "csr", Backend::cuda,
                             "the most referenced columns' x in shared memory of persistent blocks; a warp per "
                             "piece of ~constant entries (power-law graphs)",
                             {block_size_spec({256, 512, 1024}, "1024"),
                              one_of("items_per_thread", {2, 4, 8}, "4", "a piece holds 32 x this many entries"),
                              in_range("hub_kib", 0, 227, "128", "KiB of shared memory for hub x values per block"),
                              in_range("hub_min_entries", 0, INT_MAX, "0",
                                       "a hub has more entries than this (0: resident blocks x value bytes / 32)"),
                              in_range("hub_min_share", 0, 100, "0",
                                       "percent of the entries the hubs must hold, else csr-adaptive multiplies "
                                       "instead, and describe() names it (0: never; the selector builds csr-hub "
                                       "with the model's value)")},
                             true, false}),
       make_csr_hub<T>},
  };
  return registry;
}
template const std::vector<CsrKernelEntry<float>>& csr_kernel_registry();
template const std::vector<CsrKernelEntry<double>>& csr_kernel_registry();

namespace {

template <class T>
RowProfile row_profile(const Csr<T>& a) {
  RowProfile p;
  if (a.rows == 0) return p;
  std::int64_t empty = 0;
  double span_sum = 0;
  index_t longest = 0;
  // Every operator of a format kernel profiles its matrix (for the CSR kept
  // beside it): on one thread, 5-20 ms on matrices of a few million rows.
#pragma omp parallel for reduction(+ : empty, span_sum) reduction(max : longest) schedule(static) \
    if (a.rows >= parallel_from)
  for (index_t r = 0; r < a.rows; ++r) {
    const index_t begin = a.row_ptr[r], end = a.row_ptr[r + 1];
    longest = std::max(longest, end - begin);
    if (begin == end)
      ++empty;
    else
      span_sum += static_cast<double>(a.col_idx[end - 1]) - a.col_idx[begin];  // columns not yet checked
  }
  p.longest = longest;
  p.mean_length = static_cast<double>(a.nnz()) / a.rows;
  p.empty_fraction = static_cast<double>(empty) / a.rows;
  p.mean_span = empty < a.rows ? span_sum / static_cast<double>(a.rows - empty) : 0.0;
  return p;
}

}  // namespace

// Measured on an NVIDIA H200 with CUDA 13.0 (2026-11-22, the generated
// families of scripts/bench-families.sh; docs/perf-notes.md has the tables):
// - Irregular rows (the longest far above the mean) or long rows:
//   csr-adaptive (few huge rows f64: 0.379 ms against 0.399 for csr-merge;
//   wide LP rows: 0.369 against 0.373), except for fp64 matrices with many
//   empty rows, where csr-merge is faster (R-MAT scale 22 f64: 0.594 against
//   0.632; in fp32 csr-adaptive wins there, 0.522 against 0.583).
// - Regular short rows whose columns stay near each other (stencils, block
//   FEM: mean span of a row at most 2^18 columns): csr-vector-tuned with its
//   blocks sweeping contiguous row ranges (cyclic_rows=2), 8 rows per
//   sub-warp (27-point stencil f64: 0.328 ms, against 0.337 for 16 rows,
//   0.360 for 32 and 0.378 for csr-merge). Rows of 16 or more: 4 entries per
//   lane and load, lanes x 4 = the power of two at or above the mean length.
//   Shorter rows: 2 entries per lane; fp64 takes a row in one step (7-point
//   stencil: 4 lanes, 0.512 ms), fp32 in two with half the lanes (2 lanes,
//   0.378 ms against 0.405 for 2 x 4 and 0.426 for 4 x 2).
// - Regular rows of scattered columns (uniform random): csr-adaptive (f64
//   0.570 ms against 0.582 for the vector kernel): both wait on x gathers
//   from L2.
// "Irregular" is the first rule's test, kept (it separates the families);
// "many empty rows" is set between the families' 0% and R-MAT's 48%.
constexpr double max_local_span = 1 << 18;
constexpr double many_empty_rows = 0.1;
constexpr int sweep_rows_per_subwarp = 8;
// The sweep only pays when its grid still fills the GPU: below about one
// wave of resident threads (H200: 132 SMs x 2048) it left most SMs idle on
// the real matrices as they are (bayer10 f32: 0.024 ms against 0.0055 ms with
// one row per sub-warp; docs/benchmarks.md, 2026-11-22), so smaller
// matrices get one row per sub-warp in plain order.
constexpr double sweep_min_threads = 132.0 * 2048;

namespace {

KernelChoice default_csr_kernel_of(const RowProfile& p, index_t rows, std::size_t value_bytes) {
  const bool irregular = p.longest > 4 * p.mean_length + 32 || p.mean_length > 64;
  if (irregular && p.empty_fraction > many_empty_rows && value_bytes == 8) return {"csr-merge", {}};
  if (irregular || p.mean_span > max_local_span) return {"csr-adaptive", {}};
  const int width = p.mean_length >= 16 ? 4 : p.mean_length >= 2 ? 2 : 1;
  const double entries_per_step = value_bytes == 4 && width == 2 ? p.mean_length / 2 : p.mean_length;
  int lanes = 1;
  while (lanes < 32 && lanes * width < entries_per_step) lanes *= 2;
  const bool sweep = static_cast<double>(rows) * lanes / sweep_rows_per_subwarp >= sweep_min_threads;
  return {"csr-vector-tuned",
          {{"threads_per_row", lanes},
           {"vector_width", width},
           {"cyclic_rows", sweep ? 2 : 0},
           {"rows_per_subwarp", sweep ? sweep_rows_per_subwarp : 1}}};
}

}  // namespace

template <class T>
KernelChoice default_csr_kernel(const Csr<T>& a) {
  return default_csr_kernel_of(row_profile(a), a.rows, sizeof(T));
}
template <class T>
KernelChoice default_csr_kernel(const CsrView<T>& a) {
  return default_csr_kernel_of(row_profile_on_device(a), a.rows, sizeof(T));
}
template KernelChoice default_csr_kernel(const Csr<float>&);
template KernelChoice default_csr_kernel(const Csr<double>&);
template KernelChoice default_csr_kernel(const CsrView<float>&);
template KernelChoice default_csr_kernel(const CsrView<double>&);

}  // namespace spmv::detail
