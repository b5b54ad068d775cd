// Matrix Market reader: banner, comments, size line, then coordinate entries
// or dense (array) values, for matrices and vectors (read as n x 1).
//
// Strict where a mistake would give a silently wrong matrix (entry counts,
// index ranges, trailing text, a symmetric file storing both triangles),
// permissive where nothing can go wrong (blank lines anywhere, indented
// lines, CRLF, a banner with one '%' or leading blanks, case of the banner
// words). The whole file is parsed from memory by TextCursor.
#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "core/csr_assembly.hpp"
#include "io/input_file.hpp"
#include "io/read_limits.hpp"
#include "io/text_cursor.hpp"
#include "spmv/error.hpp"
#include "spmv/io.hpp"

namespace spmv {

namespace {

using io::TextCursor;

enum class MmObject { matrix, vector };
enum class MmFormat { coordinate, array };
enum class MmField { real, integer, pattern };
enum class MmSymmetry { general, symmetric, skew_symmetric };

struct Banner {
  MmObject object = MmObject::matrix;
  MmFormat format = MmFormat::coordinate;
  MmField field = MmField::real;
  MmSymmetry symmetry = MmSymmetry::general;
};

struct SizeLine {
  index_t rows = 0;
  index_t cols = 0;
  std::int64_t entries = 0;  // coordinate: entry lines; array: stored values
};

// Integers above 2^53 would be rounded when stored as double.
constexpr std::int64_t largest_exact_integer = std::int64_t{1} << 53;

std::string lower_case(std::string word) {
  for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return word;
}

// The words of the current line (split at blanks); leaves the cursor at the
// start of the next line.
std::vector<std::pair<const char*, std::string>> line_words(TextCursor& cursor) {
  std::vector<std::pair<const char*, std::string>> words;
  while (true) {
    cursor.skip_blanks();
    if (cursor.at_line_end()) break;
    const char* start = cursor.position();
    while (!cursor.at_field_end()) cursor.advance();
    words.emplace_back(start, std::string(start, cursor.position()));
  }
  if (!cursor.at_end()) cursor.advance();
  return words;
}

Banner read_banner(TextCursor& cursor) {
  constexpr const char* expected =
      "%%MatrixMarket OBJECT FORMAT FIELD SYMMETRY, e.g. '%%MatrixMarket matrix coordinate real "
      "general'";
  if (cursor.at_end()) cursor.fail("the file is empty (expected a Matrix Market banner: " +
                                   std::string(expected) + ")");
  const char* line_start = cursor.position();
  const auto words = line_words(cursor);
  if (words.empty() || (words[0].second != "%%MatrixMarket" && words[0].second != "%MatrixMarket"))
    cursor.fail_at(line_start, "expected the Matrix Market banner " + std::string(expected) +
                                   ", found " + cursor.describe_field(line_start));
  if (words.size() < 5)
    cursor.fail_at(line_start, "the banner is incomplete: expected " + std::string(expected));
  if (words.size() > 5)
    cursor.fail_at(words[5].first, "unexpected '" + words[5].second + "' after the banner's symmetry");

  Banner banner;
  const std::string object = lower_case(words[1].second);
  const std::string format = lower_case(words[2].second);
  const std::string field = lower_case(words[3].second);
  const std::string symmetry = lower_case(words[4].second);
  auto refuse = [&](int word, const std::string& problem) { cursor.fail_at(words[word].first, problem); };

  if (object == "matrix") banner.object = MmObject::matrix;
  else if (object == "vector") banner.object = MmObject::vector;
  else refuse(1, "unknown object '" + words[1].second + "' in the banner (expected matrix or vector)");

  if (format == "coordinate") banner.format = MmFormat::coordinate;
  else if (format == "array") banner.format = MmFormat::array;
  else refuse(2, "unknown format '" + words[2].second + "' in the banner (expected coordinate or array)");

  // "double" is written by some tools for "real".
  if (field == "real" || field == "double") banner.field = MmField::real;
  else if (field == "integer") banner.field = MmField::integer;
  else if (field == "pattern") banner.field = MmField::pattern;
  else if (field == "complex")
    refuse(3, "complex matrices are not supported (banner field 'complex'); spmv reads real, "
              "integer and pattern matrices");
  else refuse(3, "unknown field '" + words[3].second + "' in the banner (expected real, integer or pattern)");

  if (symmetry == "general") banner.symmetry = MmSymmetry::general;
  else if (symmetry == "symmetric") banner.symmetry = MmSymmetry::symmetric;
  else if (symmetry == "skew-symmetric") banner.symmetry = MmSymmetry::skew_symmetric;
  // Complex fields are refused above, and a real hermitian matrix is symmetric.
  else if (symmetry == "hermitian") banner.symmetry = MmSymmetry::symmetric;
  else refuse(4, "unknown symmetry '" + words[4].second +
                     "' in the banner (expected general, symmetric, skew-symmetric or hermitian)");

  if (banner.format == MmFormat::array && banner.field == MmField::pattern)
    refuse(3, "the pattern field needs the coordinate format (an array stores values)");
  if (banner.object == MmObject::vector && banner.symmetry != MmSymmetry::general)
    refuse(4, "a vector cannot be " + symmetry + " (only general vectors exist)");
  return banner;
}

// Reads one size field: a non-negative count that fits index_t (SizeError
// otherwise: the file may be fine, just too large for 32-bit indices).
std::int64_t read_count(TextCursor& cursor, const char* what, std::int64_t limit) {
  cursor.skip_blanks();
  const char* start = cursor.position();
  const std::int64_t value = cursor.read_int64(what);
  if (value < 0) cursor.fail_at(start, std::string("negative ") + what + " " + std::to_string(value));
  if (value > limit)
    cursor.fail_size_at(start, std::string(what) + " " + std::to_string(value) +
                                   " exceeds the 32-bit index limit " + std::to_string(limit));
  return value;
}

SizeLine read_size_line(TextCursor& cursor, const Banner& banner, const ReadOptions& options) {
  cursor.skip_empty_and_comment_lines('%');
  if (cursor.at_end()) cursor.fail_at_last_line("missing size line: the file ends after the header");
  const char* line_start = cursor.position();
  SizeLine size;
  const bool coordinate = banner.format == MmFormat::coordinate;
  if (banner.object == MmObject::vector) {
    size.rows = static_cast<index_t>(read_count(cursor, "vector length", max_index));
    size.cols = 1;
  } else {
    size.rows = static_cast<index_t>(read_count(cursor, "row count", max_index));
    size.cols = static_cast<index_t>(read_count(cursor, "column count", max_index));
  }
  if (coordinate) size.entries = read_count(cursor, "entry count", max_index);
  cursor.finish_line();

  const std::int64_t limit = io::dimension_limit(options, cursor.total_bytes());
  for (const auto& [quantity, value] : {std::pair{"row count", size.rows}, std::pair{"column count", size.cols}})
    if (value > limit)
      cursor.fail_size_at(line_start, io::dimension_refusal(quantity, value, limit, cursor.total_bytes()));

  if (banner.symmetry != MmSymmetry::general && size.rows != size.cols)
    cursor.fail_at(line_start, "a symmetric or skew-symmetric matrix must be square, the size line "
                               "gives " + std::to_string(size.rows) + " x " + std::to_string(size.cols));
  if (!coordinate) {
    const std::int64_t n = size.rows;
    switch (banner.symmetry) {
      case MmSymmetry::general: size.entries = n * size.cols; break;
      case MmSymmetry::symmetric: size.entries = n * (n + 1) / 2; break;
      case MmSymmetry::skew_symmetric: size.entries = n * (n - 1) / 2; break;
    }
  }
  return size;
}

template <class T>
Coo<T> empty_coo(const SizeLine& size) {
  Coo<T> coo;
  coo.rows = size.rows;
  coo.cols = size.cols;
  return coo;
}

template <class T>
T read_value(TextCursor& cursor, MmField field, const ReadOptions& options) {
  if (field == MmField::pattern) return T(1);
  cursor.skip_blanks();
  if (field == MmField::real) return cursor.read_real<T>("value", options.allow_nonfinite);
  const char* start = cursor.position();
  const std::int64_t value = cursor.read_int64("integer value");
  if (value > largest_exact_integer || value < -largest_exact_integer)
    cursor.fail_at(start, "integer value " + std::to_string(value) +
                              " cannot be stored exactly as floating point (its magnitude exceeds 2^53)");
  return static_cast<T>(value);
}

// A 1-based index in [1, count], returned 0-based.
index_t read_index(TextCursor& cursor, const char* what, index_t count) {
  cursor.skip_blanks();
  const char* start = cursor.position();
  const std::int64_t index = cursor.read_int64(what);
  if (index < 1 || index > count)
    cursor.fail_at(start, std::string(what) + " " + std::to_string(index) + " is outside [1, " +
                              std::to_string(count) + "]");
  return static_cast<index_t>(index - 1);
}

// Entries strictly on one side of the diagonal, in a symmetric file, must all
// be on the same side: a file storing both triangles would be doubled.
class TriangleCheck {
 public:
  void check(TextCursor& cursor, const char* line, index_t row, index_t col) {
    const Side side = row > col ? Side::lower : Side::upper;
    if (side_ == Side::unknown) side_ = side;
    if (side != side_)
      cursor.fail_at(line, "entry (" + std::to_string(row + 1) + ", " + std::to_string(col + 1) +
                               ") is in the " + name(side) + " triangle but earlier entries are in the " +
                               name(side_) + " one; a symmetric file stores one triangle only");
  }

 private:
  enum class Side { unknown, lower, upper };
  static const char* name(Side side) { return side == Side::lower ? "lower" : "upper"; }
  Side side_ = Side::unknown;
};

template <class T>
Coo<T> read_coordinate_entries(TextCursor& cursor, const Banner& banner, const SizeLine& size,
                               const ReadOptions& options) {
  Coo<T> coo = empty_coo<T>(size);
  const bool is_vector = banner.object == MmObject::vector;
  // The size line may lie: reserve no more than the rest of the file can
  // hold, each line at least a digit and a blank or newline per number.
  const int numbers_per_line = (is_vector ? 1 : 2) + (banner.field == MmField::pattern ? 0 : 1);
  const auto reservation = static_cast<std::size_t>(
      std::min<std::int64_t>(size.entries, (cursor.remaining_bytes() + 1) / (2 * numbers_per_line)));
  const bool pattern = banner.field == MmField::pattern;  // no values stored: all are 1
  coo.row_idx.reserve(reservation);
  coo.col_idx.reserve(reservation);
  if (!pattern) coo.values.reserve(reservation);

  const bool skew = banner.symmetry == MmSymmetry::skew_symmetric;
  const bool symmetric = banner.symmetry != MmSymmetry::general;
  TriangleCheck triangle;
  std::int64_t read = 0;
  while (true) {
    cursor.skip_empty_and_comment_lines('%');
    if (cursor.at_end()) break;
    const char* line = cursor.position();
    if (read == size.entries)
      cursor.fail(std::string("more entries than the ") + std::to_string(size.entries) +
                  " the size line declares");
    const index_t row = read_index(cursor, "row index", size.rows);
    const index_t col = is_vector ? 0 : read_index(cursor, "column index", size.cols);
    const T value = read_value<T>(cursor, banner.field, options);
    cursor.finish_line();
    if (symmetric && row != col) triangle.check(cursor, line, row, col);
    if (skew && row == col)
      cursor.fail_at(line, "diagonal entry (" + std::to_string(row + 1) + ", " + std::to_string(col + 1) +
                               ") in a skew-symmetric matrix, whose diagonal is zero and not stored");
    coo.row_idx.push_back(row);
    coo.col_idx.push_back(col);
    if (!pattern) coo.values.push_back(value);
    ++read;
  }
  if (read < size.entries)
    cursor.fail_at_last_line("the file ends after " + std::to_string(read) + " of the " +
                             std::to_string(size.entries) + " entries the size line declares");
  return coo;
}

// Dense values, column by column; for symmetric forms only the lower
// triangle (with the diagonal unless skew-symmetric). Zeros are not stored.
template <class T>
Coo<T> read_array_values(TextCursor& cursor, const Banner& banner, const SizeLine& size,
                         const ReadOptions& options) {
  Coo<T> coo = empty_coo<T>(size);
  auto first_stored_row = [&](index_t col) -> index_t {
    switch (banner.symmetry) {
      case MmSymmetry::general: return 0;
      case MmSymmetry::symmetric: return col;
      case MmSymmetry::skew_symmetric: return col + 1;
    }
    return 0;
  };
  std::int64_t read = 0;
  for (index_t col = 0; col < size.cols; ++col) {
    for (index_t row = first_stored_row(col); row < size.rows; ++row) {
      cursor.skip_empty_and_comment_lines('%');
      if (cursor.at_end())
        cursor.fail_at_last_line("the file ends after " + std::to_string(read) + " of the " +
                                 std::to_string(size.entries) + " values of the array");
      const T value = read_value<T>(cursor, banner.field, options);
      cursor.finish_line();
      ++read;
      if (value == T(0)) continue;
      coo.push(row, col, value);
    }
  }
  cursor.skip_empty_and_comment_lines('%');
  if (!cursor.at_end())
    cursor.fail("more values than the " + std::to_string(size.entries) + " the array holds");
  return coo;
}

}  // namespace

template <class T>
Csr<T> read_matrix_market(const std::string& path, const ReadOptions& options) {
  Banner banner;
  Coo<T> stored;
  // The stored entries (a pattern file's without values) are assembled into
  // the Csr after the file's text is released: the peak holds the entries
  // and the Csr, never a second, mirrored copy of the entries.
  {
    const std::string text = io::read_whole_file(path, options.max_inflated_bytes);
    TextCursor cursor(path, text);
    banner = read_banner(cursor);
    const SizeLine size = read_size_line(cursor, banner, options);
    stored = banner.format == MmFormat::coordinate ? read_coordinate_entries<T>(cursor, banner, size, options)
                                                   : read_array_values<T>(cursor, banner, size, options);
  }
  const T mirror_sign = banner.symmetry == MmSymmetry::general          ? T(0)
                       : banner.symmetry == MmSymmetry::skew_symmetric ? T(-1)
                                                                       : T(1);
  return detail::assemble_csr(stored, mirror_sign, path);
}

template Csr<float> read_matrix_market(const std::string&, const ReadOptions&);
template Csr<double> read_matrix_market(const std::string&, const ReadOptions&);

}  // namespace spmv
