// CRC-32 of zlib (polynomial 0xEDB88320, the checksum of the .spmv format):
// the same value as zlib's crc32(), at the speed of memory where the CPU
// multiplies carry-less (PCLMULQDQ).
#pragma once

#include <cstddef>
#include <cstdint>

namespace spmv::io {

// The CRC-32 of `bytes` bytes at `data` continued from `crc` (0 to start),
// as zlib's crc32(crc, data, bytes) computes it.
std::uint32_t crc32_update(std::uint32_t crc, const void* data, std::size_t bytes);

}  // namespace spmv::io
