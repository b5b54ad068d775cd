// libFuzzer harness: the Matrix Market reader (plain or gzip) on any bytes,
// in double and float; an accepted matrix must survive a round trip.
#include <cstdint>

#include "fuzz_support.hpp"
#include "round_trip.hpp"
#include "spmv/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace spmv;
  const std::string path = fuzz::write_input(data, size, ".mtx");
  Csr<double> a;
  bool accepted = false;
  fuzz::expect_read_or_refusal(path, size, [&] {
    a = read_matrix_market<double>(path);
    accepted = true;
  });
  fuzz::expect_read_or_refusal(path, size, [&] { read_matrix_market<float>(path); });
  if (accepted)
    fuzz::expect_round_trip(a, path + ".out.mtx", [](const std::string& p, const Csr<double>& m) { write_matrix_market(p, m); },
                            [](const std::string& p) { return read_matrix_market<double>(p); });
  return 0;
}
