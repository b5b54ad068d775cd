#include "spmv/error.hpp"

namespace spmv {

namespace {
std::string where(const std::string& file, std::int64_t line) {
  return line > 0 ? file + ":" + std::to_string(line) : file;
}

std::string mib(std::size_t bytes) {
  return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB";
}
}  // namespace

ParseError::ParseError(const std::string& file, std::int64_t line, const std::string& problem)
    : Error(where(file, line) + ": " + problem), file_(file), line_(line), problem_(problem) {}

OutOfMemory::OutOfMemory(std::size_t bytes_needed, std::size_t bytes_free, const std::string& what)
    : DeviceError("out of device memory: " + what + " needs " + std::to_string(bytes_needed) +
                  " bytes (" + mib(bytes_needed) + "), " + std::to_string(bytes_free) +
                  " bytes (" + mib(bytes_free) + ") free"),
      bytes_needed_(bytes_needed) {}

}  // namespace spmv
