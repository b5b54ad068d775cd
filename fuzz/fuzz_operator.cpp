// libFuzzer harness: plan() and the operator of every host kernel (reference
// and cpu backends) on a small fuzzed Csr, checked against the reference
// product: apply, apply_transposed and spmm in both layouts.
//
// Input: byte 0 picks the kernel, bytes 1-2 the rows and columns (0 to 40),
// then three bytes per entry: row, column, value (a small integer, so sums are exact).
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "spmv/error.hpp"
#include "spmv/operator.hpp"
#include "spmv/reference.hpp"
#include "spmv/verify.hpp"

namespace {

using namespace spmv;

constexpr int largest_dimension = 40;

Csr<double> fuzzed_matrix(const std::uint8_t* data, std::size_t size) {
  Coo<double> coo;
  coo.rows = data[1] % (largest_dimension + 1);
  coo.cols = data[2] % (largest_dimension + 1);
  if (coo.rows == 0 || coo.cols == 0) return to_csr(coo);
  for (std::size_t k = 3; k + 2 < size; k += 3)
    coo.push(data[k] % coo.rows, data[k + 1] % coo.cols, static_cast<std::int8_t>(data[k + 2]));
  return to_csr(coo);
}

std::vector<KernelInfo> host_kernels() {
  std::vector<KernelInfo> kernels;
  for (const KernelInfo& k : kernel_catalogue())
    if (k.backend == Backend::reference || k.backend == Backend::cpu) kernels.push_back(k);
  return kernels;
}

// Non-periodic operands with exact binary fractions.
std::vector<double> operand(std::size_t n, int salt) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<double>((i * 7 + salt) % 13) / 8 - 0.75;
  return v;
}

void expect_close(const std::vector<double>& y, const std::vector<double>& reference,
                  const std::vector<double>& scale, std::size_t max_row_length, const std::string& what) {
  const VerifyResult result =
      verify(y.data(), reference.data(), scale.data(), y.size(), default_tolerance_factor(max_row_length));
  if (!result.ok) fuzz::fail(what + ": " + result.message);
}

void check_kernel(const Csr<double>& a, const KernelInfo& kernel) {
  PlanOptions options;
  options.backend = kernel.backend;
  options.kernel = kernel.name;
  std::unique_ptr<Operator<double>> op;
  try {
    op = plan(a, options);
  } catch (const FormatLimitError&) {
    return;  // a documented refusal (e.g. ELL padding)
  }
  const std::string what = kernel.name + " on a " + std::to_string(a.rows) + " x " + std::to_string(a.cols) +
                           " matrix with " + std::to_string(a.nnz()) + " non-zeros";
  std::size_t longest_row = 1;
  for (index_t r = 0; r < a.rows; ++r) longest_row = std::max<std::size_t>(longest_row, a.row_length(r));
  const double alpha = 1.5, beta = -0.5;

  const std::vector<double> x = operand(a.cols, 1), y0 = operand(a.rows, 2);
  std::vector<double> y = y0, reference(a.rows), scale(a.rows);
  op->apply(x.data(), y.data(), alpha, beta);
  reference_spmv(a, x.data(), y0.data(), alpha, beta, reference.data(), scale.data());
  expect_close(y, reference, scale, longest_row, what + ", apply");

  const std::vector<double> xt = operand(a.rows, 3), yt0 = operand(a.cols, 4);
  std::vector<double> yt = yt0, reference_t(a.cols), scale_t(a.cols);
  op->apply_transposed(xt.data(), yt.data(), alpha, beta);
  reference_spmv_transposed(a, xt.data(), yt0.data(), alpha, beta, reference_t.data(), scale_t.data());
  expect_close(yt, reference_t, scale_t, static_cast<std::size_t>(a.rows) + 1, what + ", apply_transposed");

  constexpr index_t k = 3;
  for (Layout layout : {Layout::row_major, Layout::col_major}) {
    const std::vector<double> b = operand(static_cast<std::size_t>(a.cols) * k, 5);
    const std::vector<double> c0 = operand(static_cast<std::size_t>(a.rows) * k, 6);
    std::vector<double> c = c0, reference_c(c0.size()), scale_c(c0.size());
    op->spmm(b.data(), c.data(), k, layout, alpha, beta);
    reference_spmm(a, b.data(), c0.data(), k, layout, alpha, beta, reference_c.data(), scale_c.data());
    expect_close(c, reference_c, scale_c, longest_row, what + ", spmm " + to_string(layout));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<KernelInfo> kernels = host_kernels();
  if (size < 3 || kernels.empty()) return 0;
  check_kernel(fuzzed_matrix(data, size), kernels[data[0] % kernels.size()]);
  return 0;
}
