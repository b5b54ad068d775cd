// Diagnostic (not in the repository): where plan() with no kernel named spends more than plan() with the chosen
// kernel named. Seven interleaved pairs; medians of make_plan, make_operator and the release, each side.
#include <spmv/gen.hpp>
#include <spmv/plan.hpp>
#include <spmv/operator.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>
using clk = std::chrono::steady_clock;
static double ms(clk::time_point a, clk::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }
static double med(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
template <class T>
void run(const char* spec) {
  const spmv::Csr<T> a = spmv::cast<T>(spmv::generate(spmv::parse_generator_spec(spec)));
  spmv::PlanOptions options;
  options.backend = spmv::Backend::cuda;
  spmv::plan(a, options).reset();  // warm: model, device properties
  const spmv::Plan chosen = spmv::make_plan(a, options);
  spmv::PlanOptions named = options;
  named.backend = chosen.options.backend;
  named.kernel = chosen.options.kernel;
  named.params = chosen.options.params;
  std::vector<double> mp[2], mo[2], rel[2], whole[2];
  for (int run = 0; run < 7; ++run)
    for (int side = 0; side < 2; ++side) {
      const spmv::PlanOptions& o = side == 0 ? options : named;
      const auto t0 = clk::now();
      const spmv::Plan p = spmv::make_plan(a, o);
      const auto t1 = clk::now();
      auto op = spmv::make_operator(p, a);
      const auto t2 = clk::now();
      op.reset();
      const auto t3 = clk::now();
      mp[side].push_back(ms(t0, t1));
      mo[side].push_back(ms(t1, t2));
      rel[side].push_back(ms(t2, t3));
      whole[side].push_back(ms(t0, t3));
    }
  std::printf("%s %s kernel %s: default make_plan %.2f make_operator %.2f release %.2f whole %.2f | named %.2f %.2f %.2f "
              "%.2f | analysis %.2f selection %.2f\n",
              spec, sizeof(T) == 4 ? "f32" : "f64", chosen.options.kernel.c_str(), med(mp[0]), med(mo[0]), med(rel[0]),
              med(whole[0]), med(mp[1]), med(mo[1]), med(rel[1]), med(whole[1]), chosen.analysis_seconds * 1e3,
              chosen.selection_seconds * 1e3);
  std::fflush(stdout);
}
int main() {
  for (int round = 0; round < 2; ++round) {
    run<float>("stencil5:nx=3000,ny=3000");
    run<float>("blockfem:n=80,block=4");
    run<double>("stencil5:nx=3000,ny=3000");
    run<float>("uniform:rows=4000000,cols=4000000,per_row=16");
  }
}
