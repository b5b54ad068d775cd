// A program outside the project that uses the installed package
// (find_package(spmv) + spmv::spmv): run by tests/consumer/run_consumer.sh.
#include <cstdio>
#include <vector>

#include "spmv/gen.hpp"
#include "spmv/operator.hpp"
#include "spmv/version.hpp"

int main() {
  const spmv::Csr<double> a = spmv::gen_stencil_2d_5pt(50, 50);
  spmv::PlanOptions options;
  options.backend = spmv::Backend::cpu;
  const auto op = spmv::plan(a, options);
  std::vector<double> x(a.cols, 1.0), y(a.rows);
  op->apply(x.data(), y.data());
  // The 5-point Laplacian's rows sum to 0 away from the border.
  const bool right = y[25 * 50 + 25] == 0.0 && y[0] == 2.0;
  std::printf("spmv %s from the installed package, kernel %s: %s\n", spmv::library_version(),
              op->describe().kernel.c_str(), right ? "ok" : "WRONG");
  return right ? 0 : 1;
}
