// LIBSVM / SVMlight text: one row per line, "label [qid:N] index:value ...
// [# comment]" with 1-based, strictly increasing indices (as LIBLINEAR
// requires). Lines holding only a comment are skipped; an empty line is an
// error, as in LIBLINEAR, since it cannot be a row (a row needs a label).
// Rows arrive in order with sorted columns, so the Csr is built directly.
#include <algorithm>
#include <cstring>
#include <string>

#include "io/input_file.hpp"
#include "io/read_limits.hpp"
#include "io/text_cursor.hpp"
#include "io/text_writer.hpp"
#include "spmv/error.hpp"
#include "spmv/io.hpp"

namespace spmv {

namespace {

using io::TextCursor;

bool starts_with(const char* text, const char* prefix) {
  return std::strncmp(text, prefix, std::strlen(prefix)) == 0;
}

// Reads the index:value pairs of one line into `a`; returns the largest index.
// `index_limit` is the largest index (column count) the file may reach.
template <class T>
std::int64_t read_features(TextCursor& cursor, Csr<T>& a, const ReadOptions& options,
                           std::int64_t index_limit) {
  std::int64_t previous = 0;
  while (true) {
    cursor.skip_blanks();
    if (cursor.at_line_end() || cursor.peek() == '#') break;
    const char* start = cursor.position();
    const std::int64_t index = cursor.read_int64("feature index", ':');
    if (cursor.peek() != ':')
      cursor.fail_at(start, "expected index:value, found " + cursor.describe_field(start));
    if (index < 1)
      cursor.fail_at(start, "feature index " + std::to_string(index) + " is not positive (indices are 1-based)");
    if (index > max_index)
      cursor.fail_size_at(start, "feature index " + std::to_string(index) +
                                     " exceeds the 32-bit index limit " + std::to_string(max_index));
    if (index > index_limit)
      cursor.fail_size_at(start, io::dimension_refusal("feature index", index, index_limit, cursor.total_bytes()));
    if (index <= previous)
      cursor.fail_at(start, "feature index " + std::to_string(index) + " does not follow " +
                                std::to_string(previous) + " in increasing order (LIBSVM needs ascending indices)");
    cursor.advance();  // ':'
    a.values.push_back(cursor.read_real<T>("feature value", options.allow_nonfinite));
    a.col_idx.push_back(static_cast<index_t>(index - 1));
    previous = index;
  }
  return previous;
}

}  // namespace

template <class T>
LabeledMatrix<T> read_libsvm(const std::string& path, const ReadOptions& options, index_t min_cols) {
  const std::string text = io::read_whole_file(path, options.max_inflated_bytes);
  TextCursor cursor(path, text);
  const std::int64_t index_limit = io::dimension_limit(options, cursor.total_bytes());
  LabeledMatrix<T> data;
  Csr<T>& a = data.features;
  std::int64_t largest_index = 0;
  while (!cursor.at_end()) {
    cursor.skip_blanks();
    if (cursor.peek() == '#') {
      cursor.skip_line();
      continue;
    }
    if (cursor.at_line_end())
      cursor.fail("empty line: every line must hold a row (a label, then index:value pairs)");
    if (static_cast<std::int64_t>(data.labels.size()) == max_index)
      cursor.fail_size_at(cursor.position(), "more rows than the 32-bit index limit " + std::to_string(max_index));
    data.labels.push_back(cursor.read_real<double>("label", options.allow_nonfinite));
    cursor.skip_blanks();
    if (starts_with(cursor.position(), "qid:")) {
      while (!cursor.at_field_end()) cursor.advance();
    }
    largest_index = std::max(largest_index, read_features(cursor, a, options, index_limit));
    if (a.col_idx.size() > static_cast<std::size_t>(max_index))
      cursor.fail_size_at(cursor.position(), "more non-zeros than the 32-bit index limit " + std::to_string(max_index));
    a.row_ptr.push_back(static_cast<index_t>(a.col_idx.size()));
    cursor.skip_line();  // the rest is blanks or a comment
  }
  a.rows = static_cast<index_t>(data.labels.size());
  a.cols = std::max(static_cast<index_t>(largest_index), min_cols);
  return data;
}

template <class T>
void write_libsvm(const std::string& path, const LabeledMatrix<T>& data) {
  const Csr<T>& a = data.features;
  validate(a);
  if (data.labels.size() != static_cast<std::size_t>(a.rows))
    throw InvalidArgument("LIBSVM output '" + path + "': " + std::to_string(data.labels.size()) +
                          " labels for " + std::to_string(a.rows) + " rows");
  io::TextWriter out(path);
  for (index_t r = 0; r < a.rows; ++r) {
    out.real(data.labels[r]);
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      out.character(' ');
      out.index_and_value(a.col_idx[k] + 1, ':', a.values[k]);
    }
    out.character('\n');
  }
  out.commit();
}

#define SPMV_INSTANTIATE(T)                                                                  \
  template LabeledMatrix<T> read_libsvm(const std::string&, const ReadOptions&, index_t);   \
  template void write_libsvm(const std::string&, const LabeledMatrix<T>&);
SPMV_INSTANTIATE(float)
SPMV_INSTANTIATE(double)
#undef SPMV_INSTANTIATE

}  // namespace spmv
