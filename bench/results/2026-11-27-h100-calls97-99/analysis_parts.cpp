// Diagnosis: where the plan's analysis goes on the host (min of 9 runs each).
#include <chrono>
#include <cstdio>
#include <string>
#include "spmv/gen.hpp"
#include "spmv/stats.hpp"
#include "select/features.hpp"
using namespace spmv;
using clk = std::chrono::steady_clock;
template <class F> double best(F f) { double b = 1e9; for (int i = 0; i < 9; ++i) { auto t = clk::now(); f(); b = std::min(b, std::chrono::duration<double, std::milli>(clk::now() - t).count()); } return b; }
template <class T> void run(const char* spec, const char* prec) {
  const Csr<T> a = cast<T>(generate(parse_generator_spec(spec)));
  const StatsOptions full = detail::selector_stats_options(a.nnz());
  StatsOptions lengths; lengths.block_sizes.clear(); lengths.symmetry = false; lengths.distinct_value_limit = 1;
  lengths.sample_nonzeros = 1; lengths.sample_rows = full.sample_rows;
  StatsOptions exact = lengths; exact.sample_rows = 0;
  StatsOptions diag = full; diag.block_sizes.clear(); diag.distinct_value_limit = 1;
  StatsOptions distinct = full; distinct.block_sizes.clear();
  StatsOptions b44 = diag; b44.block_sizes = {{4, 4}};
  StatsOptions b464 = diag; b464.block_sizes = {{4, 64}};
  std::printf("%-44s %s full %6.3f | lengths %6.3f +check+diag %6.3f +distinct %6.3f +4x4 %6.3f +4x64 %6.3f | exact lengths %6.3f\n",
              spec, prec, best([&] { analyse(a, full); }), best([&] { analyse(a, lengths); }), best([&] { analyse(a, diag); }),
              best([&] { analyse(a, distinct); }), best([&] { analyse(a, b44); }), best([&] { analyse(a, b464); }),
              best([&] { analyse(a, exact); }));
}
int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) { run<double>(argv[i], "f64"); run<float>(argv[i], "f32"); }
}
