// libFuzzer harness: the binary .spmv reader on any bytes, into double and
// float; an accepted matrix must survive a round trip. Mutations that keep
// the checksum right are rare, so the harness also reads a copy whose
// trailing CRC-32 is recomputed, reaching the checks after the checksum.
#include <zlib.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_support.hpp"
#include "round_trip.hpp"
#include "spmv/io.hpp"

namespace {

void read_one(const std::uint8_t* data, std::size_t size) {
  using namespace spmv;
  const std::string path = fuzz::write_input(data, size, ".spmv");
  Csr<double> a;
  bool accepted = false;
  fuzz::expect_read_or_refusal(path, size, [&] {
    a = read_binary<double>(path);
    accepted = true;
  });
  fuzz::expect_read_or_refusal(path, size, [&] { read_binary<float>(path); });
  if (accepted)
    fuzz::expect_round_trip(a, path + ".out.spmv", [](const std::string& p, const Csr<double>& m) { write_binary(p, m); },
                            [](const std::string& p) { return read_binary<double>(p); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  read_one(data, size);
  if (size < 4) return 0;
  std::vector<std::uint8_t> resealed(data, data + size);
  const auto crc = static_cast<std::uint32_t>(crc32(0, resealed.data(), static_cast<uInt>(size - 4)));
  std::memcpy(resealed.data() + size - 4, &crc, 4);
  read_one(resealed.data(), size);
  return 0;
}
