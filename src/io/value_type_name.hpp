#pragma once

#include <type_traits>

namespace spmv::io {

// "float" or "double", for messages.
template <class T>
constexpr const char* type_name() {
  return std::is_same_v<T, float> ? "float" : "double";
}

}  // namespace spmv::io
