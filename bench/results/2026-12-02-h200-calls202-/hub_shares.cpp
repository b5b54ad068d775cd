// The share of a generated matrix's entries that csr-hub's hubs would hold on an H200 (132 SMs, one 1024-thread
// block each): in f64, at most 16384 hubs (128 KiB) of more than 33 entries (132 x 8 / 32); in f32, 32768 of more
// than 16. Built on the development machine against the library's generators (src/gen/*.cpp, src/core/{error,csr,
// types,reorder_common}.cpp; the reorderings those reference were stubbed, never called):
//   hub_shares SPEC... > shares-training.txt
#include <algorithm>
#include <cstdio>
#include <vector>
#include "spmv/gen.hpp"
int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    auto a = spmv::generate(spmv::parse_generator_spec(argv[i]));
    std::vector<long> counts(a.cols, 0);
    for (auto c : a.col_idx) counts[c]++;
    std::sort(counts.begin(), counts.end(), std::greater<long>());
    double nnz = a.col_idx.size();
    auto share = [&](size_t slots, long worth) { long s = 0; size_t h = 0; for (; h < slots && h < counts.size() && counts[h] > worth; ++h) s += counts[h]; return std::pair<double,size_t>(s / nnz, h); };
    auto f64 = share(16384, 33), f32 = share(32768, 16);
    std::printf("%-70s nnz=%10.0f f64 share=%.3f hubs=%zu  f32 share=%.3f hubs=%zu  maxcol=%ld\n", argv[i], nnz, f64.first, f64.second, f32.first, f32.second, counts[0]);
    std::fflush(stdout);
  }
}
