// Building the storage formats on the device from the uploaded CSR.
//
// A host build (src/formats/) costs hundreds of products on a large matrix;
// the device builds read the CSR where it already is. Every builder
// (build_<format>_on_device, beside its format's Device<Format> struct)
// produces exactly the arrays of the host builder uploaded, which stays the
// reference (tests/gpu/test_gpu_device_builds.cpp compares them).
//
// These are the primitives the builders share. CUB runs the reductions and
// scans (device_build.cu), so a builder is a few element-wise kernels around
// them. Everything runs on `stream`; the calls that return a value to the
// host synchronise it. Allocations go through DeviceBuffer, so running out of
// device memory is an OutOfMemory naming the bytes needed; temporaries are
// scratch memory (device_buffer.hpp) on the build's stream.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuda/csr_algorithm.hpp"
#include "cuda/device_buffer.hpp"

namespace spmv::detail {

// The length of every row of `a` (a.rows entries), in scratch memory for
// `stream`.
template <class T>
DeviceBuffer<index_t> device_row_lengths(const CsrView<T>& a, cudaStream_t stream);

// The largest of values[0, n), 0 when n == 0. Synchronises.
index_t device_max(const index_t* values, std::size_t n, cudaStream_t stream);

// The length of the longest row of `a` (0 without rows), from row_ptr
// alone. Synchronises.
template <class T>
index_t device_longest_row(const CsrView<T>& a, cudaStream_t stream);

// The sum of values[0, n) in 64 bits. Synchronises.
std::int64_t device_sum(const index_t* values, std::size_t n, cudaStream_t stream);

// counts[v] = how many of values[0, n) equal v, for v < cap; counts[cap]
// counts every value >= cap. Synchronises.
std::vector<std::int64_t> device_capped_histogram(const index_t* values, std::size_t n, index_t cap,
                                                  cudaStream_t stream);

// offsets[0] = 0 and offsets[i + 1] = values[0] + ... + values[i] (n + 1
// entries); returns offsets[n]. Throws SizeError naming `what` when the total
// does not fit a 32-bit index. Synchronises.
index_t device_offsets(const index_t* values, std::size_t n, index_t* offsets, const char* what,
                       cudaStream_t stream);

// The row of every entry slot of a row-offset array: rows[i] = the r with
// offsets[r] <= i < offsets[r + 1] (empty rows own no slot).
__device__ inline index_t row_of_slot(const index_t* offsets, index_t rows, index_t i) {
  index_t low = 0, high = rows;  // offsets[low] <= i < offsets[high]
  while (high - low > 1) {
    const index_t middle = low + (high - low) / 2;
    if (offsets[middle] <= i)
      low = middle;
    else
      high = middle;
  }
  return low;
}

// A slice of every row of a CSR: entries [first, first + limit) of each row
// (fewer where the row is shorter), packed in row order. HYB's COO part is
// the slice from K on; BRO-HYB's parts are the slices before and from K.
struct RowSliceLayout {
  index_t first = 0;
  DeviceBuffer<index_t> row_ptr;  // rows + 1 offsets of the slice
  index_t nnz = 0;
};
template <class T>
struct DeviceRowSlice {
  DeviceBuffer<index_t> row_ptr;
  DeviceBuffer<index_t> row_idx;  // each entry's row, when asked for
  DeviceBuffer<index_t> col_idx;
  DeviceBuffer<T> values;
  index_t nnz = 0;
};
// The slice's offsets only (O(rows)), so that a format can be refused before
// the entries are copied.
template <class T>
RowSliceLayout device_row_slice_layout(const CsrView<T>& a, index_t first, index_t limit, cudaStream_t stream);
template <class T>
DeviceRowSlice<T> device_gather_row_slice(const CsrView<T>& a, RowSliceLayout&& layout, bool with_row_idx,
                                          cudaStream_t stream);

// Groups of `group` consecutive positions of [0, n), the last one shorter:
// SELL's sorting windows and chunks.
//
// sorted_keys and order (n entries each) receive keys sorted by decreasing
// value within each group, stably (equal keys keep their order), and the
// position in `keys` of each sorted key.
void device_sort_descending_in_groups(const index_t* keys, std::size_t n, index_t group, index_t* sorted_keys,
                                      index_t* order, cudaStream_t stream);
// maxima[g] = the largest of values in group g (ceil(n / group) entries).
void device_max_in_groups(const index_t* values, std::size_t n, index_t group, index_t* maxima,
                          cudaStream_t stream);

// data[0, n) = value.
template <class X>
void device_fill(X* data, std::size_t n, X value, cudaStream_t stream);

// A device copy of data[0, n).
template <class X>
DeviceBuffer<X> device_copy(const X* data, std::size_t n, const char* what, cudaStream_t stream);

// data[0] on the host. Synchronises.
template <class X>
X device_value(const X* data, cudaStream_t stream);
// data[0, n) on the host. Synchronises.
template <class X>
std::vector<X> device_values(const X* data, std::size_t n, cudaStream_t stream);

}  // namespace spmv::detail
