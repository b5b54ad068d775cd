// Diagnosis: where a default plan()'s time goes on the device.
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <string>
#include "spmv/plan.hpp"
#include "spmv/gen.hpp"
#include "cuda/device_csr.hpp"
#include "core/backends.hpp"
#include "select/model.hpp"
using clk = std::chrono::steady_clock;
static double since(clk::time_point t) { return std::chrono::duration<double, std::milli>(clk::now() - t).count(); }
template <class T> void run(const char* spec, const char* prec) {
  const spmv::Csr<T> a = spmv::cast<T>(spmv::generate(spmv::parse_generator_spec(spec)));
  spmv::PlanOptions vendor; vendor.backend = spmv::Backend::cusparse;
  spmv::plan(a, vendor).reset();
  for (int round = 0; round < 3; ++round) {
    spmv::PlanOptions o; o.backend = spmv::Backend::cuda;
    auto t = clk::now();
    spmv::Plan p = spmv::make_plan(a, o);
    double plan_ms = since(t);
    t = clk::now();
    auto op = spmv::make_operator(p, a);
    double op_ms = since(t);
    auto d = op->describe(); op.reset();
    std::printf("%s %s r%d default %-14s plan %6.2f (analysis %5.2f sel %5.2f) op %6.2f (up %6.2f build %5.2f rest %5.2f)\n",
      spec, prec, round, p.options.kernel.c_str(), plan_ms, p.analysis_seconds*1e3, p.selection_seconds*1e3, op_ms,
      d.upload_seconds*1e3, d.build_seconds*1e3, op_ms - 1e3*(d.upload_seconds + d.build_seconds));
    for (int only = 1; only >= 0; --only) {
      spmv::PlanOptions n; n.backend = p.options.backend; n.kernel = p.options.kernel; n.spmv_only = only;
      t = clk::now();
      spmv::Plan q = spmv::make_plan(a, n);
      double qplan = since(t);
      t = clk::now();
      auto op2 = spmv::make_operator(q, a);
      double qop = since(t);
      auto e = op2->describe(); op2.reset();
      std::printf("%s %s r%d named spmv_only=%d plan %6.2f op %6.2f (up %6.2f build %5.2f rest %5.2f)\n", spec, prec, round,
        only, qplan, qop, e.upload_seconds*1e3, e.build_seconds*1e3, qop - 1e3*(e.upload_seconds + e.build_seconds));
    }
    t = clk::now();
    { spmv::detail::DeviceCsr<T> up(a); cudaDeviceSynchronize(); std::printf("%s %s r%d DeviceCsr alone %6.2f\n", spec, prec, round, since(t)); }
  }
}
int main(int argc, char** argv) {
  cudaFree(nullptr);
  { auto t = clk::now(); spmv::detail::builtin_selector_model(); std::printf("model load %.2f ms\n", since(t)); }
  { auto t = clk::now(); spmv::detail::current_device_properties(); std::printf("device properties %.2f ms\n", since(t)); }
  {
    const spmv::Csr<double> small = spmv::generate(spmv::parse_generator_spec("stencil5:nx=100,ny=100"));
    spmv::PlanOptions o; o.backend = spmv::Backend::cuda;
    for (int i = 0; i < 3; ++i) { auto t = clk::now(); spmv::make_plan(small, o); std::printf("small plan %d: %.2f ms\n", i, since(t)); }
  }
  for (int i = 1; i < argc; ++i) { run<double>(argv[i], "f64"); run<float>(argv[i], "f32"); }
}
