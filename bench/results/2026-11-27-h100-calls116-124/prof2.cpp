// Profiling aid (not in the library): analyse() by step right after an upload-like parallel copy, as in plan().
#include <spmv/gen.hpp>
#include <spmv/stats.hpp>
#include <omp.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>
namespace spmv::detail {
spmv::StatsOptions selector_stats_options(std::int64_t nnz);
template <class T> void validate_row_pointers(const spmv::Csr<T>& a);
}
using clk = std::chrono::steady_clock;
static double ms(clk::time_point a, clk::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }
int main(int argc, char** argv) {
  const std::size_t bytes = std::size_t(1) << 28;
  std::vector<char> from(bytes, 1), to(bytes, 0);
  for (int m = 1; m < argc; ++m) {
    auto a = spmv::generate(spmv::parse_generator_spec(argv[m]));
    spmv::Csr<float> f = spmv::cast<float>(a);
    auto opt = spmv::detail::selector_stats_options(a.nnz());
    for (int pause_ms : {0, 3, 30}) {
      std::vector<double> an, va;
      for (int i = 0; i < 10; ++i) {
        const int parts = omp_get_max_threads();
#pragma omp parallel for num_threads(parts)
        for (int p = 0; p < parts; ++p)
          std::memcpy(to.data() + bytes / parts * p, from.data() + bytes / parts * p, bytes / parts);
        std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
        std::fprintf(stderr, "\n%s pause=%d ", argv[m], pause_ms);
        auto t0 = clk::now();
        spmv::detail::validate_row_pointers(f);
        auto t1 = clk::now();
        auto s = spmv::analyse(f, opt);
        auto t2 = clk::now();
        va.push_back(ms(t0, t1));
        an.push_back(ms(t1, t2));
      }
      std::sort(an.begin(), an.end());
      std::sort(va.begin(), va.end());
      std::printf("%-44s pause %2d ms: row_ptr check min %.3f med %.3f | analyse min %.3f med %.3f\n", argv[m], pause_ms,
                  va[0], va[5], an[0], an[5]);
      std::fflush(stdout);
    }
  }
}
