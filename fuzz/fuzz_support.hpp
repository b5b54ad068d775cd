// What the reader harnesses share: the fuzzed bytes as a file a reader can
// open, the heap growth of one read, and the verdict on what it threw.
//
// A reader passes an input when it returns or throws spmv::Error naming the
// file. It fails (abort, so libFuzzer keeps the input) on any other
// exception, on a sanitizer report, and when one read grows the heap by more
// than allowed_heap_growth(input size).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace spmv::fuzz {

// Writes the bytes to this process's scratch file with the given extension
// (".mtx", ".svm", ".spmv") and returns its path.
std::string write_input(const std::uint8_t* data, std::size_t size, const std::string& extension);

// The most one read may grow the heap: 10 bytes per input byte, plus a
// constant for what any small file may ask for (see fuzz/README.md).
std::size_t allowed_heap_growth(std::size_t input_bytes);

// Runs `read` and aborts with a message unless it returns or throws
// spmv::Error whose message names `path`, within allowed_heap_growth.
void expect_read_or_refusal(const std::string& path, std::size_t input_bytes,
                            const std::function<void()>& read);

[[noreturn]] void fail(const std::string& problem);

}  // namespace spmv::fuzz
