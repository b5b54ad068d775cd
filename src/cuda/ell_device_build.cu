// ELL and ELLPACK-R (the ELLR-T layout) built on the device from the CSR.
//
// Both layouts put entry e of row r at T * ((e / T) * stride + r) + e % T
// (ELL is T = 1), written by tiles of rows through shared memory
// (slot_tiles.cuh). The row lengths, their maximum and the ELLR-T model's
// sums come first (O(rows)), so a format over its padding limit is refused
// before its arrays are allocated.
#include <cuda/std/array>

#include "cuda/cuda_check.hpp"
#include "cuda/device_build.hpp"
#include "cuda/ell_device.hpp"
#include "cuda/ellpack_r_device.hpp"
#include "cuda/slot_tiles.cuh"
#include "formats/format_common.hpp"

namespace spmv::detail {

namespace {

constexpr int build_block = 256;

// The ELL and ELLR-T layout for write_slot_tiles: tile b holds rows
// [64 b, 64 b + 64) of the stride (the rows past the matrix are padding).
struct EllSlotLayout {
  struct Tile {
    index_t first_row;
    index_t rows;
    index_t groups;
  };
  index_t entries_per_row;
  index_t threads_per_row;
  index_t rows;
  index_t stride;
  index_t groups;
  __device__ Tile tile(unsigned block) const {
    const index_t first = static_cast<index_t>(block) * slot_tile_rows;
    return {first, min(static_cast<index_t>(slot_tile_rows), stride - first), groups};
  }
  __device__ index_t row(const Tile& t, int i) const { return t.first_row + i < rows ? t.first_row + i : -1; }
  __device__ std::size_t slot(const Tile& t, index_t group, int i, index_t lane) const {
    return (static_cast<std::size_t>(group) * stride + t.first_row + i) * threads_per_row + lane;
  }
};

// What the ELL kernel reads of each row: `kept` entries (the length capped
// at the width) and their columns up to and including the first padding
// slot (kept + 1, or the width for a full row).
__global__ void ell_row_reads_kernel(index_t* kept_entries, index_t* columns_read, index_t rows, index_t width) {
  const std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const index_t kept = min(kept_entries[r], width);
  kept_entries[r] = kept;
  columns_read[r] = kept < width ? kept + 1 : width;
}

// One thread per 32 rows (a warp's rows at T = 1, T warps' at T > 1): for
// every T, the sum over its warps of ceil(longest row / T), added to totals.
__global__ void ellrt_warp_steps_kernel(const index_t* row_lengths, index_t rows,
                                        unsigned long long* totals) {
  const std::int64_t first = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) * warp_size;
  cuda::std::array<unsigned long long, 6> steps{};
  if (first < rows) {
    index_t lengths[warp_size];
    for (int i = 0; i < warp_size; ++i) lengths[i] = first + i < rows ? row_lengths[first + i] : 0;
    for (int log_t = 0, t = 1; t <= warp_size; ++log_t, t *= 2) {
      const int rows_per_warp = warp_size / t;
      for (int warp_first = 0; warp_first < warp_size; warp_first += rows_per_warp) {
        index_t longest = 0;
        for (int i = warp_first; i < warp_first + rows_per_warp; ++i) longest = max(longest, lengths[i]);
        steps[log_t] += (longest + t - 1) / t;
      }
    }
  }
  for (int log_t = 0; log_t < 6; ++log_t) {
    unsigned long long sum = steps[log_t];
    for (int offset = warp_size / 2; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % warp_size == 0 && sum) atomicAdd(totals + log_t, sum);
  }
}

// Lays out the first `entries_per_row` entries of every row of `a`.
template <class T>
void scatter_ell_layout(const CsrView<T>& a, index_t threads_per_row, index_t stride, index_t entries_per_row,
                        std::size_t slots, DeviceBuffer<index_t>& col_idx, DeviceBuffer<T>& values,
                        cudaStream_t stream) {
  if (slots == 0) return;
  const auto groups = static_cast<index_t>(slots / (static_cast<std::size_t>(stride) * threads_per_row));
  const EllSlotLayout layout{entries_per_row, threads_per_row, a.rows, stride, groups};
  write_slot_tiles(a, layout, (static_cast<std::size_t>(stride) + slot_tile_rows - 1) / slot_tile_rows,
                   col_idx.data(), values.data(), stream);
}

index_t ceil_div(index_t a, index_t b) { return (a + b - 1) / b; }

}  // namespace

template <class T>
DeviceEll<T> build_ell_part_on_device(const CsrView<T>& a, index_t width, cudaStream_t stream) {
  DeviceEll<T> ell;
  ell.rows = a.rows;
  ell.width = width;
  ell.stride = aligned_stride(a.rows, ell_row_alignment);
  const std::size_t slots = static_cast<std::size_t>(width) * ell.stride;
  ell.col_idx = DeviceBuffer<index_t>(slots, "ELL column indices");
  ell.values = DeviceBuffer<T>(slots, "ELL values");
  scatter_ell_layout(a, 1, ell.stride, width, slots, ell.col_idx, ell.values, stream);

  if (a.rows > 0) {
    DeviceBuffer<index_t> kept_entries = device_row_lengths(a, stream);
    DeviceBuffer<index_t> columns_read(kept_entries.size(), "ELL columns read per row", ScratchOn{stream});
    ell_row_reads_kernel<<<blocks_for(a.rows, build_block), build_block, 0, stream>>>(
        kept_entries.data(), columns_read.data(), a.rows, width);
    SPMV_LAUNCH_CHECK();
    ell.read_bytes =
        static_cast<std::size_t>(device_sum(columns_read.data(), columns_read.size(), stream)) * sizeof(index_t) +
        static_cast<std::size_t>(device_sum(kept_entries.data(), kept_entries.size(), stream)) * sizeof(T);
  }
  return ell;
}

template <class T>
DeviceEll<T> build_ell_on_device(const CsrView<T>& a, double max_padding, cudaStream_t stream) {
  const index_t width = device_longest_row(a, stream);
  check_ell_limit<T>(a.rows, width, a.nnz, max_padding);
  return build_ell_part_on_device(a, width, stream);
}

EllrtWarpSteps device_ellrt_warp_steps(const index_t* row_lengths, index_t rows, cudaStream_t stream) {
  EllrtWarpSteps steps;
  steps.rows = static_cast<std::size_t>(rows);
  if (rows == 0) return steps;
  DeviceBuffer<unsigned long long> totals(6, "ELLR-T model sums", ScratchOn{stream});
  SPMV_CUDA_CHECK(cudaMemsetAsync(totals.data(), 0, totals.bytes(), stream));
  const std::size_t threads = (static_cast<std::size_t>(rows) + warp_size - 1) / warp_size;
  ellrt_warp_steps_kernel<<<blocks_for(threads, build_block), build_block, 0, stream>>>(row_lengths, rows,
                                                                                        totals.data());
  SPMV_LAUNCH_CHECK();
  unsigned long long host_totals[6];
  SPMV_CUDA_CHECK(cudaMemcpyAsync(host_totals, totals.data(), sizeof host_totals, cudaMemcpyDeviceToHost, stream));
  SPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  for (int i = 0; i < 6; ++i) steps.of_threads_per_row[i] = static_cast<std::int64_t>(host_totals[i]);
  return steps;
}

template <class T>
DeviceEllpackR<T> build_ellpack_r_on_device(const CsrView<T>& a, DeviceBuffer<index_t>&& row_lengths,
                                            index_t longest, index_t threads_per_row, double max_padding,
                                            cudaStream_t stream) {
  check_ellpack_r_limit<T>(a.rows, longest, a.nnz, threads_per_row, max_padding);
  DeviceEllpackR<T> ell;
  ell.rows = a.rows;
  ell.cols = a.cols;
  ell.stride = aligned_stride(a.rows, ellpack_r_row_alignment);
  ell.nnz = a.nnz;
  ell.threads_per_row = threads_per_row;
  ell.row_length = std::move(row_lengths);
  const std::size_t slots =
      static_cast<std::size_t>(ceil_div(longest, threads_per_row)) * ell.stride * threads_per_row;
  ell.col_idx = DeviceBuffer<index_t>(slots, "ELLPACK-R column indices");
  ell.values = DeviceBuffer<T>(slots, "ELLPACK-R values");
  scatter_ell_layout(a, threads_per_row, ell.stride, longest, slots, ell.col_idx, ell.values, stream);
  return ell;
}

#define SPMV_INSTANTIATE_ELL_BUILDS(T)                                                                    \
  template DeviceEll<T> build_ell_part_on_device(const CsrView<T>&, index_t, cudaStream_t);              \
  template DeviceEll<T> build_ell_on_device(const CsrView<T>&, double, cudaStream_t);                    \
  template DeviceEllpackR<T> build_ellpack_r_on_device(const CsrView<T>&, DeviceBuffer<index_t>&&, index_t, \
                                                       index_t, double, cudaStream_t);
SPMV_INSTANTIATE_ELL_BUILDS(float)
SPMV_INSTANTIATE_ELL_BUILDS(double)
#undef SPMV_INSTANTIATE_ELL_BUILDS

}  // namespace spmv::detail
