// Helpers shared by the file-format tests (test_io_*.cpp): scratch files,
// the shared data paths, and the check that a reader refuses a file with the
// right exception and a "FILE:LINE: problem" message.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "spmv/error.hpp"
#include "spmv/io.hpp"
#include "spmv/matrix.hpp"
#include "test_support.hpp"

namespace spmv::test {

// A directory for this test program's scratch files (created once).
inline const std::string& io_scratch_dir() {
  static const std::string dir = temp_dir();
  return dir;
}

// Writes `text` verbatim to a scratch file and returns its path.
inline std::string write_scratch_file(const std::string& name, const std::string& text) {
  const std::string path = io_scratch_dir() + "/" + name;
  std::ofstream out(path, std::ios::binary);
  out << text;
  return path;
}

inline std::string scratch_path(const std::string& name) { return io_scratch_dir() + "/" + name; }

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline bool shared_data_present() {
  return std::filesystem::is_directory(shared_data_dir() + "/mm-conformance");
}

#define SPMV_SKIP_WITHOUT_SHARED_DATA()                                                     \
  do {                                                                                    \
    if (!::spmv::test::shared_data_present())                                             \
      GTEST_SKIP() << "shared test data not found at " << ::spmv::test::shared_data_dir() \
                   << " (set SPMV_SHARED_DATA)";                                          \
  } while (0)

inline std::string conformance_file(const std::string& relative) {
  return shared_data_dir() + "/mm-conformance/" + relative;
}

// Passes when `read` throws exactly ParseError for `path` at `line` (0: not
// tied to a line) with a message "PATH:LINE: ..." containing `fragment`.
inline ::testing::AssertionResult refused_with_parse_error(const std::function<void()>& read,
                                                           const std::string& path, std::int64_t line,
                                                           const std::string& fragment) {
  try {
    read();
  } catch (const ParseError& e) {
    const std::string message = e.what();
    const std::string where = line > 0 ? path + ":" + std::to_string(line) + ": " : path + ": ";
    if (e.file() != path || e.line() != line || message.rfind(where, 0) != 0)
      return ::testing::AssertionFailure() << "expected the error at '" << where << "', got: " << message;
    if (message.find(fragment) == std::string::npos)
      return ::testing::AssertionFailure() << "message lacks '" << fragment << "': " << message;
    return ::testing::AssertionSuccess();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "expected ParseError, got another exception: " << e.what();
  }
  return ::testing::AssertionFailure() << "expected ParseError for " << path << ", nothing was thrown";
}

// Passes when `action` throws IoError whose message names `path`.
inline ::testing::AssertionResult refused_with_io_error(const std::function<void()>& action,
                                                        const std::string& path) {
  try {
    action();
  } catch (const IoError& e) {
    if (std::string(e.what()).find(path) == std::string::npos)
      return ::testing::AssertionFailure() << "the message does not name " << path << ": " << e.what();
    return ::testing::AssertionSuccess();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "expected IoError, got another exception: " << e.what();
  }
  return ::testing::AssertionFailure() << "expected IoError for " << path << ", nothing was thrown";
}

}  // namespace spmv::test
