// Example: C = A B for a block of k vectors at once (SpMM), which reads the
// matrix once for all k columns instead of once per vector.
//
//   spmm [cpu|cuda]
#include <cstdio>
#include <vector>

#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/operator.hpp"

int main(int argc, char** argv) {
  try {
    const spmv::Csr<double> a = spmv::gen_stencil_3d(20, 20, 20, 7);  // 7-point Laplacian
    spmv::PlanOptions options;
    options.backend = argc > 1 ? spmv::backend_from_string(argv[1]) : spmv::Backend::cpu;
    const auto op = spmv::plan(a, options);

    // B is cols x k, C is rows x k; row-major: entry (i, j) at [i * k + j].
    const spmv::index_t k = 4;
    std::vector<double> b(static_cast<std::size_t>(a.cols) * k), c(static_cast<std::size_t>(a.rows) * k);
    for (spmv::index_t i = 0; i < a.cols; ++i)
      for (spmv::index_t j = 0; j < k; ++j) b[i * k + j] = j + 1;  // column j is all (j + 1)

    op->spmm(b.data(), c.data(), k, spmv::Layout::row_major);  // C = A B

    // Each column of C is A times a constant vector: (j + 1) times column 0.
    bool right = true;
    for (spmv::index_t i = 0; i < a.rows; ++i)
      for (spmv::index_t j = 0; j < k; ++j) right = right && c[i * k + j] == (j + 1) * c[i * k];
    std::printf("SpMM with k = %d on the %s backend: columns %s\n", k,
                spmv::to_string(op->describe().backend), right ? "consistent" : "WRONG");
    return right ? 0 : 1;
  } catch (const spmv::Error& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
}
