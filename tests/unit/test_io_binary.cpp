// The binary .spmv format: layout, round trips, value-type conversion, and
// every way a damaged file is detected.
#include <zlib.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <filesystem>
#include <fstream>
#include <functional>
#include <tuple>

#include "test_io_support.hpp"

namespace spmv::test {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t header_bytes = 40;

Csr<double> sample() {
  return from_triplets(3, 4, {{0, 1, 0.1}, {0, 3, -2.0}, {2, 0, 1e-300}, {2, 2, 1.0 / 3.0}, {2, 3, 5.0}});
}

template <class Field>
void put(std::string& bytes, std::size_t offset, Field value) {
  std::memcpy(&bytes[offset], &value, sizeof value);
}

// Recomputes the trailing CRC-32 so that only the change under test is wrong.
void reseal(std::string& bytes) {
  const auto crc = static_cast<std::uint32_t>(
      crc32(0, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size() - 4)));
  put(bytes, bytes.size() - 4, crc);
}

std::string written_sample(const std::string& name) {
  const std::string path = scratch_path(name);
  write_binary(path, sample());
  return read_bytes(path);
}

TEST(BinaryFormat, LayoutIsHeaderArraysPaddingValuesChecksum) {
  const std::string bytes = written_sample("layout.spmv");
  // 5 non-zeros: row_ptr 4 + col_idx 5 int32 = 36 bytes, padded to 40.
  ASSERT_EQ(bytes.size(), header_bytes + 40 + 5 * 8 + 4);
  EXPECT_EQ(std::memcmp(bytes.data(), "SPMVBIN\0", 8), 0);
  std::uint32_t version = 0, value_type = 0;
  std::int64_t rows = 0, cols = 0, nnz = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  std::memcpy(&value_type, bytes.data() + 12, 4);
  std::memcpy(&rows, bytes.data() + 16, 8);
  std::memcpy(&cols, bytes.data() + 24, 8);
  std::memcpy(&nnz, bytes.data() + 32, 8);
  EXPECT_EQ(version, 1u);
  EXPECT_EQ(value_type, 2u);
  EXPECT_EQ(rows, 3);
  EXPECT_EQ(cols, 4);
  EXPECT_EQ(nnz, 5);
  double first_value = 0;
  std::memcpy(&first_value, bytes.data() + header_bytes + 40, 8);
  EXPECT_EQ(first_value, 0.1);
}

TEST(BinaryFormat, RoundTripsAreIdentical) {
  write_binary(scratch_path("double.spmv"), sample());
  EXPECT_EQ(read_binary<double>(scratch_path("double.spmv")), sample());
  const Csr<float> single = cast<float>(sample());
  write_binary(scratch_path("float.spmv"), single);
  EXPECT_EQ(read_binary<float>(scratch_path("float.spmv")), single);
  for (const ZooMatrix& zoo : matrix_zoo()) {
    const std::string path = scratch_path("zoo_" + zoo.name + ".spmv");
    write_binary(path, zoo.matrix);
    EXPECT_EQ(read_binary<double>(path), zoo.matrix) << zoo.name;
  }
}

TEST(BinaryFormat, StoredValueTypeIsConverted) {
  write_binary(scratch_path("as_double.spmv"), sample());
  EXPECT_EQ(read_binary<float>(scratch_path("as_double.spmv")), cast<float>(sample()));
  const Csr<float> single = cast<float>(sample());
  write_binary(scratch_path("as_float.spmv"), single);
  EXPECT_EQ(read_binary<double>(scratch_path("as_float.spmv")), cast<double>(single));
}

TEST(BinaryFormat, DoubleBeyondFloatRangeIsRefusedForFloat) {
  const std::string path = scratch_path("huge_value.spmv");
  write_binary(path, from_triplets(1, 1, {{0, 0, 1e300}}));
  EXPECT_TRUE(refused_with_parse_error([&] { read_binary<float>(path); }, path, 0, "range of float"));
}

// A copy of the sample with `damage` applied, written as NAME.spmv.
std::string damaged(const std::string& name, const std::function<void(std::string&)>& damage) {
  std::string bytes = written_sample(name + "_original.spmv");
  damage(bytes);
  return write_scratch_file(name + ".spmv", bytes);
}

TEST(BinaryBadInput, EachDamageIsReported) {
  struct Case {
    const char* name;
    std::function<void(std::string&)> damage;
    const char* fragment;
  };
  const Case cases[] = {
      {"empty", [](std::string& b) { b.clear(); }, "too short"},
      {"header_only", [](std::string& b) { b.resize(30); }, "too short"},
      {"magic", [](std::string& b) { b[0] = 'X'; }, "magic"},
      {"text_file", [](std::string& b) { b = "%%MatrixMarket matrix coordinate real general\n1 1 0\n"; }, "magic"},
      {"version", [](std::string& b) { put<std::uint32_t>(b, 8, 7); reseal(b); }, "version 7"},
      {"value_type", [](std::string& b) { put<std::uint32_t>(b, 12, 9); reseal(b); }, "value type code 9"},
      {"negative_rows", [](std::string& b) { put<std::int64_t>(b, 16, -1); reseal(b); }, "negative size"},
      {"truncated", [](std::string& b) { b.resize(b.size() - 9); }, "truncated"},
      {"trailing_data", [](std::string& b) { b += "extra"; }, "trailing data"},
      {"nnz_lie", [](std::string& b) { put<std::int64_t>(b, 32, 6); reseal(b); }, "truncated"},
      {"flipped_value_bit", [](std::string& b) { b[header_bytes + 40 + 3] ^= 0x10; }, "checksum"},
      {"flipped_index_bit", [](std::string& b) { b[header_bytes + 20] ^= 0x01; }, "checksum"},
      {"flipped_checksum", [](std::string& b) { b.back() ^= 0x01; }, "checksum"},
      // Consistent checksum but arrays that are not a canonical Csr.
      {"column_out_of_range", [](std::string& b) { put<std::int32_t>(b, header_bytes + 16, 9); reseal(b); },
       "not a valid canonical CSR"},
      {"row_ptr_decreasing", [](std::string& b) { put<std::int32_t>(b, header_bytes + 4, 4); reseal(b); },
       "not a valid canonical CSR"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = damaged(c.name, c.damage);
    EXPECT_TRUE(refused_with_parse_error([&] { read_binary<double>(path); }, path, 0, c.fragment));
  }
}

// A file whose length and checksum agree with its header, built field by field.
std::string crafted_file(std::int64_t rows, std::int64_t cols, const std::vector<std::int32_t>& row_ptr,
                         const std::vector<std::int32_t>& col_idx, const std::vector<double>& values) {
  std::string bytes(header_bytes, '\0');
  std::memcpy(&bytes[0], "SPMVBIN\0", 8);
  put<std::uint32_t>(bytes, 8, 1);
  put<std::uint32_t>(bytes, 12, 2);
  put<std::int64_t>(bytes, 16, rows);
  put<std::int64_t>(bytes, 24, cols);
  put<std::int64_t>(bytes, 32, static_cast<std::int64_t>(col_idx.size()));
  auto append = [&bytes](const void* data, std::size_t size) { bytes.append(static_cast<const char*>(data), size); };
  append(row_ptr.data(), row_ptr.size() * 4);
  append(col_idx.data(), col_idx.size() * 4);
  bytes.resize((bytes.size() + 7) / 8 * 8, '\0');
  append(values.data(), values.size() * 8);
  bytes.resize(bytes.size() + 4);
  reseal(bytes);
  return bytes;
}

// Found by fuzzing (issue 17): an inner row pointer beyond nnz made
// validate() read past col_idx (heap-buffer-overflow under ASan).
TEST(BinaryBadInput, InnerRowPointerBeyondTheEntriesIsRefused) {
  const std::string path =
      write_scratch_file("inner_row_ptr.spmv", crafted_file(2, 4, {0, 1000, 1}, {0}, {1.0}));
  EXPECT_TRUE(refused_with_parse_error([&] { read_binary<double>(path); }, path, 0, "row_ptr decreases at row 1"));
  const std::string negative =
      write_scratch_file("negative_row_ptr.spmv", crafted_file(2, 4, {0, -7, 1}, {0}, {1.0}));
  EXPECT_TRUE(refused_with_parse_error([&] { read_binary<double>(negative); }, negative, 0, "row_ptr decreases at row 0"));
}

// The reader checks columns in one pass by counting positions where a column
// does not increase and accepting them only where a non-empty row begins.
TEST(BinaryBadInput, ColumnsMustIncreaseWithinRowsOnly) {
  // Rows 1 and 3 empty: the descents at entries 2 and 3 are row starts.
  const std::string accepted =
      write_scratch_file("descents_at_row_starts.spmv", crafted_file(5, 4, {0, 2, 2, 3, 3, 4}, {1, 3, 0, 0}, {1, 2, 3, 4}));
  EXPECT_EQ(read_binary<double>(accepted).col_idx, (std::vector<std::int32_t>{1, 3, 0, 0}));
  const std::string unsorted =
      write_scratch_file("unsorted_row.spmv", crafted_file(2, 4, {0, 1, 3}, {2, 3, 1}, {1, 2, 3}));
  EXPECT_TRUE(refused_with_parse_error([&] { read_binary<double>(unsorted); }, unsorted, 0, "not sorted or repeats"));
  const std::string repeated =
      write_scratch_file("repeated_column.spmv", crafted_file(1, 4, {0, 2}, {2, 2}, {1, 2}));
  EXPECT_TRUE(refused_with_parse_error([&] { read_binary<double>(repeated); }, repeated, 0, "not sorted or repeats"));
  const std::string negative =
      write_scratch_file("negative_column.spmv", crafted_file(1, 4, {0, 2}, {-1, 2}, {1, 2}));
  EXPECT_TRUE(refused_with_parse_error([&] { read_binary<double>(negative); }, negative, 0, "is out of range"));
}

// Arrays longer than one step of the pass (256 KiB): damage in a later step,
// and at the first entry of a step, is found as in the first.
TEST(BinaryBadInput, DamageBeyondTheFirstStepIsFound) {
  const std::int32_t rows = 100000;  // 2 entries per row: col_idx 800 KB
  std::vector<std::int32_t> row_ptr(rows + 1), col_idx(2 * rows);
  std::vector<double> values(2 * rows, 1.0);
  for (std::int32_t r = 0; r <= rows; ++r) row_ptr[r] = 2 * r;
  for (std::int32_t r = 0; r < rows; ++r) {
    col_idx[2 * r] = r % 7;
    col_idx[2 * r + 1] = 7 + r % 5;
  }
  const std::string good = write_scratch_file("long.spmv", crafted_file(rows, 12, row_ptr, col_idx, values));
  EXPECT_EQ(read_binary<double>(good).nnz(), 2 * rows);
  const std::size_t step_entries = (256 << 10) / 4;  // odd: the second entry of row 32768
  struct Damage {
    const char* name;
    std::function<void()> apply;
    const char* fragment;
  };
  const Damage damages[] = {
      {"descent_at_step", [&] { col_idx[step_entries + 1] = 0; }, "not sorted or repeats"},
      {"column_in_third_step", [&] { col_idx[3 * step_entries + 6] = 12; }, "is out of range"},
      {"row_ptr_late", [&] { row_ptr[rows - 3] = row_ptr[rows - 2] + 1; }, "row_ptr decreases"},
      {"nan_late", [&] { values[2 * rows - 1] = std::numeric_limits<double>::quiet_NaN(); }, "not finite"},
  };
  for (const Damage& d : damages) {
    SCOPED_TRACE(d.name);
    const auto saved = std::make_tuple(row_ptr, col_idx, values);
    d.apply();
    const std::string path = write_scratch_file(std::string(d.name) + ".spmv", crafted_file(rows, 12, row_ptr, col_idx, values));
    EXPECT_TRUE(refused_with_parse_error([&] { read_binary<double>(path); }, path, 0, d.fragment));
    std::tie(row_ptr, col_idx, values) = saved;
  }
}

TEST(BinaryBadInput, ColumnsBeyondWhatTheFileJustifiesAreASizeError) {
  const std::string path = write_scratch_file("wide.spmv", crafted_file(1, 2000000000, {0, 0}, {}, {}));
  try {
    read_binary<double>(path);
    ADD_FAILURE() << "accepted 2e9 columns from a 52-byte file";
  } catch (const SizeError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ": column count 2000000000 is more than a file of 52 bytes", 0), 0u)
        << e.what();
  }
  ReadOptions trusted;
  trusted.max_dimension = max_index;
  EXPECT_EQ(read_binary<double>(path, trusted).cols, 2000000000);
}

// Found by fuzzing (issue 17): a NaN stored in a .spmv file was loaded, and
// `spmv bench` then failed its verification (exit 1) instead of refusing it.
TEST(BinaryBadInput, NonFiniteValuesAreRefusedUnlessAllowed) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::string path = write_scratch_file("nan.spmv", crafted_file(2, 2, {0, 1, 2}, {0, 1}, {1.0, nan}));
  EXPECT_TRUE(refused_with_parse_error([&] { read_binary<double>(path); }, path, 0, "value 1 is nan, not finite"));
  EXPECT_TRUE(refused_with_parse_error([&] { read_binary<float>(path); }, path, 0, "not finite"));
  const std::string infinite = write_scratch_file("inf.spmv", crafted_file(1, 1, {0, 1}, {0}, {-inf}));
  EXPECT_TRUE(refused_with_parse_error([&] { read_binary<double>(infinite); }, infinite, 0, "value 0 is -inf"));
  ReadOptions allow;
  allow.allow_nonfinite = true;
  const Csr<double> a = read_binary<double>(path, allow);
  EXPECT_TRUE(std::isnan(a.values[1]));
  EXPECT_EQ(read_binary<double>(infinite, allow).values, std::vector<double>{-inf});
}

TEST(BinaryBadInput, SizesBeyondInt32AreSizeErrors) {
  const std::string path = damaged("rows_too_large", [](std::string& b) {
    put<std::int64_t>(b, 16, std::int64_t{1} << 33);
    reseal(b);
  });
  EXPECT_THROW(read_binary<double>(path), SizeError);
}

TEST(BinaryBadInput, MissingFileAndDirectoryAreIoErrors) {
  const std::string missing = scratch_path("missing.spmv");
  EXPECT_TRUE(refused_with_io_error([&] { read_binary<double>(missing); }, missing));
  const std::string directory = io_scratch_dir();
  EXPECT_TRUE(refused_with_io_error([&] { read_binary<double>(directory); }, directory));
}

TEST(BinaryWrite, MissingDirectoryIsAnIoErrorAndLeavesNoFile) {
  const std::string dir = scratch_path("absent_dir");
  EXPECT_TRUE(refused_with_io_error([&] { write_binary(dir + "/out.spmv", sample()); }, dir + "/out.spmv"));
  EXPECT_FALSE(fs::exists(dir));
}

}  // namespace
}  // namespace spmv::test
