// BRO-ELL on the device: its arrays (what the bro-ell kernel runs on, and
// bro-hyb's ELL part) and their build from the uploaded CSR
// (bro_ell_device_build.cu), which produces bro_ell_from_csr's arrays.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <type_traits>

#include "cuda/csr_algorithm.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/format_kernel.hpp"
#include "formats/bro_shapes.hpp"
#include "spmv/formats/bro_ell.hpp"

namespace spmv::detail {

template <class T>
struct DeviceBroEll {
  BroEllShape shape;
  index_t threads_per_row = 1;
  int value_code_bits = 0;
  DeviceBuffer<index_t> width_offset;
  DeviceBuffer<std::uint8_t> widths;
  DeviceBuffer<index_t> symbol_offset;
  DeviceBuffer<std::uint32_t> symbols;
  DeviceBuffer<T> values;  // empty with value codes
  DeviceBuffer<T> value_table;
  DeviceBuffer<index_t> code_symbol_offset;
  DeviceBuffer<std::uint32_t> code_symbols;

  std::size_t bytes() const {
    return width_offset.bytes() + widths.bytes() + symbol_offset.bytes() + symbols.bytes() + values.bytes() +
           value_table.bytes() + code_symbol_offset.bytes() + code_symbols.bytes();
  }
};

// Bit patterns of T (value codes tell values apart by their bits).
template <class T>
using ValuePattern = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

// A BRO-ELL planned but not packed: its shape, widths and offsets (and value
// table) filled in, symbols and values not yet allocated, so that bro-ell
// and bro-hyb can refuse it on its footprint first. Its own buffers are
// scratch on the stream it was planned on, where it must be packed.
template <class T>
struct BroEllDevicePlan {
  DeviceBroEll<T> bro;
  DeviceBuffer<index_t> slice_symbols;       // per slice: its offsets once the plan is checked
  DeviceBuffer<index_t> slice_code_symbols;  // likewise, with value codes
  // With value codes, each distinct value's code by its bit pattern: a hash
  // set of the patterns (bro_ell_device_build.cu's PatternSlots) and the code
  // held in each pattern's slot.
  DeviceBuffer<ValuePattern<T>> code_slot_patterns;
  DeviceBuffer<std::uint32_t> code_slot_codes;
};

// InvalidArgument for bad options, FormatLimitError when value codes are
// demanded of a matrix with more distinct values than a table holds.
template <class T>
BroEllDevicePlan<T> plan_bro_ell_on_device(const CsrView<T>& a, const BroEllOptions& options, cudaStream_t stream);

// The symbols and values of a plan (which the caller has checked).
template <class T>
DeviceBroEll<T> pack_bro_ell_on_device(const CsrView<T>& a, BroEllDevicePlan<T>&& plan, cudaStream_t stream);

// bro_ell_from_csr(a, options) on the device: the same arrays, the same
// refusals, decided before the symbols and values are allocated.
template <class T>
DeviceBroEll<T> build_bro_ell_on_device(const CsrView<T>& a, const BroEllOptions& options, cudaStream_t stream);

// The bro-ell kernel over a BRO-ELL already built (bro-hyb's ELL part).
template <class T>
std::unique_ptr<FormatKernel<T>> make_bro_ell_decode_of(DeviceBroEll<T>&& matrix, int max_padding);

}  // namespace spmv::detail
