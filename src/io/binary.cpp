// The binary .spmv format: the Csr arrays as they are in memory, so that
// loading is mostly copying.
//
// Layout (little-endian):
//   offset  0  char[8]  magic "SPMVBIN\0"
//   offset  8  uint32   format version (1)
//   offset 12  uint32   value type: 1 = float32, 2 = float64
//   offset 16  int64    rows
//   offset 24  int64    cols
//   offset 32  int64    nnz
//   offset 40  int32    row_ptr[rows + 1], then int32 col_idx[nnz]
//              zero bytes up to a multiple of 8, so that the values are aligned
//              float32 or float64 values[nnz]
//   last 4     uint32   CRC-32 (zlib's crc32) of every byte before it
//
// Loading maps the file and makes one pass over it in its order: step by
// step, the bytes are checksummed (io::crc32_update, carry-less folding),
// appended to their final vector and checked while they are in cache (row
// pointers non-decreasing, column indices in range and increasing within
// rows, values finite). Mapping saves the zero-fill and the separate copy
// that reading into fresh vectors would cost.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "io/crc32.hpp"
#include "io/io_error.hpp"
#include "io/output_file.hpp"
#include "io/read_limits.hpp"
#include "io/value_type_name.hpp"
#include "spmv/error.hpp"
#include "spmv/io.hpp"

namespace spmv {

namespace {

static_assert(sizeof(index_t) == 4, "the .spmv layout stores 32-bit indices");

constexpr char magic[8] = {'S', 'P', 'M', 'V', 'B', 'I', 'N', '\0'};
constexpr std::uint32_t format_version = 1;
constexpr std::uint64_t header_bytes = 40;
constexpr std::uint64_t checksum_bytes = 4;

enum class ValueType : std::uint32_t { float32 = 1, float64 = 2 };

template <class T>
constexpr ValueType value_type_of() {
  return sizeof(T) == 4 ? ValueType::float32 : ValueType::float64;
}

std::uint64_t value_bytes(ValueType type) { return type == ValueType::float32 ? 4 : 8; }

struct Header {
  std::uint32_t version = format_version;
  ValueType value_type = ValueType::float64;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t nnz = 0;
};

// Byte offsets of the parts of a file with this header.
struct Offsets {
  std::uint64_t row_ptr = header_bytes;
  std::uint64_t col_idx = 0;
  std::uint64_t padding = 0;
  std::uint64_t values = 0;
  std::uint64_t checksum = 0;
  std::uint64_t file_size = 0;
};

Offsets offsets_of(const Header& header) {
  Offsets offsets;
  offsets.col_idx = offsets.row_ptr + 4 * static_cast<std::uint64_t>(header.rows + 1);
  offsets.padding = offsets.col_idx + 4 * static_cast<std::uint64_t>(header.nnz);
  offsets.values = (offsets.padding + 7) / 8 * 8;
  offsets.checksum = offsets.values + value_bytes(header.value_type) * static_cast<std::uint64_t>(header.nnz);
  offsets.file_size = offsets.checksum + checksum_bytes;
  return offsets;
}

void encode_header(const Header& header, unsigned char* bytes) {
  std::memcpy(bytes, magic, 8);
  std::memcpy(bytes + 8, &header.version, 4);
  std::memcpy(bytes + 12, &header.value_type, 4);
  std::memcpy(bytes + 16, &header.rows, 8);
  std::memcpy(bytes + 24, &header.cols, 8);
  std::memcpy(bytes + 32, &header.nnz, 8);
}

// Writes and checksums every byte that goes into the file.
class ChecksummedOutput {
 public:
  explicit ChecksummedOutput(const std::string& path) : file_(path) {}
  void write(const void* data, std::uint64_t bytes) {
    crc_ = io::crc32_update(crc_, data, bytes);
    file_.write(data, bytes);
  }
  void commit() {
    const std::uint32_t crc = crc_;
    file_.write(&crc, sizeof crc);
    file_.commit();
  }

 private:
  io::OutputFile file_;
  std::uint32_t crc_ = 0;
};

// A whole regular file mapped read-only (pages populated up front).
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) io::throw_io_error("open", path);
    struct stat status {};
    if (::fstat(fd_, &status) != 0) io::throw_io_error("read", path);
    if (!S_ISREG(status.st_mode)) io::throw_io_error("read", path, S_ISDIR(status.st_mode) ? EISDIR : EINVAL);
    size_ = static_cast<std::uint64_t>(status.st_size);
    if (size_ == 0) return;
    void* map = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd_, 0);
    if (map == MAP_FAILED) io::throw_io_error("map", path);
    data_ = static_cast<const unsigned char*>(map);
  }
  ~MappedFile() {
    if (data_ != nullptr) ::munmap(const_cast<unsigned char*>(data_), size_);
    if (fd_ >= 0) ::close(fd_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const unsigned char* data() const { return data_; }
  std::uint64_t size() const { return size_; }

 private:
  int fd_ = -1;
  const unsigned char* data_ = nullptr;
  std::uint64_t size_ = 0;
};

Header decode_header(const MappedFile& file, const std::string& path, const ReadOptions& options) {
  auto fail = [&](const std::string& problem) { throw ParseError(path, 0, problem); };
  if (file.size() < header_bytes + checksum_bytes)
    fail("too short for a .spmv file (" + std::to_string(file.size()) + " bytes)");
  const unsigned char* bytes = file.data();
  if (std::memcmp(bytes, magic, sizeof magic) != 0) fail("not a .spmv file (wrong magic number)");
  Header header;
  std::memcpy(&header.version, bytes + 8, 4);
  std::memcpy(&header.value_type, bytes + 12, 4);
  std::memcpy(&header.rows, bytes + 16, 8);
  std::memcpy(&header.cols, bytes + 24, 8);
  std::memcpy(&header.nnz, bytes + 32, 8);
  if (header.version != format_version)
    fail("unsupported .spmv format version " + std::to_string(header.version) +
         " (this build reads version " + std::to_string(format_version) + ")");
  if (header.value_type != ValueType::float32 && header.value_type != ValueType::float64)
    fail("unknown value type code " + std::to_string(static_cast<std::uint32_t>(header.value_type)) +
         " (expected 1 for float32 or 2 for float64)");
  if (header.rows < 0 || header.cols < 0 || header.nnz < 0)
    fail("negative size in the header (" + std::to_string(header.rows) + " x " +
         std::to_string(header.cols) + ", " + std::to_string(header.nnz) + " non-zeros)");
  check_index_range(header.rows, header.cols, header.nnz, path.c_str());
  // rows and nnz are bounded by the file's length below; cols is not.
  const std::int64_t limit = io::dimension_limit(options, file.size());
  if (header.cols > limit)
    throw SizeError(path + ": " + io::dimension_refusal("column count", header.cols, limit, file.size()));
  const std::uint64_t expected = offsets_of(header).file_size;
  if (file.size() != expected)
    fail("the file has " + std::to_string(file.size()) + " bytes but its header (" +
         std::to_string(header.rows) + " x " + std::to_string(header.cols) + ", " +
         std::to_string(header.nnz) + " non-zeros) needs " + std::to_string(expected) +
         (file.size() < expected ? ": it is truncated" : ": it has trailing data"));
  return header;
}

// Reserves room for `count` elements and asks the kernel to back the untouched
// buffer with transparent huge pages. Faulting fresh memory in 4 KiB pages is
// what dominates loading on a VM (measured on the 2-core dev VM: a 30 MB copy
// into fresh memory 15 ms with 4 KiB pages, 2 to 4 ms with 2 MiB pages). Only
// advice: where it is refused, nothing changes.
template <class T>
void reserve_on_huge_pages(std::vector<T>& v, std::size_t count) {
  v.reserve(count);
#ifdef MADV_HUGEPAGE
  constexpr std::uintptr_t huge_page = std::uintptr_t{1} << 21;
  const std::uintptr_t begin = (reinterpret_cast<std::uintptr_t>(v.data()) + huge_page - 1) & ~(huge_page - 1);
  const std::uintptr_t end = reinterpret_cast<std::uintptr_t>(v.data() + count) & ~(huge_page - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
}

// Elements per step of a pass: small enough that a step's bytes, checksummed
// from the mapped file, are still in the L2 cache when they are copied and
// checked (256 KiB; the dev VM's EPYC has 512 KiB of L2 per core).
constexpr std::size_t step_bytes = std::size_t{1} << 18;

// The one pass over a stored array: step by step, the step's bytes go into
// the running CRC, are appended to `out` (reserved on huge pages, so no
// zero-fill), and `check(first, last)` inspects the appended elements of
// `out` while they are in cache. Returns the CRC continued over the array.
template <class T, class Check>
std::uint32_t checksum_copy_check(std::uint32_t crc, const unsigned char* bytes, std::size_t count,
                                  std::vector<T>& out, Check check) {
  const T* stored = reinterpret_cast<const T*>(bytes);  // aligned by the layout
  out.clear();  // Csr's row_ptr starts as {0}
  reserve_on_huge_pages(out, count);
  constexpr std::size_t step = step_bytes / sizeof(T);
  for (std::size_t first = 0; first < count; first += step) {
    const std::size_t last = std::min(count, first + step);
    crc = io::crc32_update(crc, stored + first, (last - first) * sizeof(T));
    out.insert(out.end(), stored + first, stored + last);
    check(first, last);
  }
  return crc;
}

// What the pass found. Every check is a branch-free reduction that
// vectorises; the messages that name the first bad entry come from the
// slower searches that run only when one of these fails.
struct PassFindings {
  bool row_ptr_decreases = false;
  bool column_out_of_range = false;
  // Positions k > 0 with col_idx[k] <= col_idx[k - 1]: allowed only where
  // a row begins.
  std::int64_t column_descents = 0;
  bool all_finite = true;
  std::int64_t first_overflow = -1;  // float64 values read into float
};

// Whether every column descent lies where a non-empty row begins: then each
// row's columns increase strictly. Needs row_ptr checked (non-decreasing,
// from 0 to nnz), so that every position it reads lies inside col_idx.
template <class T>
bool descents_only_at_row_starts(const Csr<T>& a, std::int64_t column_descents) {
  std::int64_t at_row_starts = 0;
  for (index_t r = 0; r < a.rows; ++r) {
    const index_t begin = a.row_ptr[r];
    if (begin > 0 && begin < a.row_ptr[r + 1]) at_row_starts += a.col_idx[begin] <= a.col_idx[begin - 1];
  }
  return at_row_starts == column_descents;
}

// Copies stored values of another type into T, step by step as above.
// Records the position of the first finite value that does not fit T.
template <class T, class Stored>
std::uint32_t checksum_convert(std::uint32_t crc, const unsigned char* bytes, std::size_t count, std::vector<T>& out,
                               PassFindings& found) {
  const Stored* stored = reinterpret_cast<const Stored*>(bytes);  // aligned by the layout
  reserve_on_huge_pages(out, count);
  out.resize(count);
  constexpr std::size_t step = step_bytes / sizeof(Stored);
  for (std::size_t first = 0; first < count; first += step) {
    const std::size_t last = std::min(count, first + step);
    crc = io::crc32_update(crc, stored + first, (last - first) * sizeof(Stored));
    for (std::size_t k = first; k < last; ++k) {
      out[k] = static_cast<T>(stored[k]);
      found.all_finite &= stored[k] - stored[k] == Stored(0);
      if (found.first_overflow < 0 && std::isfinite(stored[k]) && !std::isfinite(out[k]))
        found.first_overflow = static_cast<std::int64_t>(k);
    }
  }
  return crc;
}

// The position of the first NaN or Inf among `count` values.
template <class T>
std::int64_t first_nonfinite(const std::vector<T>& values) {
  return std::find_if(values.begin(), values.end(), [](T v) { return !std::isfinite(v); }) - values.begin();
}

}  // namespace

template <class T>
void write_binary(const std::string& path, const Csr<T>& a) {
  validate(a);
  Header header;
  header.value_type = value_type_of<T>();
  header.rows = a.rows;
  header.cols = a.cols;
  header.nnz = a.nnz();
  const Offsets offsets = offsets_of(header);
  unsigned char bytes[header_bytes];
  encode_header(header, bytes);
  const unsigned char zeros[8] = {};
  ChecksummedOutput out(path);
  out.write(bytes, header_bytes);
  out.write(a.row_ptr.data(), a.row_ptr.size() * sizeof(index_t));
  out.write(a.col_idx.data(), a.col_idx.size() * sizeof(index_t));
  out.write(zeros, offsets.values - offsets.padding);
  out.write(a.values.data(), a.values.size() * sizeof(T));
  out.commit();
}

template <class T>
Csr<T> read_binary(const std::string& path, const ReadOptions& options) {
  const MappedFile file(path);
  const Header header = decode_header(file, path, options);
  const Offsets offsets = offsets_of(header);
  const unsigned char* bytes = file.data();
  const auto rows = static_cast<std::size_t>(header.rows);
  const auto nnz = static_cast<std::size_t>(header.nnz);
  Csr<T> a;
  a.rows = static_cast<index_t>(header.rows);
  a.cols = static_cast<index_t>(header.cols);

  // One pass over the file in its order: each array is checksummed, copied
  // into its final vector and checked step by step (checksum_copy_check).
  PassFindings found;
  std::uint32_t crc = io::crc32_update(0, bytes, offsets.row_ptr);
  crc = checksum_copy_check(crc, bytes + offsets.row_ptr, rows + 1, a.row_ptr, [&](std::size_t first, std::size_t last) {
    const index_t* p = a.row_ptr.data();
    std::uint32_t decreases = 0;
#pragma omp simd reduction(| : decreases)
    for (std::size_t r = std::max<std::size_t>(first, 1); r < last; ++r) decreases |= p[r] < p[r - 1];
    found.row_ptr_decreases |= decreases != 0;
  });
  const auto cols = static_cast<std::uint32_t>(a.cols);
  crc = checksum_copy_check(crc, bytes + offsets.col_idx, nnz, a.col_idx, [&](std::size_t first, std::size_t last) {
    const index_t* c = a.col_idx.data();
    std::uint32_t out_of_range = static_cast<std::uint32_t>(c[first]) >= cols;  // first < last
    std::uint32_t descents = first > 0 && c[first] <= c[first - 1];  // at most step_bytes / 4 per step
#pragma omp simd reduction(| : out_of_range) reduction(+ : descents)
    for (std::size_t k = first + 1; k < last; ++k) {
      out_of_range |= static_cast<std::uint32_t>(c[k]) >= cols;  // negative indices wrap above cols
      descents += c[k] <= c[k - 1];
    }
    found.column_out_of_range |= out_of_range != 0;
    found.column_descents += descents;
  });
  crc = io::crc32_update(crc, bytes + offsets.padding, offsets.values - offsets.padding);
  const unsigned char* stored_values = bytes + offsets.values;
  if (header.value_type == value_type_of<T>()) {
    crc = checksum_copy_check(crc, stored_values, nnz, a.values, [&](std::size_t first, std::size_t last) {
      const T* v = a.values.data();
      std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t> nonfinite = 0;  // lanes as wide as T
#pragma omp simd reduction(| : nonfinite)
      for (std::size_t k = first; k < last; ++k) nonfinite |= !(std::fabs(v[k]) <= std::numeric_limits<T>::max());
      found.all_finite &= nonfinite == 0;
    });
  } else {
    crc = header.value_type == ValueType::float32 ? checksum_convert<T, float>(crc, stored_values, nnz, a.values, found)
                                                  : checksum_convert<T, double>(crc, stored_values, nnz, a.values, found);
  }

  auto fail = [&](const std::string& problem) { throw ParseError(path, 0, problem); };
  std::uint32_t stored_crc = 0;
  std::memcpy(&stored_crc, bytes + offsets.checksum, checksum_bytes);
  if (stored_crc != crc)
    fail("checksum mismatch (stored " + std::to_string(stored_crc) + ", computed " + std::to_string(crc) +
         "): the file is corrupt");
  if (found.first_overflow >= 0)
    fail("value " + std::to_string(found.first_overflow) + " is outside the range of " + io::type_name<T>());
  if (!found.all_finite && !options.allow_nonfinite) {
    const std::int64_t nonfinite = first_nonfinite(a.values);
    fail("value " + std::to_string(nonfinite) + " is " + std::to_string(a.values[nonfinite]) +
         ", not finite (NaN and Inf are refused unless ReadOptions::allow_nonfinite is set)");
  }
  // The pass's findings decide; validate() runs only to name what is wrong.
  const bool canonical = !found.row_ptr_decreases && a.row_ptr.front() == 0 &&
                         static_cast<std::size_t>(a.row_ptr.back()) == nnz && !found.column_out_of_range &&
                         descents_only_at_row_starts(a, found.column_descents);
  if (!canonical) {
    try {
      validate(a);
    } catch (const InvalidArgument& e) {
      fail(std::string("the stored matrix is not a valid canonical CSR: ") + e.what());
    }
  }
  return a;
}

template void write_binary(const std::string&, const Csr<float>&);
template void write_binary(const std::string&, const Csr<double>&);
template Csr<float> read_binary(const std::string&, const ReadOptions&);
template Csr<double> read_binary(const std::string&, const ReadOptions&);

}  // namespace spmv
