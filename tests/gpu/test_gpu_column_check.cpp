// The columns of a CSR checked on the device after its upload (DeviceCsr):
// a plan for the GPU checks only the row pointers on the host. Every bad
// column (out of range, negative, repeated, out of order) is refused by
// plan() and make_operator() with validate()'s message, whichever check
// found it, for rows read by one thread and by groups of up to 32; the
// device check alone names the first bad row of several.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "spmv/gen.hpp"
#include "spmv/operator.hpp"
#include "spmv/plan.hpp"
#include "test_support.hpp"

#ifdef SPMV_HAVE_CUDA
#include "cuda/device_csr.hpp"

namespace spmv {
namespace {

using test::invalid_argument_of;

struct Corruption {
  const char* name;
  std::function<void(Csr<double>&, index_t k)> apply;  // entry k, not a row's first
};

std::vector<Corruption> corruptions() {
  return {
      {"beyond the last column", [](Csr<double>& a, index_t k) { a.col_idx[k] = a.cols; }},
      {"negative", [](Csr<double>& a, index_t k) { a.col_idx[k] = -1; }},
      {"repeated", [](Csr<double>& a, index_t k) { a.col_idx[k] = a.col_idx[k - 1]; }},
      {"before the one before it", [](Csr<double>& a, index_t k) { std::swap(a.col_idx[k], a.col_idx[k - 1]); }},
  };
}

// Short rows (one thread a row), stencil rows, and rows of 200 (32 lanes).
std::vector<Csr<double>> matrices() {
  return {generate(parse_generator_spec("tridiagonal:rows=30000")), gen_stencil_3d(40, 40, 40, 27),
          gen_constant_row(3000, 50000, 200, 7)};
}

TEST(GpuColumnCheck, PlansRefuseEveryBadColumnWithTheHostMessage) {
  SPMV_GPU_TEST_PRELUDE();
  for (const Csr<double>& good : matrices()) {
    for (const Corruption& corruption : corruptions()) {
      Csr<double> a = good;
      const index_t row = a.rows / 2 + 13;
      const index_t k = a.row_ptr[row] + a.row_length(row) / 2 + 1;  // a lane other than the first
      corruption.apply(a, k);
      SCOPED_TRACE(std::to_string(a.rows) + " rows, entry " + std::to_string(k) + " " + corruption.name);
      const std::string expected = invalid_argument_of([&] { validate(a); });
      ASSERT_NE(expected.find("entry " + std::to_string(k) + " (row " + std::to_string(row)), std::string::npos)
          << expected;
      for (const Backend backend : {Backend::cuda, Backend::cusparse}) {
        PlanOptions options;
        options.backend = backend;
        EXPECT_EQ(invalid_argument_of([&] { plan(a, options); }), expected) << to_string(backend);
        options.kernel = backend == Backend::cuda ? "ell" : "";  // the plan reads no column: the upload's check
        EXPECT_EQ(invalid_argument_of([&] { plan(a, options); }), expected)
            << to_string(backend) << " " << options.kernel;
        EXPECT_EQ(invalid_argument_of([&] { make_operator(make_plan(a, options), a); }), expected);
      }
    }
  }
}

TEST(GpuColumnCheck, TheUploadNamesTheFirstBadRow) {
  SPMV_GPU_TEST_PRELUDE();
  for (Csr<double> a : matrices()) {
    EXPECT_NO_THROW(detail::DeviceCsr<double>{a});
    const index_t last = a.rows - 1, first = a.rows / 3;
    a.col_idx[a.row_ptr[last + 1] - 1] = a.cols;
    a.col_idx[a.row_ptr[first]] = -5;
    const std::string message = invalid_argument_of([&] { detail::DeviceCsr<double>{a}; });
    EXPECT_NE(message.find("(row " + std::to_string(first) + ", column -5) is out of range"), std::string::npos)
        << message;
  }
}

}  // namespace
}  // namespace spmv
#endif
