// IoError built from the current errno: "cannot ACTION 'PATH': REASON".
#pragma once

#include <cerrno>
#include <cstring>
#include <string>

#include "spmv/error.hpp"

namespace spmv::io {

[[noreturn]] inline void throw_io_error(const std::string& action, const std::string& path,
                                        int error_number = errno) {
  std::string message = "cannot " + action + " '" + path + "'";
  if (error_number != 0) message += std::string(": ") + std::strerror(error_number);
  throw IoError(message);
}

}  // namespace spmv::io
