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
// device memory is an OutOfMemory naming the bytes needed.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/csr_algorithm.hpp"
#include "cuda/device_buffer.hpp"

namespace spmv::detail {

// The length of every row of `a` (a.rows entries).
template <class T>
DeviceBuffer<index_t> device_row_lengths(const CsrView<T>& a, cudaStream_t stream);

// The largest of values[0, n), 0 when n == 0. Synchronises.
index_t device_max(const index_t* values, std::size_t n, cudaStream_t stream);

// The sum of values[0, n) in 64 bits. Synchronises.
std::int64_t device_sum(const index_t* values, std::size_t n, cudaStream_t stream);

// offsets[0] = 0 and offsets[i + 1] = values[0] + ... + values[i] (n + 1
// entries); returns offsets[n]. Throws SizeError naming `what` when the total
// does not fit a 32-bit index. Synchronises.
index_t device_offsets(const index_t* values, std::size_t n, index_t* offsets, const char* what,
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

}  // namespace spmv::detail
