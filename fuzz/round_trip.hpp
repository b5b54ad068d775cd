// After a successful read: the matrix is canonical, and writing it in the
// same format and reading it back gives it again (bit for bit).
#pragma once

#include <exception>
#include <string>

#include "fuzz_support.hpp"
#include "spmv/matrix.hpp"

namespace spmv::fuzz {

template <class T, class Write, class ReadBack>
void expect_round_trip(const Csr<T>& a, const std::string& path, Write write, ReadBack read_back) {
  try {
    validate(a);
    write(path, a);
    if (read_back(path) != a) fail("writing the matrix and reading it back changed it");
  } catch (const std::exception& e) {
    fail(std::string("a matrix the reader accepted failed its round trip: ") + e.what());
  }
}

}  // namespace spmv::fuzz
