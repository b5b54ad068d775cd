// ELLPACK-R (Vázquez et al.; Ortega et al. 2013, Fig. 1): ELL plus an array
// rl of row lengths, so that a kernel stops at each row's end instead of
// reading its padding. Stored in the ELLR-T layout for T threads per row:
// entry e of row r is at T * ((e / T) * stride + r) + e % T, so the T
// threads of a row read T adjacent words and a warp's 32 / T rows read 32
// adjacent words at every step (T = 1 is plain column-major ELL).
// stride is the row count rounded up to ellpack_r_row_alignment (Ortega's N').
//
// The ELLR-T configuration model chooses T and the block size BS from the
// row lengths (see ellrt_configuration).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "spmv/formats/footprint.hpp"
#include "spmv/matrix.hpp"

namespace spmv {

inline constexpr index_t ellpack_r_row_alignment = 32;

template <class T>
struct EllpackR {
  index_t rows = 0;
  index_t cols = 0;
  index_t threads_per_row = 1;  // T of the layout: 1, 2, 4, 8, 16 or 32
  index_t slots = 0;            // groups of T entries per row: ceil(longest row / T)
  index_t stride = 0;           // rows rounded up to ellpack_r_row_alignment
  index_t nnz = 0;
  std::vector<index_t> row_length;  // rl, one per row
  std::vector<index_t> col_idx;     // slots * stride * T; padding_column in padding
  std::vector<T> values;            // slots * stride * T; 0 in padding
};

struct EllpackROptions {
  index_t threads_per_row = 1;
  double max_padding = default_max_padding;
};

template <class T>
FormatFootprint ellpack_r_footprint(const Csr<T>& a, index_t threads_per_row);
// The same for `rows` rows of at most `longest` entries: with T = 1 the
// layout pads least and with T = 32 most (each row's slots are its length
// rounded up to a multiple of T).
template <class T>
FormatFootprint ellpack_r_footprint(index_t rows, index_t longest, std::int64_t nnz, index_t threads_per_row);

// Throws FormatLimitError when ELLPACK-R with `threads_per_row` for rows of
// at most `longest` entries exceeds `max_padding` times the CSR bytes
// (SizeError beyond 32-bit indices, InvalidArgument for a bad T):
// ellpack_r_from_csr's check, shared with the device build.
template <class T>
void check_ellpack_r_limit(index_t rows, index_t longest, std::int64_t nnz, index_t threads_per_row,
                           double max_padding);

// Throws InvalidArgument unless threads_per_row is a power of two in
// [1, 32], FormatLimitError when the padding exceeds options.max_padding.
template <class T>
EllpackR<T> ellpack_r_from_csr(const Csr<T>& a, const EllpackROptions& options = {});

// y = alpha * A * x + beta * y; y is not read when beta == 0.
template <class T>
void multiply(const EllpackR<T>& a, const T* x, T* y, T alpha, T beta);

// --- The ELLR-T configuration model -----------------------------------------
//
// Ortega et al. take T and BS from the configuration model of Vázquez,
// Fernández & Garzón (Parallel Computing 38, 2012), which rests on the
// observation that memory operations dominate ELLR-T. This is our
// formulation of that idea (the 2013 paper does not reproduce the model):
//
//   warp_steps(T) = sum over warps of max over its 32/T rows of ceil(rl/T)
//       (a warp issues one coalesced load of 32 slots per step and runs as
//       long as its longest row, so this counts the load instructions,
//       idle lanes included);
//   reduction(T) = warps * log2(T) * reduction_step_weight
//       (the shuffle reduction at the end of each row group);
//   fill(T) = min(1, rows * T / (multiprocessors * threads_per_multiprocessor))
//       (below 1 the GPU cannot hold enough loads in flight to hide latency,
//       and time follows the per-thread step count instead);
//   cost(T) = (warp_steps(T) + reduction(T)) / fill(T).
//
// T is the power of two in [1, 32] of least cost (the smaller on a tie).
// BS is the largest of 256, 128, 64 that still gives every multiprocessor
// ellrt_min_blocks_per_multiprocessor blocks, else 64: small blocks spread a
// small grid over all multiprocessors; large ones cost less to schedule.

struct GpuShape {
  int multiprocessors = 132;  // H100 SXM
  int threads_per_multiprocessor = 2048;
};

// One shuffle-and-add step against the ~6 instructions of a load step; an
// instruction-count ratio, not a measured constant.
inline constexpr double ellrt_reduction_step_weight = 0.25;
// Blocks per multiprocessor that let the block scheduler balance a grid.
inline constexpr int ellrt_min_blocks_per_multiprocessor = 4;

struct EllrtConfiguration {
  int threads_per_row = 1;
  int block_size = 256;
  double cost = 0;  // cost(threads_per_row) of the model
};

// What the model needs of the row lengths: warp_steps(T) for T = 1, 2, 4,
// ..., 32 (index log2 T) and the row count. The device build computes the
// same sums on the device.
struct EllrtWarpSteps {
  std::size_t rows = 0;
  std::array<std::int64_t, 6> of_threads_per_row{};
};
EllrtWarpSteps ellrt_warp_steps(const std::vector<index_t>& row_lengths);
template <class T>
EllrtWarpSteps ellrt_warp_steps(const Csr<T>& a);

// The model's cost of running ELLR-T with `threads_per_row` threads per row.
double ellrt_cost(const EllrtWarpSteps& steps, int threads_per_row, const GpuShape& gpu);
double ellrt_cost(const std::vector<index_t>& row_lengths, int threads_per_row, const GpuShape& gpu);

// The model's choice of T and BS for a matrix with these row lengths.
EllrtConfiguration ellrt_configuration(const EllrtWarpSteps& steps, const GpuShape& gpu);
EllrtConfiguration ellrt_configuration(const std::vector<index_t>& row_lengths, const GpuShape& gpu);

}  // namespace spmv
