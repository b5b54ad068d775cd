// A CSR checked on the device (device_csr.hpp): the columns of an uploaded
// one (a plan for the GPU checks only the row pointers on the host, as a
// host pass over every entry costs about as much as the upload itself), and
// the row pointers and columns of one handed over on the device.
#include <algorithm>
#include <string>
#include <vector>

#include "core/csr_checks.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_build.hpp"
#include "cuda/device_csr.hpp"
#include "spmv/error.hpp"

namespace spmv::detail {

namespace {

constexpr int check_block = 256;
// Enough warps to fill the GPU; each strides over the tiles after that.
constexpr std::size_t max_check_blocks = 8192;

// Entries a warp checks at a time: lane l the tile's entries l, l + 32, ...,
// which it finds the row of by one binary search and then by following the
// rows forward. A split by entries, not rows: a few rows of 100k entries
// among short ones (R-MAT) kept a group of lanes per row busy for 10 ms on
// their own.
constexpr std::int64_t check_tile_entries = std::int64_t{warp_size} * 64;

// The row holding entry k: row r or a later one (row r starts at or before
// k). Gallops forward from r, then searches the last step by halves, so
// that the next row costs a load or two and a run of empty rows its
// logarithm.
__device__ index_t row_holding(const index_t* row_ptr, index_t rows, index_t r, std::int64_t k) {
  if (row_ptr[r + 1] > k) return r;
  index_t low = r + 1, step = 1;  // row_ptr[low] <= k < row_ptr[rows] (= nnz)
  for (;;) {
    const index_t high = rows - low > step ? low + step : rows;
    if (row_ptr[high] > k) return low + row_of_slot(row_ptr + low, high - low, static_cast<index_t>(k));
    low = high;
    step *= 2;
  }
}

// An entry is bad outside [0, cols) or not after the one before it in its
// row. first_bad_row ends as the least bad row.
template <class T>
__global__ void first_bad_row_kernel(CsrView<T> a, index_t* first_bad_row) {
  const int lane = static_cast<int>(threadIdx.x % warp_size);
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / warp_size;
  const std::int64_t warps = static_cast<std::int64_t>(gridDim.x) * blockDim.x / warp_size;
  for (std::int64_t tile = warp * check_tile_entries; tile < a.nnz; tile += warps * check_tile_entries) {
    const std::int64_t end = min(tile + check_tile_entries, static_cast<std::int64_t>(a.nnz));
    std::int64_t k = tile + lane;
    if (k >= end) continue;
    index_t r = row_of_slot(a.row_ptr, a.rows, static_cast<index_t>(k));
    for (; k < end; k += warp_size) {
      r = row_holding(a.row_ptr, a.rows, r, k);
      const index_t c = __ldg(a.col_idx + k);
      if (c < 0 || c >= a.cols || (k > a.row_ptr[r] && __ldg(a.col_idx + k - 1) >= c)) {
        atomicMin(first_bad_row, r);
        break;
      }
    }
  }
}

// first_decrease ends as the least row r with row_ptr[r + 1] < row_ptr[r].
__global__ void first_decrease_kernel(const index_t* row_ptr, index_t rows, index_t* first_decrease) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; r < rows; r += stride)
    if (row_ptr[r + 1] < row_ptr[r]) {
      atomicMin(first_decrease, static_cast<index_t>(r));
      return;
    }
}

// The least row that `kernel` reports into a counter starting at `rows`.
template <class Launch>
index_t least_reported_row(index_t rows, const Launch& kernel) {
  DeviceBuffer<index_t> least(1, "CSR check", ScratchOn{nullptr});
  device_fill(least.data(), 1, rows, nullptr);
  kernel(least.data());
  SPMV_LAUNCH_CHECK();
  return device_value(least.data(), nullptr);
}

}  // namespace

template <class T>
void check_row_pointers_on_device(const CsrView<T>& a) {
  const index_t first = device_value(a.row_ptr, nullptr), last = device_value(a.row_ptr + a.rows, nullptr);
  if (first != 0) throw InvalidArgument("CSR matrix: row_ptr[0] is " + std::to_string(first) + ", not 0");
  if (last != a.nnz)
    throw InvalidArgument("CSR matrix: row_ptr[" + std::to_string(a.rows) + "] is " + std::to_string(last) +
                          ", not nnz (" + std::to_string(a.nnz) + ")");
  if (a.rows == 0) return;
  const index_t row = least_reported_row(a.rows, [&](index_t* least) {
    first_decrease_kernel<<<std::min<std::size_t>(blocks_for(a.rows, check_block), max_check_blocks), check_block>>>(
        a.row_ptr, a.rows, least);
  });
  if (row < a.rows) throw InvalidArgument("CSR matrix: row_ptr decreases at row " + std::to_string(row));
}

template <class T>
void check_columns_on_device(const CsrView<T>& device) {
  if (device.nnz == 0) return;
  const auto tiles = static_cast<std::size_t>((device.nnz + check_tile_entries - 1) / check_tile_entries);
  const index_t row = least_reported_row(device.rows, [&](index_t* least) {
    first_bad_row_kernel<<<std::min<std::size_t>(blocks_for(tiles * warp_size, check_block), max_check_blocks),
                           check_block>>>(device, least);
  });
  if (row == device.rows) return;
  // The bad row's columns, copied back to name its first bad entry.
  const std::vector<index_t> bounds = device_values(device.row_ptr + row, 2, nullptr);
  const std::vector<index_t> columns =
      device_values(device.col_idx + bounds[0], static_cast<std::size_t>(bounds[1] - bounds[0]), nullptr);
  throw_bad_entry(row, bounds[0], columns.data(), bounds[1] - bounds[0], device.cols);
}

#define SPMV_INSTANTIATE_CHECKS(T)                                    \
  template void check_row_pointers_on_device(const CsrView<T>&); \
  template void check_columns_on_device(const CsrView<T>&);
SPMV_INSTANTIATE_CHECKS(float)
SPMV_INSTANTIATE_CHECKS(double)
#undef SPMV_INSTANTIATE_CHECKS

}  // namespace spmv::detail
