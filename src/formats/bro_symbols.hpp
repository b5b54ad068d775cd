// Bit streams of the BRO formats (Tang et al. 2013, Section 3): fields of
// 0..32 bits packed most-significant-bit first into 32-bit symbols, a field
// free to straddle two symbols. One SymbolWriter builds one stream on the
// host; SymbolReader decodes it, on the host (round trips, reference
// multiply) and on the device (the kernels), from the same code.
//
// Streams are multiplexed: the streams of a slice (BRO-ELL: one per row, or
// per row part; BRO-COO: one per lane of an interval) hold the same number
// of symbols, and symbol m of stream t lies at base + m * slice_streams + t,
// so that a warp reading its m-th symbols reads adjacent words.
//
// The reader keeps up to 64 bits in a window and loads the next symbol only
// when the field needs more bits than the window holds; it therefore never
// reads past a stream's last symbol, and its only branch is taken by all
// lanes of a warp alike whenever their fields have the same width (one
// width per slice column, as BRO-ELL stores them).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/host_device.hpp"

namespace spmv::detail {

using bro_symbol_t = std::uint32_t;
inline constexpr int bro_symbol_bits = 32;

// Bits needed to write `value` (0 for 0): the paper's Gamma(u).
SPMV_HOST_DEVICE int bits_needed(std::uint32_t value) {
  int bits = 0;
  while (value != 0) {
    ++bits;
    value >>= 1;
  }
  return bits;
}

class SymbolWriter {
 public:
  // Appends the low `width` bits of `value` (width 0..32; value must fit).
  void put(std::uint32_t value, int width) {
    if (width == 0) return;
    window_ = (window_ << width) | value;
    pending_bits_ += width;
    if (pending_bits_ >= bro_symbol_bits) {
      pending_bits_ -= bro_symbol_bits;
      symbols_.push_back(static_cast<bro_symbol_t>(window_ >> pending_bits_));
      window_ &= (std::uint64_t(1) << pending_bits_) - 1;
    }
  }
  // The stream, its last symbol padded with zero bits.
  std::vector<bro_symbol_t> finish() {
    if (pending_bits_ > 0)
      symbols_.push_back(static_cast<bro_symbol_t>(window_ << (bro_symbol_bits - pending_bits_)));
    pending_bits_ = 0;
    window_ = 0;
    return std::move(symbols_);
  }

 private:
  std::vector<bro_symbol_t> symbols_;
  std::uint64_t window_ = 0;  // the low pending_bits_ bits are not yet stored
  int pending_bits_ = 0;
};

// Writes one multiplexed stream in place, symbol m at first_symbol[m *
// stride], as SymbolWriter would build and scatter it (the device builds:
// each thread writes its own stream, and the threads of a warp, writing
// fields of equal width, store adjacent words together).
class MultiplexedSymbolWriter {
 public:
  SPMV_HOST_DEVICE MultiplexedSymbolWriter(bro_symbol_t* first_symbol, std::int64_t stride)
      : next_(first_symbol), stride_(stride) {}

  // Appends the low `width` bits of `value` (width 0..32; value must fit).
  SPMV_HOST_DEVICE void put(std::uint32_t value, int width) {
    if (width == 0) return;
    window_ = (window_ << width) | value;
    pending_bits_ += width;
    if (pending_bits_ >= bro_symbol_bits) {
      pending_bits_ -= bro_symbol_bits;
      *next_ = static_cast<bro_symbol_t>(window_ >> pending_bits_);
      next_ += stride_;
      window_ &= (std::uint64_t(1) << pending_bits_) - 1;
    }
  }
  // Stores the last symbol, padded with zero bits.
  SPMV_HOST_DEVICE void finish() {
    if (pending_bits_ > 0) *next_ = static_cast<bro_symbol_t>(window_ << (bro_symbol_bits - pending_bits_));
  }

 private:
  bro_symbol_t* next_;
  std::int64_t stride_;
  std::uint64_t window_ = 0;  // the low pending_bits_ bits are not yet stored
  int pending_bits_ = 0;
};

// Symbols a stream of `total_bits` occupies.
SPMV_HOST_DEVICE std::int64_t symbols_for_bits(std::int64_t total_bits) {
  return (total_bits + bro_symbol_bits - 1) / bro_symbol_bits;
}

// Reads one multiplexed stream: symbol m at symbols[m * stride].
class SymbolReader {
 public:
  SPMV_HOST_DEVICE SymbolReader(const bro_symbol_t* first_symbol, std::int64_t stride)
      : next_(first_symbol), stride_(stride) {}

  // The next field of `width` bits (0..32).
  SPMV_HOST_DEVICE std::uint32_t get(int width) {
    if (width > held_bits_) {
      window_ |= std::uint64_t(load(next_)) << (64 - bro_symbol_bits - held_bits_);
      next_ += stride_;
      held_bits_ += bro_symbol_bits;
    }
    // Two shifts, so that width 0 yields 0 without a branch.
    const auto field = static_cast<std::uint32_t>((window_ >> (63 - width)) >> 1);
    window_ <<= width;
    held_bits_ -= width;
    return field;
  }

 private:
  SPMV_HOST_DEVICE static bro_symbol_t load(const bro_symbol_t* symbol) {
#if defined(__CUDA_ARCH__)
    return __ldg(symbol);
#else
    return *symbol;
#endif
  }

  const bro_symbol_t* next_;
  std::int64_t stride_;
  std::uint64_t window_ = 0;  // held_bits_ valid bits at the top
  int held_bits_ = 0;
};

}  // namespace spmv::detail
