// Local profiling aid (not committed): analyse() and validate_row_pointers by thread count.
#include <spmv/gen.hpp>
#include <spmv/stats.hpp>
#include <omp.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>
namespace spmv::detail {
spmv::StatsOptions selector_stats_options(std::int64_t nnz);
template <class T> void validate_row_pointers(const spmv::Csr<T>& a);
}
using clk = std::chrono::steady_clock;
static double ms(clk::time_point a, clk::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }
int main(int argc, char** argv) {
  std::vector<char> flush_a(size_t(1) << 29, 1), flush_b(size_t(1) << 29, 0);
  for (int m = 1; m < argc; ++m) {
    auto a = spmv::generate(spmv::parse_generator_spec(argv[m]));
    spmv::Csr<float> f = spmv::cast<float>(a);
    auto opt = spmv::detail::selector_stats_options(a.nnz());
    for (int cold = 0; cold < 2; ++cold)
      for (int t : {1, 2, 4, 8, 16}) {
        omp_set_num_threads(t);
        std::vector<double> an, va;
        for (int i = 0; i < 8; ++i) {
          if (cold) std::memcpy(flush_b.data(), flush_a.data(), flush_a.size());
          std::fprintf(stderr, "\n%s t=%d cold=%d ", argv[m], t, cold);
          auto t0 = clk::now();
          auto s = spmv::analyse(f, opt);
          auto t1 = clk::now();
          spmv::detail::validate_row_pointers(f);
          auto t2 = clk::now();
          an.push_back(ms(t0, t1));
          va.push_back(ms(t1, t2));
        }
        std::sort(an.begin(), an.end());
        std::sort(va.begin(), va.end());
        std::printf("%-44s cold=%d t=%2d analyse min %.3f med %.3f | row_ptr check min %.3f med %.3f\n", argv[m], cold, t,
                    an[0], an[4], va[0], va[4]);
        std::fflush(stdout);
      }
  }
}
