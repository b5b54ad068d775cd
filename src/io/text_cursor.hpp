// Field-by-field parsing of line-oriented text held in memory (Matrix Market,
// LIBSVM). The fast path moves one pointer; the line number of an error is
// found by counting newlines only when the error is thrown.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "io/value_type_name.hpp"

namespace spmv::io {

enum class NumberStatus { ok, not_a_number, out_of_range };

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
inline bool is_digit(char c) { return static_cast<unsigned char>(c - '0') < 10; }

// Parses an optionally signed decimal integer starting at p and advances p
// past it on success. The text must be NUL-terminated at `end` or earlier
// stop at a non-digit (std::string guarantees it).
inline NumberStatus parse_int64(const char*& p, std::int64_t& out) {
  const char* q = p;
  const bool negative = *q == '-';
  if (*q == '-' || *q == '+') ++q;
  const char* first_digit = q;
  std::uint64_t magnitude = 0;
  bool overflow = false;
  for (; is_digit(*q); ++q) {
    overflow |= __builtin_mul_overflow(magnitude, 10u, &magnitude);
    overflow |= __builtin_add_overflow(magnitude, static_cast<unsigned>(*q - '0'), &magnitude);
  }
  if (q == first_digit) return NumberStatus::not_a_number;
  const std::uint64_t limit =
      static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + (negative ? 1 : 0);
  if (overflow || magnitude > limit) return NumberStatus::out_of_range;
  out = negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
  p = q;
  return NumberStatus::ok;
}

// Parses a floating-point number with std::from_chars (correctly rounded to
// T), also accepting the leading '+' that from_chars does not take.
template <class T>
NumberStatus parse_real(const char*& p, const char* end, T& out) {
  const char* q = p;
  if (q != end && *q == '+') {
    ++q;
    if (q != end && *q == '-') return NumberStatus::not_a_number;
  }
  const auto [next, error] = std::from_chars(q, end, out);
  if (error == std::errc::invalid_argument) return NumberStatus::not_a_number;
  if (error == std::errc::result_out_of_range) return NumberStatus::out_of_range;
  p = next;
  return NumberStatus::ok;
}

class TextCursor {
 public:
  // `text` must outlive the cursor; its terminating NUL ends every digit loop.
  TextCursor(std::string file, const std::string& text)
      : file_(std::move(file)), begin_(text.data()), pos_(text.data()),
        end_(text.data() + text.size()) {}

  const std::string& file() const { return file_; }
  const char* position() const { return pos_; }
  bool at_end() const { return pos_ == end_; }
  std::int64_t remaining_bytes() const { return end_ - pos_; }
  std::uint64_t total_bytes() const { return static_cast<std::uint64_t>(end_ - begin_); }
  char peek() const { return *pos_; }  // NUL at the end
  void advance() { ++pos_; }

  void skip_blanks() {
    while (is_blank(*pos_)) ++pos_;
  }
  bool at_line_end() const { return pos_ == end_ || *pos_ == '\n'; }
  // True at a character that ends a field: a blank, a newline or the end.
  bool at_field_end() const { return at_line_end() || is_blank(*pos_); }

  // Moves past the rest of the current line and its newline.
  void skip_line() {
    const void* newline = std::memchr(pos_, '\n', static_cast<std::size_t>(end_ - pos_));
    pos_ = newline ? static_cast<const char*>(newline) + 1 : end_;
  }
  // Skips blanks, requires the end of the line (else ParseError naming the
  // unexpected text) and moves to the start of the next line.
  void finish_line() {
    skip_blanks();
    if (pos_ == end_) return;
    if (*pos_ != '\n') fail_trailing_text();
    ++pos_;
  }
  // Skips lines that hold only blanks or start (after blanks) with `comment`;
  // stops at the first character of the next content line, or at the end.
  void skip_empty_and_comment_lines(char comment) {
    while (true) {
      skip_blanks();
      if (pos_ == end_) return;
      if (*pos_ == '\n') {
        ++pos_;
      } else if (*pos_ == comment) {
        skip_line();
      } else {
        return;
      }
    }
  }

  // A signed integer field named `what` (for messages). It must end at a
  // field end or at `terminator`.
  std::int64_t read_int64(const char* what, char terminator = '\n') {
    const char* start = pos_;
    std::int64_t value = 0;
    const NumberStatus status = parse_int64(pos_, value);
    if (status == NumberStatus::ok && (at_field_end() || *pos_ == terminator)) return value;
    fail_number(start, what, status == NumberStatus::out_of_range ? "a 64-bit integer" : nullptr);
  }

  // A floating-point field, refused when it is NaN or Inf unless allowed.
  template <class T>
  T read_real(const char* what, bool allow_nonfinite, char terminator = '\n') {
    const char* start = pos_;
    T value{};
    const NumberStatus status = parse_real(pos_, end_, value);
    if (status == NumberStatus::ok && (at_field_end() || *pos_ == terminator)) {
      if (!allow_nonfinite && !std::isfinite(value)) fail_nonfinite(start, what);
      return value;
    }
    fail_number(start, what, status == NumberStatus::out_of_range ? type_name<T>() : nullptr);
  }

  // ParseError "FILE:LINE: problem" for the line holding `where` (default:
  // the cursor).
  [[noreturn]] void fail(const std::string& problem) const { fail_at(pos_, problem); }
  [[noreturn]] void fail_at(const char* where, const std::string& problem) const;
  // The same report as a SizeError: the input is well formed but too large.
  [[noreturn]] void fail_size_at(const char* where, const std::string& problem) const;
  // For problems found at the end of the text (missing lines).
  [[noreturn]] void fail_at_last_line(const std::string& problem) const;

  // The field starting at `where`, quoted and shortened for a message, or
  // "the end of the line" / "the end of the file".
  std::string describe_field(const char* where) const;
  std::int64_t line_of(const char* where) const;

 private:
  [[noreturn]] void fail_trailing_text() const;
  // `range` names what the number did not fit, or is null when it was not a number.
  [[noreturn]] void fail_number(const char* start, const char* what, const char* range) const;
  [[noreturn]] void fail_nonfinite(const char* start, const char* what) const;

  std::string file_;
  const char* begin_;
  const char* pos_;
  const char* end_;
};

}  // namespace spmv::io
