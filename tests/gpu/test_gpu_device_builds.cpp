// The device builds of COO, ELL, ELLPACK-R (with the ELLR-T model's sums),
// HYB, the segmented-scan format, the dense copy and the transpose produce exactly the host
// builders' arrays (src/formats/, the reference), on the zoo and the real
// matrices, f32 and f64; they refuse what the host refuses; and running out
// of device memory part-way is an OutOfMemory that leaks nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuda/coo_device.hpp"
#include "cuda/dense_device.hpp"
#include "cuda/device_build.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/ell_device.hpp"
#include "cuda/ellpack_r_device.hpp"
#include "cuda/segmented_device.hpp"
#include "formats/format_common.hpp"
#include "spmv/formats/coo.hpp"
#include "spmv/formats/dense.hpp"
#include "spmv/formats/ell.hpp"
#include "spmv/formats/ellpack_r.hpp"
#include "spmv/formats/footprint.hpp"
#include "spmv/formats/hyb.hpp"
#include "spmv/formats/segmented.hpp"
#include "spmv/gen.hpp"
#include "spmv/io.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

using detail::CsrView;
using detail::DeviceCsr;

// Runs host() and device(): either both build and `compare` checks them, or
// both refuse with the same error type.
template <class Host, class Device, class Compare>
void expect_same_build(const Host& host, const Device& device, const Compare& compare) {
  std::string host_refusal;
  try {
    auto expected = host();
    try {
      auto built = device();
      compare(expected, built);
    } catch (const FormatLimitError& e) {
      ADD_FAILURE() << "the device build refused what the host built: " << e.what();
    }
  } catch (const FormatLimitError& e) {
    host_refusal = e.what();
    try {
      device();
      ADD_FAILURE() << "the device build accepted what the host refused: " << host_refusal;
    } catch (const FormatLimitError& d) {
      EXPECT_EQ(std::string(d.what()), host_refusal);
    }
  }
}

template <class T>
void expect_device_builds_match(const Csr<T>& a) {
  const DeviceCsr<T> uploaded(a);
  const CsrView<T> view = uploaded.view();
  cudaStream_t stream = nullptr;

  expect_same_build([&] { return ell_from_csr(a); },
                    [&] { return detail::build_ell_on_device(view, default_max_padding, stream); },
                    [&](const Ell<T>& host, const detail::DeviceEll<T>& device) {
                      EXPECT_EQ(device.width, host.width);
                      EXPECT_EQ(device.stride, host.stride);
                      EXPECT_EQ(device.col_idx.to_host(), host.col_idx);
                      EXPECT_EQ(device.values.to_host(), host.values);
                    });
  for (index_t width : {0, 1, 3}) {
    const Ell<T> host = ell_part_from_csr(a, width);
    const detail::DeviceEll<T> device = detail::build_ell_part_on_device(view, width, stream);
    EXPECT_EQ(device.col_idx.to_host(), host.col_idx) << "width " << width;
    EXPECT_EQ(device.values.to_host(), host.values) << "width " << width;
  }

  const std::vector<index_t> lengths = detail::row_lengths(a);
  const EllrtWarpSteps host_steps = ellrt_warp_steps(lengths);
  const detail::DeviceBuffer<index_t> device_lengths = detail::device_row_lengths(view, stream);
  EXPECT_EQ(device_lengths.to_host(), lengths);
  const EllrtWarpSteps device_steps = detail::device_ellrt_warp_steps(device_lengths.data(), a.rows, stream);
  EXPECT_EQ(device_steps.rows, host_steps.rows);
  EXPECT_EQ(device_steps.of_threads_per_row, host_steps.of_threads_per_row);
  for (index_t t : {1, 2, 4, 8, 16, 32}) {
    expect_same_build(
        [&] { return ellpack_r_from_csr(a, {t}); },
        [&] {
          detail::DeviceBuffer<index_t> lengths_for_build = detail::device_row_lengths(view, stream);
          const index_t longest = detail::device_max(lengths_for_build.data(), lengths_for_build.size(), stream);
          return detail::build_ellpack_r_on_device(view, std::move(lengths_for_build), longest, t,
                                                   default_max_padding, stream);
        },
        [&](const EllpackR<T>& host, const detail::DeviceEllpackR<T>& device) {
          EXPECT_EQ(device.stride, host.stride) << "T " << t;
          EXPECT_EQ(device.row_length.to_host(), host.row_length) << "T " << t;
          EXPECT_EQ(device.col_idx.to_host(), host.col_idx) << "T " << t;
          EXPECT_EQ(device.values.to_host(), host.values) << "T " << t;
        });
  }

  const index_t hyb_width = hyb_ell_width(a);
  const detail::DeviceHybWidth device_width = detail::device_hyb_width(view, -1, stream);
  EXPECT_EQ(device_width.width, hyb_width);
  // No row beyond the width only where none is.
  bool longer_row = false;
  for (index_t r = 0; r < a.rows; ++r) longer_row = longer_row || a.row_length(r) > hyb_width;
  if (!device_width.rows_beyond) {
    EXPECT_FALSE(longer_row);
  }
  EXPECT_EQ(detail::device_hyb_tail_layout(view, device_width, stream).nnz,
            detail::device_row_slice_layout(view, hyb_width, max_index, stream).nnz);
  for (index_t skipped : {index_t{0}, hyb_width, index_t{2}}) {
    const Hyb<T> host = hyb_from_csr(a, {skipped, 1e9});
    const detail::DeviceCoo<T> device(
        detail::device_gather_row_slice(view, detail::device_row_slice_layout(view, skipped, max_index, stream),
                                        true, stream),
        GpuShape{});
    EXPECT_EQ(device.row_idx.to_host(), host.coo.row_idx) << "beyond " << skipped;
    EXPECT_EQ(device.col_idx.to_host(), host.coo.col_idx) << "beyond " << skipped;
    EXPECT_EQ(device.values.to_host(), host.coo.values) << "beyond " << skipped;
  }

  const Segmented<T> host_segmented = segmented_from_csr(a);
  const detail::DeviceSegmented<T> device_segmented = detail::build_segmented_on_device(view, stream);
  EXPECT_EQ(device_segmented.head_flags.to_host(), host_segmented.head_flags);
  EXPECT_EQ(device_segmented.row_ptr.to_host(), a.row_ptr);
  EXPECT_EQ(device_segmented.col_idx.to_host(), a.col_idx);
  EXPECT_EQ(device_segmented.values.to_host(), a.values);

  const Csr<T> host_transpose = transpose(a);
  const DeviceCsr<T> device_transpose = detail::transpose_on_device(view, stream);
  EXPECT_EQ(device_transpose.rows, host_transpose.rows);
  EXPECT_EQ(device_transpose.row_ptr.to_host(), host_transpose.row_ptr);
  EXPECT_EQ(device_transpose.col_idx.to_host(), host_transpose.col_idx);
  EXPECT_EQ(device_transpose.values.to_host(), host_transpose.values);

  constexpr std::size_t dense_limit = std::size_t(16) << 20;
  expect_same_build([&] { return dense_from_csr(a, {dense_limit}); },
                    [&] { return detail::build_dense_on_device(view, dense_limit, stream); },
                    [&](const Dense<T>& host, const detail::DeviceBuffer<T>& device) {
                      EXPECT_EQ(device.to_host(), host.values);
                    });
}

TEST(GpuDeviceBuilds, MatchTheHostBuildsF64) {
  SPMV_GPU_TEST_PRELUDE();
  for (const auto& m : test::zoo_and_real_matrices(4'000'000)) {
    SCOPED_TRACE(m.name);
    expect_device_builds_match(cast<double>(m.matrix));
  }
}

TEST(GpuDeviceBuilds, MatchTheHostBuildsF32) {
  SPMV_GPU_TEST_PRELUDE();
  for (const auto& m : test::zoo_and_real_matrices(4'000'000)) {
    SCOPED_TRACE(m.name);
    expect_device_builds_match(cast<float>(m.matrix));
  }
}

TEST(GpuDeviceBuilds, OutOfMemoryPartWayNamesTheBytesAndLeaksNothing) {
  SPMV_GPU_TEST_PRELUDE();
  PlanOptions options;
  options.backend = Backend::cuda;
  const Csr<double> a = gen_stencil_2d_5pt(200, 200);
  const std::size_t before = detail::device_bytes_in_use();
  for (const std::string kernel : {"ell", "ellr-t", "hyb", "coo", "segmented-scan"}) {
    SCOPED_TRACE(kernel);
    options.kernel = kernel;
    // Room for the uploaded CSR and a little more, not for the format.
    const std::size_t csr_size = csr_bytes(a.rows, a.nnz(), sizeof(double));
    const detail::ScopedDeviceMemoryCap cap(csr_size + csr_size / 4);
    try {
      plan(a, options);
      ADD_FAILURE() << "built within a cap too small for the format";
    } catch (const OutOfMemory& e) {
      EXPECT_NE(std::string(e.what()).find("bytes"), std::string::npos) << e.what();
    }
    EXPECT_EQ(detail::device_bytes_in_use(), before);
  }
}

}  // namespace
}  // namespace spmv
