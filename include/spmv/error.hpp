// The library's exceptions. Every error says what failed and where.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace spmv {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A caller passed something that cannot be used (bad sizes, unknown names,
// arrays that are not a valid matrix).
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

// A matrix or buffer that needs more than 32-bit indices.
class SizeError : public Error {
 public:
  using Error::Error;
};

// Malformed input file. The message reads "FILE:LINE: problem" (LINE omitted
// when the problem is not tied to one line, e.g. a truncated file).
class ParseError : public Error {
 public:
  ParseError(const std::string& file, std::int64_t line, const std::string& problem);
  const std::string& file() const { return file_; }
  std::int64_t line() const { return line_; }  // 0 when not tied to a line
  const std::string& problem() const { return problem_; }

 private:
  std::string file_;
  std::int64_t line_;
  std::string problem_;
};

// Reading or writing a file failed at the operating-system level.
class IoError : public Error {
 public:
  using Error::Error;
};

// A CUDA, cuSPARSE or cuBLAS call failed.
class DeviceError : public Error {
 public:
  using Error::Error;
};

// Device memory could not be allocated; says how many bytes were needed.
class OutOfMemory : public DeviceError {
 public:
  OutOfMemory(std::size_t bytes_needed, std::size_t bytes_free, const std::string& what);
  std::size_t bytes_needed() const { return bytes_needed_; }

 private:
  std::size_t bytes_needed_;
};

// The requested backend or kernel is not available in this build or on this machine.
class Unavailable : public Error {
 public:
  using Error::Error;
};

// A storage format would need more memory than its limit allows (padding of
// ELL-like formats, too many diagonals for DIA, a dense copy too large). The
// message gives the ratio, why, and which format to use instead.
class FormatLimitError : public Error {
 public:
  using Error::Error;
};

// A computed result differs from the reference beyond tolerance.
class VerificationError : public Error {
 public:
  using Error::Error;
};

}  // namespace spmv
