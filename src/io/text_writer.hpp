// Buffered text output for the text formats, through an OutputFile (so the
// target appears only when commit() succeeds).
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "io/output_file.hpp"

namespace spmv::io {

class TextWriter {
 public:
  explicit TextWriter(std::string path) : file_(std::move(path)) { buffer_.reserve(flush_bytes + 64); }

  void text(std::string_view s) {
    buffer_.append(s);
    flush_if_full();
  }
  void character(char c) { buffer_.push_back(c); }
  void integer(std::int64_t value) { append_chars(value); }
  // The shortest decimal form that reads back to exactly the same T
  // (std::to_chars without a precision: round-trip by definition).
  template <class T>
  void real(T value) {
    append_chars(value);
  }
  // "index<separator>value": the pair both text formats write per entry.
  template <class T>
  void index_and_value(std::int64_t index, char separator, T value) {
    integer(index);
    character(separator);
    real(value);
  }
  void commit() {
    file_.write(buffer_);
    buffer_.clear();
    file_.commit();
  }

 private:
  static constexpr std::size_t flush_bytes = std::size_t{1} << 20;

  template <class Number>
  void append_chars(Number value) {
    char digits[32];
    const auto result = std::to_chars(digits, digits + sizeof digits, value);
    buffer_.append(digits, result.ptr);
    flush_if_full();
  }
  void flush_if_full() {
    if (buffer_.size() < flush_bytes) return;
    file_.write(buffer_);
    buffer_.clear();
  }

  OutputFile file_;
  std::string buffer_;
};

}  // namespace spmv::io
