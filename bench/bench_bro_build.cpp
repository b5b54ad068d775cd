// Build rate of BRO-ELL on the host (issue 5: a 100-million-non-zero matrix
// in seconds, not minutes).
//
// Generates a 27-point stencil (n^3 rows, about 27 n^3 non-zeros), a block-FEM
// matrix and a matrix of uniformly random columns of similar sizes, builds
// BRO-ELL from each 5 times per configuration (T = 1 and 4, value codes by
// the default rule and never), checks the first build's round trip, and prints
// the best and median build time, the rate in non-zeros per second of the
// best run, and the compression figures. Exits non-zero when a best run is
// slower than the target rate: 100 million non-zeros in 10 seconds.
//
// Usage: bench_bro_build [stencil_n]   (default 80: 13.5M non-zeros)
#include <fmt/core.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "spmv/formats/bro_ell.hpp"
#include "spmv/gen.hpp"

namespace {

constexpr double target_nonzeros_per_second = 100e6 / 10.0;
constexpr int repetitions = 5;

struct Case {
  std::string name;
  spmv::Csr<double> matrix;
};

struct Config {
  std::string name;
  spmv::BroEllOptions options;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const spmv::index_t n = argc > 1 ? std::atoi(argv[1]) : 80;
  if (n < 2) {
    fmt::print(stderr, "bench_bro_build: stencil_n must be at least 2\n");
    return 2;
  }
  const spmv::index_t rows = n * n * n;
  std::vector<Case> cases;
  cases.push_back({fmt::format("stencil27 n={}", n), spmv::gen_stencil_3d(n, n, n, 27)});
  const spmv::index_t fem_nodes = std::max<spmv::index_t>(2, static_cast<spmv::index_t>(n / 1.6));
  cases.push_back({fmt::format("block_fem 3x3 n={}", fem_nodes), spmv::gen_block_fem(fem_nodes, fem_nodes, fem_nodes, 3, 1)});
  cases.push_back({fmt::format("uniform_random 27/row"), spmv::gen_uniform_random(rows, rows, 27, 2)});

  const std::vector<Config> configs = {
      {"T=1 codes=auto", {256, 1, spmv::BroValueCodes::when_smaller}},
      {"T=1 codes=never", {256, 1, spmv::BroValueCodes::never}},
      {"T=4 codes=auto", {256, 4, spmv::BroValueCodes::when_smaller}},
  };

  fmt::print("BRO-ELL host build, h=256, {} OpenMP threads, {} runs each (best, median)\n", omp_get_max_threads(),
             repetitions);
  fmt::print("{:<24} {:<16} {:>10} {:>8} {:>8} {:>10} {:>7} {:>7} {:>7} {:>6}\n", "matrix", "config", "nnz",
             "best s", "median s", "Mnnz/s", "eta_ELL", "eta_CSR", "B/nnz", "codes");
  bool target_met = true;
  for (const Case& c : cases) {
    for (const Config& config : configs) {
      std::vector<double> seconds;
      spmv::CompressionMetrics metrics;
      bool codes = false;
      for (int run = 0; run < repetitions; ++run) {
        const auto start = std::chrono::steady_clock::now();
        const spmv::BroEll<double> bro = spmv::bro_ell_from_csr(c.matrix, config.options);
        seconds.push_back(seconds_since(start));
        if (run > 0) continue;
        if (spmv::to_csr(bro) != c.matrix) {
          fmt::print(stderr, "bench_bro_build: {} {}: the round trip is not exact\n", c.name, config.name);
          return 1;
        }
        metrics = spmv::bro_ell_metrics(bro);
        codes = bro.uses_value_codes();
      }
      std::sort(seconds.begin(), seconds.end());
      const double rate = c.matrix.nnz() / seconds.front();
      target_met = target_met && rate >= target_nonzeros_per_second;
      fmt::print("{:<24} {:<16} {:>10} {:>8.3f} {:>8.3f} {:>10.1f} {:>6.1f}% {:>6.1f}% {:>7.2f} {:>6}\n", c.name,
                 config.name, c.matrix.nnz(), seconds.front(), seconds[seconds.size() / 2], rate / 1e6,
                 100 * metrics.against_uncompressed.space_savings(), 100 * metrics.against_csr.space_savings(),
                 metrics.bytes_per_nonzero(), codes ? "yes" : "no");
    }
  }
  fmt::print("target: {:.0f} M non-zeros/s (100M in 10 s): {}\n", target_nonzeros_per_second / 1e6,
             target_met ? "met" : "MISSED");
  return target_met ? 0 : 1;
}
