// Portable pseudo-random numbers for the generators.
//
// Everything here is explicit 64-bit integer arithmetic (plus exactly rounded
// IEEE operations for values), so a seed gives the same matrix on every
// machine and compiler, unlike std::uniform_*_distribution whose output is
// implementation-defined. Each row (or chunk of work) draws from its own
// stream, so parallel generation does not depend on the thread count.
#pragma once

#include <cstdint>

#include "spmv/types.hpp"

namespace spmv::gen_detail {

inline constexpr std::uint64_t golden_gamma = 0x9E3779B97F4A7C15ull;

// The SplitMix64 finaliser (Steele, Lea & Flood 2014): a bijective 64-bit mix
// with full avalanche.
inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// SplitMix64 generator. Stream `stream` of `seed`: for a fixed seed distinct
// streams start from distinct states (mix64 is a bijection).
class Rng {
 public:
  Rng(std::uint64_t seed, std::uint64_t stream)
      : state_(mix64(mix64(seed) + stream * golden_gamma)) {}

  std::uint64_t next() {
    state_ += golden_gamma;
    return mix64(state_);
  }
  // Uniform in [0, n) for 0 < n <= 2^31 by multiply-shift (Lemire); the bias,
  // below n / 2^32, does not matter for test matrices.
  index_t below(index_t n) {
    return static_cast<index_t>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
  }

 private:
  std::uint64_t state_;
};

// Maps 64 random bits to a value in [-1, -0.1] U [0.1, 1]: sign from bit 0,
// magnitude from the top 53 bits.
inline double value_from_bits(std::uint64_t bits) {
  const double unit = static_cast<double>(bits >> 11) * 0x1.0p-53;  // [0, 1)
  const double magnitude = 0.1 + 0.9 * unit;
  return (bits & 1) ? -magnitude : magnitude;
}

// The value of entry (row, col) of a random-valued generator: a pure function
// of the position, so it is the same whichever order entries are made in.
inline double entry_value(std::uint64_t seed, index_t row, index_t col) {
  const std::uint64_t position =
      (static_cast<std::uint64_t>(static_cast<std::uint32_t>(row)) << 32) |
      static_cast<std::uint32_t>(col);
  return value_from_bits(mix64(mix64(seed ^ 0x5EED5EED5EED5EEDull) + position));
}

// Writes `k` distinct values of [0, n) to out[0..k), sorted ascending, each
// k-subset equally likely. Requires 0 <= k <= n.
void sample_distinct_sorted(Rng& rng, index_t k, index_t n, index_t* out);

}  // namespace spmv::gen_detail
