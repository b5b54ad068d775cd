// Plans of a CSR handed over on the device (DeviceCsrView): the same
// statistics and choice as the same matrix on the host, the same operator
// for every kernel, bad arrays refused with validate()'s messages, and the
// arrays free to change once the operator is built (it keeps a copy).
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "spmv/gen.hpp"
#include "spmv/plan.hpp"
#include "test_support.hpp"

#ifdef SPMV_HAVE_CUDA
#include <cuda_runtime.h>

#include "cuda/device_buffer.hpp"

namespace spmv {
namespace {

using test::invalid_argument_of;

// A host Csr's arrays on the device, as a caller would hold them.
template <class T>
struct DeviceArrays {
  explicit DeviceArrays(const Csr<T>& a)
      : rows(a.rows),
        cols(a.cols),
        row_ptr(a.row_ptr, "test row_ptr"),
        col_idx(a.col_idx, "test col_idx"),
        values(a.values, "test values") {}
  DeviceCsrView<T> view() const {
    return {rows, cols, static_cast<index_t>(col_idx.size()), row_ptr.data(), col_idx.data(), values.data()};
  }

  index_t rows, cols;
  detail::DeviceBuffer<index_t> row_ptr, col_idx;
  detail::DeviceBuffer<T> values;
};

template <class T>
void expect_products_correct(Operator<T>& op, const Csr<T>& a, bool transposed_too) {
  const std::vector<T> x = test::random_vector<T>(static_cast<std::size_t>(a.cols), 3);
  const std::vector<T> y0 = test::random_vector<T>(static_cast<std::size_t>(a.rows), 4);
  std::vector<T> y = y0;
  op.apply(x.data(), y.data(), T(2), T(0.5));
  EXPECT_TRUE(test::matches_reference_spmv(a, x, y0, T(2), T(0.5), y));
  if (!transposed_too) return;
  const std::vector<T> xt = test::random_vector<T>(static_cast<std::size_t>(a.rows), 5);
  std::vector<T> yt(static_cast<std::size_t>(a.cols), T(0));
  op.apply_transposed(xt.data(), yt.data(), T(1), T(0));
  EXPECT_TRUE(test::matches_reference_spmv_transposed(a, xt, {}, T(1), T(0), yt));
}

std::vector<test::ZooMatrix> plan_matrices() {
  std::vector<test::ZooMatrix> matrices = test::zoo_and_real_matrices(2'000'000);
  // Large enough that the analysis samples rows and entries.
  for (const char* spec :
       {"stencil27:n=60", "rmat:scale=17,edge_factor=8", "uniform:rows=300000,cols=300000,per_row=5",
        "fewhuge:rows=300000,cols=300000,per_row=3,huge_rows=3,huge_length=50000"})
    matrices.push_back({spec, generate(parse_generator_spec(spec))});
  return matrices;
}

template <class T>
void expect_device_plan_is_host_plan(const Csr<T>& a, const std::string& name) {
  SCOPED_TRACE(name + (sizeof(T) == 4 ? " f32" : " f64"));
  const DeviceArrays<T> on_device(a);
  PlanOptions options;
  options.backend = Backend::cuda;
  const Plan host = make_plan(a, options), device = make_plan(on_device.view(), options);
  EXPECT_EQ(device.tuning, host.tuning);
  EXPECT_EQ(to_string(device.options.backend), to_string(host.options.backend));
  EXPECT_EQ(device.options.kernel, host.options.kernel) << host.reason << "\n" << device.reason;
  EXPECT_EQ(device.features, host.features);
  ASSERT_EQ(device.candidates.size(), host.candidates.size());
  for (std::size_t i = 0; i < host.candidates.size(); ++i) {
    EXPECT_EQ(device.candidates[i].kernel, host.candidates[i].kernel);
    EXPECT_EQ(device.candidates[i].predicted_cost_seconds, host.candidates[i].predicted_cost_seconds);
  }
  const auto op = make_operator(device, on_device.view());
  EXPECT_EQ(op->describe().kernel, make_operator(host, a)->describe().kernel);
  expect_products_correct(*op, a, true);
}

TEST(GpuDeviceCsr, ThePlanOfTheMatrixOnTheDeviceIsThePlanOfItOnTheHost) {
  SPMV_GPU_TEST_PRELUDE();
  for (const test::ZooMatrix& m : plan_matrices()) {
    expect_device_plan_is_host_plan(m.matrix, m.name);
    expect_device_plan_is_host_plan(cast<float>(m.matrix), m.name);
  }
}

// Every kernel of the cuda and cusparse backends, named, builds from the
// device copy what it builds from the upload (or refuses as it does).
TEST(GpuDeviceCsr, EveryKernelBuildsTheSameOperatorFromTheDevice) {
  SPMV_GPU_TEST_PRELUDE();
  const std::vector<Csr<double>> matrices = {gen_stencil_3d(20, 20, 20, 27),
                                             generate(parse_generator_spec("rmat:scale=12,edge_factor=8"))};
  for (const Csr<double>& a : matrices) {
    const DeviceArrays<double> on_device(a);
    for (const KernelInfo& info : kernel_catalogue()) {
      if (info.backend != Backend::cuda && info.backend != Backend::cusparse) continue;
      SCOPED_TRACE(info.name + " on " + std::to_string(a.rows) + " rows");
      PlanOptions options;
      options.backend = info.backend;
      options.kernel = info.name;
      std::unique_ptr<Operator<double>> from_host, from_device;
      bool host_refused = false, device_refused = false;
      try {
        from_host = plan(a, options);
      } catch (const FormatLimitError&) {
        host_refused = true;
      }
      try {
        from_device = plan(on_device.view(), options);
      } catch (const FormatLimitError&) {
        device_refused = true;
      }
      ASSERT_EQ(device_refused, host_refused);
      if (host_refused) continue;
      const OperatorDescription h = from_host->describe(), d = from_device->describe();
      EXPECT_EQ(d.kernel, h.kernel);
      EXPECT_EQ(d.format, h.format);
      EXPECT_EQ(d.params, h.params);
      EXPECT_EQ(d.device_bytes, h.device_bytes);
      EXPECT_EQ(d.matrix_bytes, h.matrix_bytes);
      expect_products_correct(*from_device, a, !info.spmm_only);
      const index_t k = 4;
      const std::vector<double> b = test::random_vector<double>(static_cast<std::size_t>(a.cols) * k, 6);
      std::vector<double> c(static_cast<std::size_t>(a.rows) * k, 0.0);
      try {
        from_device->spmm(b.data(), c.data(), k, Layout::row_major, 1.0, 0.0);
      } catch (const Unavailable&) {
        continue;  // an SpMM algorithm that refuses the layout (cuSPARSE's): so does the host-planned one
      }
      EXPECT_TRUE(test::matches_reference_spmm(a, b, {}, k, Layout::row_major, 1.0, 0.0, c));
    }
  }
}

// Deterministic mode and the explicit transpose build A^T on the device for
// either input: the device-planned operator gives the host-planned one's bits.
TEST(GpuDeviceCsr, TransposesAreTheHostPlansBitForBit) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = generate(parse_generator_spec("rmat:scale=13,edge_factor=8"));
  const DeviceArrays<double> on_device(a);
  const std::vector<double> x = test::random_vector<double>(static_cast<std::size_t>(a.rows), 8);
  for (const bool deterministic : {true, false}) {
    for (const char* kernel : {"csr-adaptive", "hyb", "cusparse-csr-alg2"}) {
      SCOPED_TRACE(std::string(kernel) + (deterministic ? " deterministic" : " explicit transpose"));
      PlanOptions options;
      options.backend = std::string(kernel).rfind("cusparse", 0) == 0 ? Backend::cusparse : Backend::cuda;
      options.kernel = kernel;
      options.deterministic = deterministic;
      options.explicit_transpose = !deterministic;
      const auto from_host = plan(a, options), from_device = plan(on_device.view(), options);
      std::vector<double> y_host(static_cast<std::size_t>(a.cols)), y_device(y_host.size());
      from_host->apply_transposed(x.data(), y_host.data());
      from_device->apply_transposed(x.data(), y_device.data());
      EXPECT_EQ(y_device, y_host);
      EXPECT_TRUE(test::matches_reference_spmv_transposed(a, x, {}, 1.0, 0.0, y_device));
    }
  }
}

// The operator keeps a copy: the caller's arrays may change or go.
TEST(GpuDeviceCsr, TheOperatorKeepsACopyOfTheArrays) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = gen_stencil_3d(30, 30, 30, 7);
  PlanOptions options;
  options.backend = Backend::cuda;
  for (const char* kernel : {"", "csr-vector", "bro-ell"}) {
    options.kernel = kernel;
    DeviceArrays<double> arrays(a);
    const auto op = plan(arrays.view(), options);
    arrays.values.set_zero();
    expect_products_correct(*op, a, true);
  }
}

// Bad arrays: refused before anything is built, naming what is wrong; bad
// columns with the message validate() gives the same matrix on the host.
TEST(GpuDeviceCsr, BadArraysAreRefusedWithTheirReason) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> good = gen_stencil_3d(20, 20, 20, 27);
  PlanOptions options;
  options.backend = Backend::cuda;
  const DeviceArrays<double> arrays(good);

  DeviceCsrView<double> on_host = arrays.view();
  on_host.values = good.values.data();
  EXPECT_NE(invalid_argument_of([&] { make_plan(on_host, options); }).find("values is host memory"), std::string::npos);
  DeviceCsrView<double> no_columns = arrays.view();
  no_columns.col_idx = nullptr;
  EXPECT_NE(invalid_argument_of([&] { make_plan(no_columns, options); }).find("col_idx is null"), std::string::npos);
  DeviceCsrView<double> fewer = arrays.view();
  fewer.nnz -= 1;
  EXPECT_NE(invalid_argument_of([&] { make_plan(fewer, options); }).find("not nnz"), std::string::npos);

  Csr<double> decreasing = good;
  std::swap(decreasing.row_ptr[100], decreasing.row_ptr[101]);
  EXPECT_EQ(invalid_argument_of([&] { plan(DeviceArrays<double>(decreasing).view(), options); }),
            invalid_argument_of([&] { validate(decreasing); }));
  for (const index_t bad_column : {good.cols, index_t{-1}}) {
    Csr<double> bad = good;
    bad.col_idx[bad.row_ptr[777] + 3] = bad_column;
    const DeviceArrays<double> bad_arrays(bad);
    const std::string expected = invalid_argument_of([&] { validate(bad); });
    EXPECT_EQ(invalid_argument_of([&] { plan(bad_arrays.view(), options); }), expected);
    const Plan p = make_plan(good, options);  // make_operator checks its matrix too
    EXPECT_EQ(invalid_argument_of([&] { make_operator(p, bad_arrays.view()); }), expected);
  }
  Csr<double> repeated = good;
  repeated.col_idx[repeated.row_ptr[500] + 1] = repeated.col_idx[repeated.row_ptr[500]];
  EXPECT_EQ(invalid_argument_of([&] { plan(DeviceArrays<double>(repeated).view(), options); }),
            invalid_argument_of([&] { validate(repeated); }));

  options.backend = Backend::cpu;
  EXPECT_NE(invalid_argument_of([&] { make_plan(arrays.view(), options); }).find("cuda or cusparse backend"),
            std::string::npos);
  options.backend = Backend::cuda;
  options.reordering = Reordering::rcm;
  EXPECT_NE(invalid_argument_of([&] { make_plan(arrays.view(), options); }).find("cannot be reordered"),
            std::string::npos);
}

// The measure mode times the matrix on the device, and finds it in its
// cache the next time (keyed by what the analysis read).
TEST(GpuDeviceCsr, MeasureModeCachesTheMatrixOnTheDevice) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = gen_stencil_3d(40, 40, 40, 27);
  const DeviceArrays<double> on_device(a);
  PlanOptions options;
  options.backend = Backend::cuda;
  options.tuning = Tuning::measure;
  options.plan_cache = test::temp_dir() + "/device-plans.jsonl";
  const Plan measured = make_plan(on_device.view(), options);
  ASSERT_EQ(measured.tuning, "measured") << measured.reason;
  EXPECT_EQ(measured.reason.find("upload"), std::string::npos) << measured.reason;  // built from the caller's arrays
  const Plan cached = make_plan(on_device.view(), options);
  EXPECT_EQ(cached.tuning, "cached") << cached.reason;
  EXPECT_EQ(cached.options.kernel, measured.options.kernel);
  expect_products_correct(*make_operator(cached, on_device.view()), a, false);
  // Another matrix of the same rows is not taken for it.
  const Csr<double> b = gen_stencil_3d(40, 40, 40, 7);
  const DeviceArrays<double> b_on_device(b);
  EXPECT_EQ(make_plan(b_on_device.view(), options).tuning, "measured");
}

}  // namespace
}  // namespace spmv
#endif
