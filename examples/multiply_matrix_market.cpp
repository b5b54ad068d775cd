// Example: read a Matrix Market file and compute y = A x.
//
//   multiply_matrix_market data/watt_2.mtx.gz [cpu|cuda]
//
// plan() looks at the matrix once, picks a kernel for the backend and builds
// it; apply() can then be called as often as needed.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "spmv/error.hpp"
#include "spmv/io.hpp"
#include "spmv/operator.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MATRIX.mtx[.gz] [cpu|cuda]\n", argv[0]);
    return 2;
  }
  try {
    const spmv::Csr<double> a = spmv::read_matrix_market<double>(argv[1]);

    spmv::PlanOptions options;
    options.backend = argc > 2 ? spmv::backend_from_string(argv[2]) : spmv::Backend::cpu;
    const auto op = spmv::plan(a, options);

    // Host vectors work with every backend (a GPU operator copies them).
    std::vector<double> x(a.cols, 1.0), y(a.rows);
    op->apply(x.data(), y.data());  // y = A x: with x all ones, the row sums

    // The sum of y must be the sum of A's values.
    double sum = 0, expected = 0;
    for (double v : y) sum += v;
    for (double v : a.values) expected += v;
    std::printf("%d x %d, %lld non-zeros, kernel %s: sum of A*ones = %.6g (sum of A: %.6g)\n",
                a.rows, a.cols, static_cast<long long>(a.nnz()), op->describe().kernel.c_str(), sum,
                expected);
    return std::abs(sum - expected) <= 1e-9 * (1 + std::abs(expected)) ? 0 : 1;
  } catch (const spmv::Error& error) {  // every library error derives from spmv::Error
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
}
