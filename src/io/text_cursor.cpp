#include "io/text_cursor.hpp"

#include <algorithm>
#include <cctype>

#include "spmv/error.hpp"

namespace spmv::io {

std::int64_t TextCursor::line_of(const char* where) const {
  return 1 + std::count(begin_, where, '\n');
}

void TextCursor::fail_at(const char* where, const std::string& problem) const {
  throw ParseError(file_, line_of(where), problem);
}

void TextCursor::fail_size_at(const char* where, const std::string& problem) const {
  throw SizeError(file_ + ":" + std::to_string(line_of(where)) + ": " + problem);
}

void TextCursor::fail_at_last_line(const std::string& problem) const {
  // A final newline ends the last line rather than starting another one.
  const bool ends_with_newline = end_ != begin_ && end_[-1] == '\n';
  fail_at(ends_with_newline ? end_ - 1 : end_, problem);
}

std::string TextCursor::describe_field(const char* where) const {
  if (where == end_) return "the end of the file";
  if (*where == '\n') return "the end of the line";
  if (is_blank(*where)) return "a blank";
  constexpr std::size_t longest_shown = 40;
  const char* stop = where;
  while (stop != end_ && *stop != '\n' && !is_blank(*stop)) ++stop;
  const std::size_t length = static_cast<std::size_t>(stop - where);
  std::string field(where, std::min(length, longest_shown));
  for (char& c : field)
    if (!std::isprint(static_cast<unsigned char>(c))) c = '?';  // keep messages one printable line
  return "'" + field + (length > longest_shown ? "...'" : "'");
}

void TextCursor::fail_trailing_text() const {
  fail("unexpected " + describe_field(pos_) + " after the last field of the line");
}

void TextCursor::fail_number(const char* start, const char* what, const char* range) const {
  if (range != nullptr)
    fail_at(start, std::string(what) + " " + describe_field(start) + " is out of the range of " + range);
  if (start == end_ || *start == '\n' || is_blank(*start))
    fail_at(start, std::string("the ") + what + " is missing (found " + describe_field(start) + ")");
  fail_at(start, std::string("expected the ") + what + ", found " + describe_field(start));
}

void TextCursor::fail_nonfinite(const char* start, const char* what) const {
  fail_at(start, std::string(what) + " " + describe_field(start) +
                     " is not finite (NaN and Inf are refused unless allowed)");
}

}  // namespace spmv::io
