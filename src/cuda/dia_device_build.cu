// DIA built on the device from the uploaded CSR.
//
// Work decomposition: each row is spread over L lanes (the power of two at
// or above the mean row length, up to a warp), which read its entries with
// coalesced loads. Pass 1 flags the diagonals the entries occupy (one flag
// per possible offset, column - row + rows - 1, read before it is written:
// on a banded matrix nearly every entry finds its flag set, so few stores
// reach memory). A CUB scan of the flags numbers the occupied diagonals in
// increasing offset order, as the host does; one thread per flag writes the
// offsets. Only then, the diagonal count known and the refusal decided, are
// the values allocated. Pass 2 gives a block 64 rows: their entries go to a
// tile of every diagonal's 64 values in shared memory (zeros where a row has
// no entry), and the tile is written out a diagonal at a time, 64
// consecutive values, padding rows included: every value written once by
// coalesced stores. (Entries stored straight to values[number * stride +
// row] after a zero fill took 1.7 ms on the 27-point stencil 150^3 in f32,
// 12 products.) Where the tile would not fit in 48 KB (more than 94
// diagonals in f64, 189 in f32), the values are zero-filled and each entry
// stored straight to its place.
#include <type_traits>

#include "cuda/device_build.hpp"
#include "cuda/dia_device.hpp"
#include "formats/dia_limits.hpp"
#include "formats/format_common.hpp"

namespace spmv::detail {

namespace {

constexpr int dia_build_block = 256;

// The flag of diagonal column - row, shifted to be non-negative.
__device__ __forceinline__ std::size_t diagonal_slot(index_t rows, index_t row, index_t col) {
  return static_cast<std::size_t>(static_cast<std::int64_t>(col) - row + rows - 1);
}

template <int LanesPerRow, class T>
__global__ void flag_occupied_diagonals_kernel(CsrView<T> a, index_t* occupied) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t row = thread / LanesPerRow;
  if (row >= a.rows) return;
  for (index_t k = a.row_ptr[row] + thread % LanesPerRow; k < a.row_ptr[row + 1]; k += LanesPerRow) {
    index_t* flag = occupied + diagonal_slot(a.rows, static_cast<index_t>(row), a.col_idx[k]);
    if (*flag == 0) *flag = 1;
  }
}

__global__ void write_offsets_kernel(const index_t* occupied, const index_t* diagonal_number, std::size_t slots,
                                     index_t rows, index_t* offsets) {
  const std::size_t slot = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (slot < slots && occupied[slot])
    offsets[diagonal_number[slot]] = static_cast<index_t>(static_cast<std::int64_t>(slot) - (rows - 1));
}

constexpr int tile_rows = 64;
constexpr int tile_stride = tile_rows + 1;  // a row's diagonals in different banks
constexpr std::size_t max_tile_bytes = 48 << 10;

// Rows [64 b, 64 b + 64) of the stride: their entries into the shared tile
// (diagonal d's value of tile row i at d * 65 + i), then the tile out.
template <int LanesPerRow, class T>
__global__ void __launch_bounds__(dia_build_block) write_diagonal_tiles_kernel(CsrView<T> a,
                                                                              const index_t* diagonal_number,
                                                                              index_t diagonals, index_t stride,
                                                                              T* values) {
  extern __shared__ unsigned char tile_bytes[];
  T* tile = reinterpret_cast<T*>(tile_bytes);
  const index_t first_row = static_cast<index_t>(blockIdx.x) * tile_rows;
  const index_t rows = min(static_cast<index_t>(tile_rows), stride - first_row);
  for (int f = threadIdx.x; f < diagonals * tile_stride; f += blockDim.x) tile[f] = T(0);
  __syncthreads();
  constexpr int rows_at_once = dia_build_block / LanesPerRow;
  for (int i = threadIdx.x / LanesPerRow; i < rows; i += rows_at_once) {
    const index_t row = first_row + i;
    if (row >= a.rows) continue;
    for (index_t k = a.row_ptr[row] + threadIdx.x % LanesPerRow; k < a.row_ptr[row + 1]; k += LanesPerRow)
      tile[diagonal_number[diagonal_slot(a.rows, row, a.col_idx[k])] * tile_stride + i] = a.values[k];
  }
  __syncthreads();
  for (int f = threadIdx.x; f < diagonals * rows; f += blockDim.x) {
    const int d = f / rows, i = f % rows;
    values[static_cast<std::size_t>(d) * stride + first_row + i] = tile[d * tile_stride + i];
  }
}

template <int LanesPerRow, class T>
__global__ void scatter_diagonals_kernel(CsrView<T> a, const index_t* diagonal_number, index_t stride, T* values) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t row = thread / LanesPerRow;
  if (row >= a.rows) return;
  for (index_t k = a.row_ptr[row] + thread % LanesPerRow; k < a.row_ptr[row + 1]; k += LanesPerRow) {
    const index_t d = diagonal_number[diagonal_slot(a.rows, static_cast<index_t>(row), a.col_idx[k])];
    values[static_cast<std::size_t>(d) * stride + row] = a.values[k];
  }
}

// Calls f(std::integral_constant<int, L>{}) for L lanes per row: the power
// of two at or above the mean row length of `a`, up to a warp.
template <class T, class F>
void with_lanes_per_row(const CsrView<T>& a, F&& f) {
  const std::int64_t mean = a.rows ? (static_cast<std::int64_t>(a.nnz) + a.rows - 1) / a.rows : 0;
  if (mean <= 1)
    f(std::integral_constant<int, 1>{});
  else if (mean <= 2)
    f(std::integral_constant<int, 2>{});
  else if (mean <= 4)
    f(std::integral_constant<int, 4>{});
  else if (mean <= 8)
    f(std::integral_constant<int, 8>{});
  else if (mean <= 16)
    f(std::integral_constant<int, 16>{});
  else
    f(std::integral_constant<int, warp_size>{});
}

}  // namespace

template <class T>
DeviceDia<T> build_dia_on_device(const CsrView<T>& a, const DiaOptions& options, cudaStream_t stream) {
  DeviceDia<T> dia;
  dia.rows = a.rows;
  dia.cols = a.cols;
  dia.stride = aligned_stride(a.rows, dia_row_alignment);
  dia.nnz = a.nnz;
  // An empty matrix has no diagonal, whatever its shape (rows + cols - 1 may be -1).
  const std::size_t slots = a.nnz ? static_cast<std::size_t>(a.rows) + a.cols - 1 : 0;
  DeviceBuffer<index_t> occupied(slots, "DIA diagonal flags", ScratchOn{stream});
  device_fill(occupied.data(), slots, index_t{0}, stream);
  if (a.nnz)
    with_lanes_per_row(a, [&](auto lanes) {
      flag_occupied_diagonals_kernel<lanes()><<<blocks_for(std::size_t(a.rows) * lanes, dia_build_block),
                                                dia_build_block, 0, stream>>>(a, occupied.data());
      SPMV_LAUNCH_CHECK();
    });
  DeviceBuffer<index_t> diagonal_number(slots + 1, "DIA diagonal numbers", ScratchOn{stream});
  const index_t diagonals = device_offsets(occupied.data(), slots, diagonal_number.data(), "DIA diagonals", stream);
  check_dia_limit(a.rows, a.nnz, sizeof(T), static_cast<std::size_t>(diagonals), options.max_padding);

  dia.offsets = DeviceBuffer<index_t>(static_cast<std::size_t>(diagonals), "DIA offsets");
  if (slots) {
    write_offsets_kernel<<<blocks_for(slots, dia_build_block), dia_build_block, 0, stream>>>(
        occupied.data(), diagonal_number.data(), slots, a.rows, dia.offsets.data());
    SPMV_LAUNCH_CHECK();
  }
  const std::size_t value_count = static_cast<std::size_t>(diagonals) * dia.stride;
  dia.values = DeviceBuffer<T>(value_count, "DIA values");
  const std::size_t tile_bytes = static_cast<std::size_t>(diagonals) * tile_stride * sizeof(T);
  if (value_count && tile_bytes <= max_tile_bytes) {
    with_lanes_per_row(a, [&](auto lanes) {
      write_diagonal_tiles_kernel<lanes()><<<blocks_for(dia.stride, tile_rows), dia_build_block, tile_bytes, stream>>>(
          a, diagonal_number.data(), diagonals, dia.stride, dia.values.data());
      SPMV_LAUNCH_CHECK();
    });
  } else if (value_count) {
    device_fill(dia.values.data(), value_count, T(0), stream);
    with_lanes_per_row(a, [&](auto lanes) {
      scatter_diagonals_kernel<lanes()><<<blocks_for(std::size_t(a.rows) * lanes, dia_build_block), dia_build_block,
                                          0, stream>>>(a, diagonal_number.data(), dia.stride, dia.values.data());
      SPMV_LAUNCH_CHECK();
    });
  }
  // The flags and numbers are freed on return while the kernels may still
  // read them: cudaFree waits for the device to finish its work first.
  return dia;
}

template DeviceDia<float> build_dia_on_device(const CsrView<float>&, const DiaOptions&, cudaStream_t);
template DeviceDia<double> build_dia_on_device(const CsrView<double>&, const DiaOptions&, cudaStream_t);

}  // namespace spmv::detail
