// BRO-HYB on the device: its two parts and their build from the uploaded
// CSR (bro_hyb_device_build.cu), which produces bro_hyb_from_csr's arrays.
#pragma once

#include <cuda_runtime.h>

#include "cuda/bro_coo_device.hpp"
#include "cuda/bro_ell_device.hpp"
#include "cuda/csr_algorithm.hpp"
#include "cuda/device_build.hpp"
#include "spmv/formats/bro_hyb.hpp"

namespace spmv::detail {

template <class T>
struct DeviceBroHyb {
  index_t ell_width = 0;
  DeviceBroEll<T> ell;  // the first ell_width entries of every row
  DeviceBroCoo<T> coo;  // the entries beyond
};

// HYB's split of the CSR on the device: the first K entries of every row
// (head) and the rest with their rows (tail). Where no row is longer than K
// the head is the CSR itself, not copied: it must then outlive the build.
template <class T>
struct BroHybSplit {
  index_t ell_width = 0;
  index_t rows = 0;
  index_t cols = 0;
  CsrView<T> head;
  DeviceRowSlice<T> head_copy;  // the head's arrays when it is a copy (empty otherwise)
  DeviceRowSlice<T> tail;
};

// K = ell_width, or the Bell-Garland rule's when -1.
template <class T>
BroHybSplit<T> split_bro_hyb_on_device(const CsrView<T>& a, index_t ell_width, cudaStream_t stream);

// The parts of `split` compressed with options.ell and options.coo
// (options.ell_width is the split's); FormatLimitError when the whole
// exceeds options.ell.max_padding, decided before the symbols and values
// are allocated.
template <class T>
DeviceBroHyb<T> build_bro_hyb_on_device(BroHybSplit<T>&& split, const BroHybOptions& options, cudaStream_t stream);

// bro_hyb_from_csr(a, options) on the device.
template <class T>
DeviceBroHyb<T> build_bro_hyb_on_device(const CsrView<T>& a, const BroHybOptions& options, cudaStream_t stream);

}  // namespace spmv::detail
