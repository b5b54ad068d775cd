// Example: y = A^T x without forming A^T yourself, e.g. for the gradient
// X^T r of a least-squares fit.
//
//   transposed_product [cpu|cuda]
#include <cmath>
#include <cstdio>
#include <vector>

#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/operator.hpp"

int main(int argc, char** argv) {
  try {
    // A rectangular matrix: 2000 x 500 with about 1% of the entries set.
    const spmv::Csr<double> a = spmv::gen_thesis_random(2000, 500, 0.01, /*seed=*/7);
    spmv::PlanOptions options;
    options.backend = argc > 1 ? spmv::backend_from_string(argv[1]) : spmv::Backend::cpu;
    // false (the default): the kernel's transposed product, no copy of A^T
    // kept; true: A^T built once at plan time, faster, twice the memory.
    options.explicit_transpose = false;
    const auto op = spmv::plan(a, options);

    const std::vector<double> x(a.rows, 1.0);  // x has rows() entries
    std::vector<double> y(a.cols);             // y has cols() entries
    op->apply_transposed(x.data(), y.data());  // y = A^T x: the column sums of A

    // Check against the column sums computed directly from the CSR arrays.
    std::vector<double> column_sums(a.cols, 0.0);
    for (spmv::index_t i = 0; i < a.rows; ++i)
      for (auto e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) column_sums[a.col_idx[e]] += a.values[e];
    double worst = 0;
    for (spmv::index_t j = 0; j < a.cols; ++j) worst = std::fmax(worst, std::fabs(y[j] - column_sums[j]));
    std::printf("A^T x on a %d x %d matrix: largest difference from the column sums %.3g\n", a.rows,
                a.cols, worst);
    return worst <= 1e-12 ? 0 : 1;
  } catch (const spmv::Error& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
}
