// Deterministic mode on the GPU: every kernel of the cuda and cusparse
// backends that the catalogue marks deterministic, planned with
// PlanOptions::deterministic on an R-MAT and a 27-point stencil matrix, in
// f32 and f64. Each product (apply, apply_transposed, spmm with k = 5 in both
// layouts) runs three times from the same device operands, twice on one
// non-blocking stream and once on another: the three results must be the
// same bits (memcmp) and match the reference. Kernels not marked are refused
// by plan() in that mode. Prints how often the atomic transposed product
// (deterministic mode off) differed between runs, for the record.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <iostream>
#include <set>

#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/operator.hpp"
#include "test_support.hpp"

#ifdef SPMV_HAVE_CUDA
#include "cuda/device_buffer.hpp"
#include "test_stream.hpp"

namespace spmv {
namespace {

using test::TestStream;

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// `product(out)` three times, `out` reset to `out0` before each: twice on
// `first`, then once on `second`. Returns the three results.
template <class T, class Product>
std::array<std::vector<T>, 3> three_runs(Operator<T>& op, const std::vector<T>& out0, TestStream& first,
                                         TestStream& second, Product product) {
  std::array<std::vector<T>, 3> results;
  detail::DeviceBuffer<T> out(out0.size(), "test output");
  for (int run = 0; run < 3; ++run) {
    TestStream& stream = run < 2 ? first : second;
    op.set_stream(stream.handle());
    out.upload(out0.data(), out0.size());
    product(out.data());
    stream.synchronize();
    results[run] = out.to_host();
  }
  return results;
}

template <class T>
::testing::AssertionResult repeats(const std::array<std::vector<T>, 3>& runs) {
  if (!same_bits(runs[0], runs[1])) return ::testing::AssertionFailure() << "two runs on one stream differ";
  if (!same_bits(runs[0], runs[2])) return ::testing::AssertionFailure() << "a run on another stream differs";
  return ::testing::AssertionSuccess();
}

std::vector<std::pair<std::string, Csr<double>>> test_matrices() {
  return {{"rmat", generate(parse_generator_spec("rmat:scale=14,edge_factor=16"))},
          {"stencil27", generate(parse_generator_spec("stencil27:n=24"))}};
}

// Every product of `kernel` on `a`, three runs each; returns what was not
// run and why (a format's padding limit, a layout cuSPARSE's ALG3 refuses).
template <class T>
std::string expect_deterministic(const KernelInfo& kernel, const Csr<double>& matrix) {
  const Csr<T> a = cast<T>(matrix);
  TestStream first, second;
  PlanOptions options;
  options.backend = kernel.backend;
  options.kernel = kernel.name;
  options.deterministic = true;
  std::unique_ptr<Operator<T>> op;
  try {
    op = plan(a, options);
  } catch (const FormatLimitError& refusal) {
    return std::string("refused: ") + refusal.what();
  }
  const T alpha = T(1.5), beta = T(-0.5);
  const std::vector<T> x = test::random_vector<T>(a.cols, 1), xt = test::random_vector<T>(a.rows, 2);
  const std::vector<T> y0 = test::random_vector<T>(a.rows, 3), yt0 = test::random_vector<T>(a.cols, 4);
  const detail::DeviceBuffer<T> dx(x, "test x"), dxt(xt, "test x of the transposed product");
  const auto y = three_runs<T>(*op, y0, first, second, [&](T* out) { op->apply(dx.data(), out, alpha, beta); });
  EXPECT_TRUE(repeats(y)) << "apply";
  EXPECT_TRUE(test::matches_reference_spmv(a, x, y0, alpha, beta, y[0])) << "apply";
  const auto yt =
      three_runs<T>(*op, yt0, first, second, [&](T* out) { op->apply_transposed(dxt.data(), out, alpha, beta); });
  EXPECT_TRUE(repeats(yt)) << "apply_transposed";
  EXPECT_TRUE(test::matches_reference_spmv_transposed(a, xt, yt0, alpha, beta, yt[0])) << "apply_transposed";
  std::string not_run;
  constexpr index_t k = 5;
  const std::vector<T> b = test::random_vector<T>(static_cast<std::size_t>(a.cols) * k, 5);
  const std::vector<T> c0 = test::random_vector<T>(static_cast<std::size_t>(a.rows) * k, 6);
  const detail::DeviceBuffer<T> db(b, "test B");
  for (Layout layout : {Layout::row_major, Layout::col_major}) {
    SCOPED_TRACE(to_string(layout));
    try {
      const auto c =
          three_runs<T>(*op, c0, first, second, [&](T* out) { op->spmm(db.data(), out, k, layout, alpha, beta); });
      EXPECT_TRUE(repeats(c)) << "spmm";
      EXPECT_TRUE(test::matches_reference_spmm(a, b, c0, k, layout, alpha, beta, c[0])) << "spmm";
    } catch (const Unavailable& e) {
      not_run += std::string(" spmm ") + to_string(layout) + ": " + e.what() + ";";
    }
  }
  return not_run;
}

TEST(GpuDeterminism, EveryDeterministicKernelRepeatsItsBits) {
  SPMV_GPU_TEST_PRELUDE();
  int checked = 0;
  for (const auto& [name, matrix] : test_matrices()) {
    for (const KernelInfo& kernel : kernel_catalogue()) {
      if (!kernel.deterministic || (kernel.backend != Backend::cuda && kernel.backend != Backend::cusparse)) continue;
      SCOPED_TRACE(name + " " + kernel.name);
      for (const std::string& skipped :
           {expect_deterministic<float>(kernel, matrix), expect_deterministic<double>(kernel, matrix)})
        if (!skipped.empty()) std::cout << "[ note     ] " << name << " " << kernel.name << ":" << skipped << "\n";
      ++checked;
    }
  }
  std::cout << "[ note     ] " << checked << " kernel x matrix pairs planned in f32 and f64 (refusals listed above)\n";
  EXPECT_GT(checked, 20);
}

TEST(GpuDeterminism, KernelsThatDoNotOfferItAreRefused) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<double> a = generate(parse_generator_spec("stencil7:n=8"));
  int refused = 0;
  for (const KernelInfo& kernel : kernel_catalogue()) {
    if (kernel.deterministic) continue;
    SCOPED_TRACE(kernel.name);
    PlanOptions options;
    options.backend = kernel.backend;
    options.kernel = kernel.name;
    options.deterministic = true;
    try {
      plan(a, options);
      ADD_FAILURE() << "planned in deterministic mode";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("is not deterministic"), std::string::npos) << e.what();
      ++refused;
    }
  }
  EXPECT_GE(refused, 4);  // cuSPARSE CSR ALG1, COO, SpMM ALG1 and ALG2
}

// Without deterministic mode the cuda operator's transposed product adds
// with atomics; how many of 20 runs gave distinct bits is printed (not
// asserted: it depends on scheduling).
TEST(GpuDeterminism, TheAtomicTransposedProductForTheRecord) {
  SPMV_GPU_TEST_PRELUDE();
  const Csr<float> a = cast<float>(generate(parse_generator_spec("rmat:scale=16,edge_factor=16")));
  PlanOptions options;
  options.backend = Backend::cuda;
  options.kernel = "csr-vector";
  const auto atomic = plan(a, options);
  options.deterministic = true;
  const auto deterministic = plan(a, options);
  const std::vector<float> x = test::random_vector<float>(a.rows, 7);
  const detail::DeviceBuffer<float> dx(x, "test x");
  detail::DeviceBuffer<float> dy(a.cols, "test y");
  for (Operator<float>* op : {atomic.get(), deterministic.get()}) {
    std::set<std::vector<unsigned char>> distinct;
    for (int run = 0; run < 20; ++run) {
      op->apply_transposed(dx.data(), dy.data(), 1.0f, 0.0f);
      const std::vector<float> y = dy.to_host();
      const auto* bytes = reinterpret_cast<const unsigned char*>(y.data());
      distinct.emplace(bytes, bytes + y.size() * sizeof(float));
    }
    std::cout << "[ note     ] transposed product, R-MAT scale 16 f32, "
              << (op == atomic.get() ? "atomic" : "deterministic") << ": " << distinct.size()
              << " distinct results in 20 runs\n";
    if (op == deterministic.get()) {
      EXPECT_EQ(distinct.size(), 1u);
    }
  }
}

}  // namespace
}  // namespace spmv

#endif
