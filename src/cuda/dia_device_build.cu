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
// the values allocated: zero-filled, then pass 2 writes each entry to
// values[number * stride + row]; the rows in flight share their diagonals
// on the matrices DIA accepts, so L2 merges those 8-byte stores into whole
// sectors before they reach memory.
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
  DeviceBuffer<index_t> occupied(slots, "DIA diagonal flags");
  device_fill(occupied.data(), slots, index_t{0}, stream);
  if (a.nnz)
    with_lanes_per_row(a, [&](auto lanes) {
      flag_occupied_diagonals_kernel<lanes()><<<blocks_for(std::size_t(a.rows) * lanes, dia_build_block),
                                                dia_build_block, 0, stream>>>(a, occupied.data());
      SPMV_LAUNCH_CHECK();
    });
  DeviceBuffer<index_t> diagonal_number(slots + 1, "DIA diagonal numbers");
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
  device_fill(dia.values.data(), value_count, T(0), stream);
  if (a.nnz)
    with_lanes_per_row(a, [&](auto lanes) {
      scatter_diagonals_kernel<lanes()><<<blocks_for(std::size_t(a.rows) * lanes, dia_build_block), dia_build_block,
                                          0, stream>>>(a, diagonal_number.data(), dia.stride, dia.values.data());
      SPMV_LAUNCH_CHECK();
    });
  // The flags and numbers are freed on return while the kernels may still
  // read them: cudaFree waits for the device to finish its work first.
  return dia;
}

template DeviceDia<float> build_dia_on_device(const CsrView<float>&, const DiaOptions&, cudaStream_t);
template DeviceDia<double> build_dia_on_device(const CsrView<double>&, const DiaOptions&, cudaStream_t);

}  // namespace spmv::detail
