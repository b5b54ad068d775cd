// Times analyse() and its parts on generated stencil-like CSR (device-host diagnosis of the plan's cost).
#include <omp.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include "spmv/stats.hpp"
#include "select/features.hpp"
using namespace spmv;
template <class F> double ms(F f) { auto t = std::chrono::steady_clock::now(); f(); return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count(); }
Csr<double> stencil(int n, int points) {
  Csr<double> a; a.rows = a.cols = n * n * n; a.row_ptr.resize(a.rows + 1);
  for (int r = 0; r < a.rows; ++r) a.row_ptr[r + 1] = a.row_ptr[r] + points;
  a.col_idx.resize(a.row_ptr.back()); a.values.assign(a.row_ptr.back(), 1.0);
  for (int r = 0; r < a.rows; ++r) for (int k = 0; k < points; ++k) {
    long c = points == 27 ? r + (k / 9 - 1) * n * n + (k / 3 % 3 - 1) * n + (k % 3 - 1) : r + (k - 3);
    a.col_idx[a.row_ptr[r] + k] = (int)std::min<long>(std::max<long>(c, 0), a.cols - 1); }
  return a;
}
int main() {
  printf("threads %d\n", omp_get_max_threads());
  for (auto [n, p] : {std::pair{150, 27}, std::pair{256, 7}}) {
    Csr<double> a = stencil(n, p);
    StatsOptions o = detail::selector_stats_options(a.nnz());
    StatsOptions none = o; none.block_sizes.clear(); none.distinct_value_limit = 1;
    StatsOptions tiny = none; tiny.sample_nonzeros = 4096;
    for (int rep = 0; rep < 4; ++rep)
      printf("n=%d points=%d rows=%d: full %.2f ms, no blocks/distinct %.2f ms, row pass + tiny sample %.2f ms\n", n, p, a.rows,
             ms([&] { analyse(a, o); }), ms([&] { analyse(a, none); }), ms([&] { analyse(a, tiny); }));
  }
}
