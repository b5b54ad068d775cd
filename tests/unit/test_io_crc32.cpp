// io::crc32_update (the .spmv checksum) against zlib's crc32 on every short
// length, odd alignments, long buffers and continued checksums.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <random>
#include <vector>

#include "io/crc32.hpp"

namespace spmv::test {
namespace {

std::uint32_t zlib_crc(std::uint32_t crc, const unsigned char* data, std::size_t bytes) {
  return bytes == 0 ? crc : static_cast<std::uint32_t>(crc32_z(crc, data, bytes));
}

std::vector<unsigned char> random_bytes(std::size_t count) {
  std::mt19937 rng(17);
  std::vector<unsigned char> bytes(count);
  for (unsigned char& b : bytes) b = static_cast<unsigned char>(rng());
  return bytes;
}

TEST(Crc32, EqualsZlibOnEveryLengthToFourHundredAtEveryAlignment) {
  const std::vector<unsigned char> bytes = random_bytes(512);
  for (std::size_t offset = 0; offset < 16; ++offset)
    for (std::size_t length = 0; offset + length <= 400; ++length)
      ASSERT_EQ(io::crc32_update(0, bytes.data() + offset, length), zlib_crc(0, bytes.data() + offset, length))
          << "offset " << offset << ", length " << length;
}

TEST(Crc32, ContinuesAChecksumAsZlibDoes) {
  const std::vector<unsigned char> bytes = random_bytes(3 << 20);
  std::mt19937 rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    const std::size_t split = rng() % bytes.size();
    const std::uint32_t head = io::crc32_update(0, bytes.data(), split);
    EXPECT_EQ(head, zlib_crc(0, bytes.data(), split));
    EXPECT_EQ(io::crc32_update(head, bytes.data() + split, bytes.size() - split),
              zlib_crc(0, bytes.data(), bytes.size()));
  }
  const std::uint32_t seed = 0xDEADBEEF;
  EXPECT_EQ(io::crc32_update(seed, bytes.data() + 5, 1000003), zlib_crc(seed, bytes.data() + 5, 1000003));
}

TEST(Crc32, ZeroBytesLeaveTheChecksum) {
  EXPECT_EQ(io::crc32_update(0x12345678u, nullptr, 0), 0x12345678u);
  const std::vector<unsigned char> zeros(4096, 0);
  EXPECT_EQ(io::crc32_update(0, zeros.data(), zeros.size()), zlib_crc(0, zeros.data(), zeros.size()));
}

}  // namespace
}  // namespace spmv::test
