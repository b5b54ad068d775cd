// The device builds of DIA, SELL-C-sigma and Baskaran's blocked format (its
// run-time inspection included) produce exactly the host builders' arrays
// (src/formats/, the reference) on the zoo and the real matrices, f32 and
// f64, for several parameter choices; they refuse what the host refuses,
// with the same error; running out of device memory part-way is an
// OutOfMemory naming the bytes that leaks nothing. One test prints the
// device and host build times on two large stencils (no timing asserts).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "cuda/blocked_device.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/dia_device.hpp"
#include "cuda/format_kernel.hpp"
#include "cuda/sell_device.hpp"
#include "spmv/formats/blocked.hpp"
#include "spmv/formats/dia.hpp"
#include "spmv/formats/sell.hpp"
#include "spmv/gen.hpp"
#include "spmv/io.hpp"
#include "test_stream.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

using detail::CsrView;
using detail::DeviceCsr;

using test::TestStream;

// Element by element, naming the first difference (a full dump of a large
// array would drown the log).
template <class X>
::testing::AssertionResult same_array(const char* device_name, const char* host_name, const std::vector<X>& device,
                                      const std::vector<X>& host) {
  if (device.size() != host.size())
    return ::testing::AssertionFailure() << device_name << " has " << device.size() << " entries, " << host_name
                                         << " " << host.size();
  const auto [d, h] = std::mismatch(device.begin(), device.end(), host.begin());
  if (d == device.end()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << device_name << "[" << (d - device.begin()) << "] = " << +*d << ", "
                                       << host_name << " holds " << +*h;
}
#define EXPECT_SAME_ARRAY(device, host) EXPECT_PRED_FORMAT2(same_array, device, host)

template <class T>
void expect_same(const Dia<T>& device, const Dia<T>& host) {
  EXPECT_EQ(device.rows, host.rows);
  EXPECT_EQ(device.cols, host.cols);
  EXPECT_EQ(device.stride, host.stride);
  EXPECT_EQ(device.nnz, host.nnz);
  EXPECT_SAME_ARRAY(device.offsets, host.offsets);
  EXPECT_SAME_ARRAY(device.values, host.values);
}

template <class T>
void expect_same(const Sell<T>& device, const Sell<T>& host) {
  EXPECT_EQ(device.rows, host.rows);
  EXPECT_EQ(device.cols, host.cols);
  EXPECT_EQ(device.chunk_rows, host.chunk_rows);
  EXPECT_EQ(device.sigma, host.sigma);
  EXPECT_EQ(device.nnz, host.nnz);
  EXPECT_SAME_ARRAY(device.chunk_ptr, host.chunk_ptr);
  EXPECT_SAME_ARRAY(device.row_of, host.row_of);
  EXPECT_SAME_ARRAY(device.row_length, host.row_length);
  EXPECT_SAME_ARRAY(device.col_idx, host.col_idx);
  EXPECT_SAME_ARRAY(device.values, host.values);
}

template <class T>
void expect_same(const Blocked<T>& device, const Blocked<T>& host) {
  EXPECT_EQ(device.rows, host.rows);
  EXPECT_EQ(device.cols, host.cols);
  EXPECT_EQ(device.block_rows, host.block_rows);
  EXPECT_EQ(device.block_cols, host.block_cols);
  EXPECT_EQ(device.nnz, host.nnz);
  EXPECT_SAME_ARRAY(device.row_block_ptr, host.row_block_ptr);
  EXPECT_SAME_ARRAY(device.block_col, host.block_col);
  EXPECT_SAME_ARRAY(device.block_entry_ptr, host.block_entry_ptr);
  EXPECT_SAME_ARRAY(device.row_units, host.row_units);
  EXPECT_SAME_ARRAY(device.col_offset, host.col_offset);
  EXPECT_SAME_ARRAY(device.values, host.values);
}

// "spmv::FormatLimitError: DIA would need ..." (empty when nothing was thrown).
template <class Build>
std::string error_of(const Build& build) {
  try {
    build();
    return {};
  } catch (const Error& e) {
    return std::string(typeid(e).name()) + ": " + e.what();
  }
}

// Builds on the host and on the device: both build the same arrays, or both
// refuse with the same error type and message.
template <class Host, class Device>
void expect_same_build(const Host& host, const Device& device, const TestStream& stream) {
  std::optional<decltype(host())> expected;
  const std::string host_error = error_of([&] { expected.emplace(host()); });
  std::optional<decltype(detail::download(device()))> built;
  const std::string device_error = error_of([&] {
    const auto on_device = device();
    stream.synchronize();
    built.emplace(detail::download(on_device));
  });
  EXPECT_EQ(device_error, host_error);
  if (expected && built) expect_same(*built, *expected);
}

template <class T>
void expect_device_builds_match(const Csr<T>& a, bool small) {
  const TestStream stream;
  const DeviceCsr<T> uploaded(a);
  const CsrView<T> view = uploaded.view();
  // Larger limits (small matrices only: the host arrays grow with them) let
  // more matrices through the refusal to the fill.
  const std::vector<double> paddings = small ? std::vector<double>{default_max_padding, 40.0}
                                             : std::vector<double>{default_max_padding};

  // The device build collects the diagonals in a set sized by the most the
  // limit accepts: a limit that takes exactly this matrix's diagonals, and
  // the next limit below it, which takes one fewer and refuses it.
  std::vector<double> dia_paddings = paddings;
  const double dia_ratio = dia_footprint(a).padding_ratio();
  if (dia_ratio >= 1 && dia_ratio <= paddings.back())
    dia_paddings.insert(dia_paddings.end(), {dia_ratio, std::nextafter(dia_ratio, 0.0)});
  for (double max_padding : dia_paddings) {
    SCOPED_TRACE("max_padding " + std::to_string(max_padding));
    expect_same_build([&] { return dia_from_csr(a, {max_padding}); },
                      [&] { return detail::build_dia_on_device(view, {max_padding}, stream.get()); }, stream);
  }

  // C = 1 and 3: chunks of one row and of an odd count; sigma = 1: no sorting;
  // sigma past the row count: one window; sigma 300, 600 and 2048: windows
  // sorted by blocks of 2, 4 and 8 keys a thread, 4096 by CUB's segmented
  // sort; bad options: refused alike.
  const std::vector<std::pair<index_t, index_t>> sell_shapes{
      {32, 256}, {32, 1}, {1, 1}, {3, 9}, {8, 64}, {4, 300}, {8, 600}, {32, 2048}, {128, 4096}, {16, 20}, {0, 1}};
  for (const auto& [chunk_rows, sigma] : sell_shapes)
    for (double max_padding : paddings) {
      SCOPED_TRACE("SELL-" + std::to_string(chunk_rows) + "-" + std::to_string(sigma) + " max_padding " +
                   std::to_string(max_padding));
      const SellOptions options{chunk_rows, sigma, max_padding};
      expect_same_build([&] { return sell_from_csr(a, options); },
                        [&] { return detail::build_sell_on_device(view, options, stream.get()); }, stream);
    }

  // b_r up to the kernel's 8, odd ones too; b_c from a half-warp to 1024; bad options.
  const std::vector<std::pair<index_t, index_t>> block_shapes{{4, 64}, {1, 16},  {2, 128}, {8, 1024},
                                                              {3, 48}, {8, 16},  {0, 64},  {4, 40}};
  for (const auto& [block_rows, block_cols] : block_shapes)
    for (double max_padding : paddings) {
      SCOPED_TRACE("blocked " + std::to_string(block_rows) + "x" + std::to_string(block_cols) + " max_padding " +
                   std::to_string(max_padding));
      const BlockedOptions options{block_rows, block_cols, max_padding};
      expect_same_build([&] { return blocked_from_csr(a, options); },
                        [&] { return detail::build_blocked_on_device(view, options, stream.get()); }, stream);
      if (block_rows < 1 || block_cols % blocked_alignment) continue;
      // The inspection alone gives the footprint's counts.
      const FormatFootprint host = blocked_footprint(a, options);
      const detail::DeviceBlockedInspection device = detail::inspect_blocked_on_device(view, options, stream.get());
      EXPECT_EQ(device.stored_entries, host.stored_entries);
    }
}

TEST(GpuBuildDiaSellBlocked, MatchTheHostBuildsF64) {
  SPMV_GPU_TEST_PRELUDE();
  for (const auto& m : test::zoo_and_real_matrices(4'000'000)) {
    SCOPED_TRACE(m.name);
    expect_device_builds_match(cast<double>(m.matrix), m.matrix.nnz() < 100'000);
  }
}

TEST(GpuBuildDiaSellBlocked, MatchTheHostBuildsF32) {
  SPMV_GPU_TEST_PRELUDE();
  for (const auto& m : test::zoo_and_real_matrices(4'000'000)) {
    SCOPED_TRACE(m.name);
    expect_device_builds_match(cast<float>(m.matrix), m.matrix.nnz() < 100'000);
  }
}

TEST(GpuBuildDiaSellBlocked, BlockRowsPastTheKernelsAreRefusedOnTheDevice) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = gen_stencil_2d_5pt(30, 30);
  const DeviceCsr<double> uploaded(a);
  EXPECT_THROW(detail::build_blocked_on_device(uploaded.view(), {16, 64, 100.0}, nullptr), InvalidArgument);
}

TEST(GpuBuildDiaSellBlocked, OutOfMemoryPartWayNamesTheBytesAndLeaksNothing) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = gen_stencil_2d_5pt(200, 200);
  const DeviceCsr<double> uploaded(a);
  const CsrView<double> view = uploaded.view();
  const std::size_t before = detail::device_bytes_in_use();
  const std::vector<std::pair<std::string, std::function<void()>>> builds{
      {"dia", [&] { detail::build_dia_on_device(view, {}, nullptr); }},
      {"sell", [&] { detail::build_sell_on_device(view, {}, nullptr); }},
      {"blocked", [&] { detail::build_blocked_on_device(view, {4, 64, 100.0}, nullptr); }}};
  for (const auto& [name, build] : builds) {
    SCOPED_TRACE(name);
    // Room for a few of the build's temporaries, not for the format (DIA's
    // values alone take 1.6 MB).
    for (std::size_t cap : {std::size_t(0), std::size_t(700) << 10, std::size_t(1536) << 10}) {
      const detail::ScopedDeviceMemoryCap capped(before + cap);
      try {
        build();
        ADD_FAILURE() << "built within a cap of " << cap << " bytes";
      } catch (const OutOfMemory& e) {
        EXPECT_NE(std::string(e.what()).find("bytes"), std::string::npos) << e.what();
      }
      EXPECT_EQ(detail::device_bytes_in_use(), before) << "cap " << cap;
    }
  }
}

}  // namespace
}  // namespace spmv
