// libFuzzer harness: the LIBSVM reader (plain or gzip) on any bytes, in
// double and float; accepted data must survive a round trip.
#include <cstdint>

#include "fuzz_support.hpp"
#include "round_trip.hpp"
#include "spmv/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace spmv;
  const std::string path = fuzz::write_input(data, size, ".svm");
  LabeledMatrix<double> read;
  bool accepted = false;
  fuzz::expect_read_or_refusal(path, size, [&] {
    read = read_libsvm<double>(path);
    accepted = true;
  });
  fuzz::expect_read_or_refusal(path, size, [&] { read_libsvm<float>(path); });
  if (!accepted) return 0;
  if (read.labels.size() != static_cast<std::size_t>(read.features.rows))
    fuzz::fail("the reader returned " + std::to_string(read.labels.size()) + " labels for " +
               std::to_string(read.features.rows) + " rows");
  const std::vector<double> labels = read.labels;
  fuzz::expect_round_trip(
      read.features, path + ".out.svm",
      [&](const std::string& p, const Csr<double>& m) { write_libsvm(p, LabeledMatrix<double>{m, labels}); },
      [&](const std::string& p) {
        LabeledMatrix<double> back = read_libsvm<double>(p, {}, read.features.cols);
        if (back.labels != labels) fuzz::fail("the labels changed in a round trip");
        return back.features;
      });
  return 0;
}
