// The device builds of BRO-ELL, BRO-COO and BRO-HYB produce exactly the host
// builders' arrays (src/formats/bro_*.cpp, the reference: widths, symbols,
// offsets, values, value tables and codes, and every scalar field) on the
// zoo and the real matrices, f32 and f64, for several slice heights,
// threads per row, value-code choices, intervals and ELL widths; they refuse
// what the host refuses, with the same message; and running out of device
// memory part-way is an OutOfMemory that leaks nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuda/bro_coo_device.hpp"
#include "cuda/bro_ell_device.hpp"
#include "cuda/bro_hyb_device.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_csr.hpp"
#include "spmv/formats/bro_coo.hpp"
#include "spmv/formats/bro_ell.hpp"
#include "spmv/formats/bro_hyb.hpp"
#include "spmv/gen.hpp"
#include "spmv/io.hpp"
#include "spmv/operator.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

using detail::CsrView;
using detail::DeviceCsr;

constexpr double no_padding_limit = std::numeric_limits<double>::infinity();

// Values compared by their bits (-0.0 is not 0.0 here).
template <class T>
std::vector<std::uint64_t> bits_of(const std::vector<T>& values) {
  std::vector<std::uint64_t> bits(values.size(), 0);
  for (std::size_t i = 0; i < values.size(); ++i) std::memcpy(&bits[i], &values[i], sizeof(T));
  return bits;
}

// How many builds were compared and how many both sides refused.
struct BuildCount {
  int compared = 0;
  int refused = 0;
};

// Runs host() and device(): either both build and `compare` checks them, or
// both refuse with the same error type and message.
template <class Host, class Device, class Compare>
void expect_same_build(const Host& host, const Device& device, const Compare& compare, BuildCount& count) {
  try {
    auto expected = host();
    try {
      auto built = device();
      SPMV_CUDA_CHECK(cudaDeviceSynchronize());
      compare(expected, built);
      ++count.compared;
    } catch (const Error& e) {
      ADD_FAILURE() << "the device build refused what the host built: " << e.what();
    }
  } catch (const FormatLimitError& host_refusal) {
    try {
      device();
      ADD_FAILURE() << "the device build accepted what the host refused: " << host_refusal.what();
    } catch (const FormatLimitError& device_refusal) {
      EXPECT_EQ(std::string(device_refusal.what()), std::string(host_refusal.what()));
      ++count.refused;
    }
  }
}

struct BroBuildCounts {
  BuildCount ell;
  BuildCount coo;
  BuildCount hyb;
};

template <class T>
void expect_same_bro_ell(const BroEll<T>& host, const detail::DeviceBroEll<T>& device) {
  const detail::BroEllShape& shape = device.shape;
  EXPECT_EQ(shape.rows, host.rows);
  EXPECT_EQ(shape.cols, host.cols);
  EXPECT_EQ(shape.nnz, host.nnz);
  EXPECT_EQ(shape.longest_row, host.longest_row);
  EXPECT_EQ(shape.slice_height, host.slice_height);
  EXPECT_EQ(device.threads_per_row, host.threads_per_row);
  EXPECT_EQ(shape.slices, host.slices());
  EXPECT_EQ(shape.value_codes, host.uses_value_codes());
  EXPECT_EQ(device.value_code_bits, host.value_code_bits);
  EXPECT_EQ(device.width_offset.to_host(), host.width_offset);
  EXPECT_EQ(device.widths.to_host(), host.widths);
  EXPECT_EQ(device.symbol_offset.to_host(), host.symbol_offset);
  EXPECT_EQ(device.symbols.to_host(), host.symbols);
  EXPECT_EQ(bits_of(device.values.to_host()), bits_of(host.values));
  EXPECT_EQ(bits_of(device.value_table.to_host()), bits_of(host.value_table));
  EXPECT_EQ(device.code_symbol_offset.to_host(), host.code_symbol_offset);
  EXPECT_EQ(device.code_symbols.to_host(), host.code_symbols);
  // The shape the kernel reports from equals the host struct's.
  const detail::BroEllShape host_shape = detail::bro_ell_shape(host);
  EXPECT_EQ(shape.slice_columns, host_shape.slice_columns);
  EXPECT_EQ(shape.symbols, host_shape.symbols);
  EXPECT_EQ(shape.code_symbols, host_shape.code_symbols);
  EXPECT_EQ(shape.table_entries, host_shape.table_entries);
}

template <class T>
void expect_same_bro_coo(const BroCoo<T>& host, const detail::DeviceBroCoo<T>& device) {
  EXPECT_EQ(device.rows, host.rows);
  EXPECT_EQ(device.cols, host.cols);
  EXPECT_EQ(device.interval, host.interval);
  EXPECT_EQ(device.warps, host.intervals());
  EXPECT_EQ(device.base_row.to_host(), host.base_row);
  EXPECT_EQ(device.symbol_offset.to_host(), host.symbol_offset);
  EXPECT_EQ(device.widths.to_host(), host.widths);
  EXPECT_EQ(device.symbols.to_host(), host.symbols);
  EXPECT_EQ(device.col_idx.to_host(), host.col_idx);
  EXPECT_EQ(bits_of(device.values.to_host()), bits_of(host.values));
  EXPECT_EQ(device.carry_row.size(), static_cast<std::size_t>(host.intervals()));
}

std::string describe(const BroEllOptions& o) {
  return "slice_height " + std::to_string(o.slice_height) + " threads_per_row " + std::to_string(o.threads_per_row) +
         " value_codes " + std::to_string(static_cast<int>(o.value_codes)) + " max_padding " +
         std::to_string(o.max_padding);
}

std::vector<BroEllOptions> bro_ell_variants() {
  return {{256, 1, BroValueCodes::when_smaller, default_max_padding},
          {32, 1, BroValueCodes::never, no_padding_limit},
          {64, 4, BroValueCodes::always, no_padding_limit},
          {128, 2, BroValueCodes::when_smaller, no_padding_limit},
          {1024, 32, BroValueCodes::when_smaller, default_max_padding},
          {512, 8, BroValueCodes::always, default_max_padding}};
}

template <class T>
void expect_bro_builds_match(const Csr<T>& a, BroBuildCounts& counts) {
  const DeviceCsr<T> uploaded(a);
  const CsrView<T> view = uploaded.view();
  cudaStream_t stream = nullptr;

  for (const BroEllOptions& options : bro_ell_variants()) {
    SCOPED_TRACE(describe(options));
    expect_same_build([&] { return bro_ell_from_csr(a, options); },
                      [&] { return detail::build_bro_ell_on_device(view, options, stream); },
                      [&](const BroEll<T>& host, const detail::DeviceBroEll<T>& device) {
                        expect_same_bro_ell(host, device);
                      },
                      counts.ell);
  }
  for (index_t interval : {32, 64, 1024, 4096}) {
    SCOPED_TRACE("interval " + std::to_string(interval));
    const BroCoo<T> host = bro_coo_from_csr(a, {interval});
    const detail::DeviceBroCoo<T> device = detail::build_bro_coo_on_device(view, {interval}, stream);
    expect_same_bro_coo(host, device);
    ++counts.coo.compared;
  }
  for (index_t ell_width : {-1, 0, 3}) {
    for (const BroEllOptions& ell : {bro_ell_variants()[0], bro_ell_variants()[2]}) {
      for (index_t interval : {32, 1024}) {
        SCOPED_TRACE("ell_width " + std::to_string(ell_width) + " interval " + std::to_string(interval) + " " +
                     describe(ell));
        const BroHybOptions options{ell_width, ell, {interval}};
        expect_same_build([&] { return bro_hyb_from_csr(a, options); },
                          [&] { return detail::build_bro_hyb_on_device(view, options, stream); },
                          [&](const BroHyb<T>& host, const detail::DeviceBroHyb<T>& device) {
                            expect_same_bro_ell(host.ell, device.ell);
                            expect_same_bro_coo(host.coo, device.coo);
                          },
                          counts.hyb);
      }
    }
  }
}

void print_counts(const char* type, std::size_t matrices, const BroBuildCounts& counts) {
  std::printf("%s, %zu matrices (%zu of the zoo): identical builds bro-ell %d (both refused %d), bro-coo %d, "
              "bro-hyb %d (both refused %d)\n",
              type, matrices, test::matrix_zoo().size(), counts.ell.compared, counts.ell.refused, counts.coo.compared,
              counts.hyb.compared, counts.hyb.refused);
}

TEST(GpuBroBuilds, MatchTheHostBuildsF64) {
  SPMV_GPU_TEST_PRELUDE();
  const std::vector<test::ZooMatrix> matrices = test::zoo_and_real_matrices(4'000'000);
  BroBuildCounts counts;
  for (const auto& m : matrices) {
    SCOPED_TRACE(m.name);
    expect_bro_builds_match(cast<double>(m.matrix), counts);
  }
  print_counts("f64", matrices.size(), counts);
}

TEST(GpuBroBuilds, MatchTheHostBuildsF32) {
  SPMV_GPU_TEST_PRELUDE();
  const std::vector<test::ZooMatrix> matrices = test::zoo_and_real_matrices(4'000'000);
  BroBuildCounts counts;
  for (const auto& m : matrices) {
    SCOPED_TRACE(m.name);
    expect_bro_builds_match(cast<float>(m.matrix), counts);
  }
  print_counts("f32", matrices.size(), counts);
}

TEST(GpuBroBuilds, RefuseBadOptionsAsTheHostDoes) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = gen_stencil_2d_5pt(20, 20);
  const DeviceCsr<double> uploaded(a);
  const BroEllOptions bad_height{48, 1, BroValueCodes::never, default_max_padding};
  const BroEllOptions bad_threads{64, 3, BroValueCodes::never, default_max_padding};
  for (const BroEllOptions& options : {bad_height, bad_threads}) {
    EXPECT_THROW(bro_ell_from_csr(a, options), InvalidArgument);
    EXPECT_THROW(detail::build_bro_ell_on_device(uploaded.view(), options, nullptr), InvalidArgument);
  }
  EXPECT_THROW(bro_coo_from_csr(a, {48}), InvalidArgument);
  EXPECT_THROW(detail::build_bro_coo_on_device(uploaded.view(), {48}, nullptr), InvalidArgument);
}

TEST(GpuBroBuilds, OutOfMemoryPartWayNamesTheBytesAndLeaksNothing) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = gen_stencil_2d_5pt(200, 200);
  const DeviceCsr<double> uploaded(a);
  const std::size_t csr_bytes = uploaded.bytes();
  const std::size_t before = detail::device_bytes_in_use();
  // Room for a little more than the CSR again: too little for any of the builds.
  const std::vector<std::pair<std::string, std::function<void()>>> builds{
      {"bro-ell", [&] { detail::build_bro_ell_on_device(uploaded.view(), {256, 1, BroValueCodes::always}, nullptr); }},
      {"bro-coo", [&] { detail::build_bro_coo_on_device(uploaded.view(), {1024}, nullptr); }},
      {"bro-hyb", [&] { detail::build_bro_hyb_on_device(uploaded.view(), {}, nullptr); }}};
  for (const auto& [name, build] : builds) {
    SCOPED_TRACE(name);
    {
      const detail::ScopedDeviceMemoryCap cap(before + csr_bytes / 4);
      try {
        build();
        ADD_FAILURE() << "built within a cap too small for the format";
      } catch (const OutOfMemory& e) {
        EXPECT_NE(std::string(e.what()).find("bytes"), std::string::npos) << e.what();
      }
    }
    EXPECT_EQ(detail::device_bytes_in_use(), before);
  }
  // Through plan(): room for the upload and a quarter more, too little for
  // the CSR the operator keeps and the format beside it (BRO-HYB copies no
  // part of this matrix, whose rows all fit its ELL part).
  PlanOptions options;
  options.backend = Backend::cuda;
  for (const std::string kernel : {"bro-ell", "bro-coo", "bro-hyb"}) {
    SCOPED_TRACE(kernel);
    options.kernel = kernel;
    const detail::ScopedDeviceMemoryCap cap(before + csr_bytes + csr_bytes / 4);
    EXPECT_THROW(plan(a, options), OutOfMemory);
    EXPECT_EQ(detail::device_bytes_in_use(), before);
  }
}

// A matrix whose values run, in a scrambled order, through `distinct` bit
// patterns, each at least twice: among them the all-ones pattern (a NaN),
// -0.0 and 0.0. Rows of varying lengths, columns increasing.
template <class T>
Csr<T> matrix_of_distinct_values(std::size_t distinct) {
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  Csr<T> a;
  a.rows = a.cols = 1000;
  const auto per_row = static_cast<index_t>(3 * distinct / a.rows + 2);
  for (index_t r = 0; r < a.rows; ++r) {
    for (index_t k = 0; k < per_row - r % 3; ++k) {
      a.col_idx.push_back(4 * k + r % 4);
      const std::size_t which = a.values.size() * 7919 % distinct;  // 7919: a prime not dividing `distinct`
      Bits bits = which == 0 ? ~Bits(0) : which == 1 ? Bits(1) << (8 * sizeof(Bits) - 1) : 0;
      if (which > 2) {
        const T value = static_cast<T>(which);
        std::memcpy(&bits, &value, sizeof value);
      }
      T value;
      std::memcpy(&value, &bits, sizeof value);
      a.values.push_back(value);
    }
    a.row_ptr.push_back(a.nnz());
  }
  return a;
}

// Value codes at and just past the table's limits (when_smaller's bytes and
// always' entries): the same tables, codes and refusals as on the host.
template <class T>
void expect_value_codes_match_at_the_limits() {
  BuildCount count;
  for (const BroValueCodes codes : {BroValueCodes::when_smaller, BroValueCodes::always}) {
    const std::size_t limit = codes == BroValueCodes::always ? bro_max_value_table_entries
                                                             : bro_default_value_table_max_bytes / sizeof(T);
    for (const std::size_t distinct : {limit - 1, limit, limit + 1}) {
      SCOPED_TRACE("value_codes " + std::to_string(static_cast<int>(codes)) + ", " + std::to_string(distinct) +
                   " distinct values");
      const Csr<T> a = matrix_of_distinct_values<T>(distinct);
      const DeviceCsr<T> uploaded(a);
      const BroEllOptions options{128, 2, codes, no_padding_limit};
      expect_same_build([&] { return bro_ell_from_csr(a, options); },
                        [&] { return detail::build_bro_ell_on_device(uploaded.view(), options, nullptr); },
                        [&](const BroEll<T>& host, const detail::DeviceBroEll<T>& device) {
                          EXPECT_EQ(host.uses_value_codes(), distinct <= limit);
                          expect_same_bro_ell(host, device);
                        },
                        count);
    }
  }
  EXPECT_EQ(count.compared, 5);  // always refuses limit + 1
}

TEST(GpuBroBuilds, ValueCodesMatchTheHostAtTheTableLimits) {
  SPMV_GPU_TEST_PRELUDE();
  expect_value_codes_match_at_the_limits<double>();
  expect_value_codes_match_at_the_limits<float>();
}

}  // namespace
}  // namespace spmv
