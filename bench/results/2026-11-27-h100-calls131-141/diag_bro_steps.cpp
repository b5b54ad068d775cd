// TEMPORARY diagnosis (not to be committed): where BRO-ELL's device build spends its time.
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <string>
#include "cuda/bro_ell_device.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/diag_marks.hpp"
#include "spmv/gen.hpp"
#include "spmv/plan.hpp"
#include "spmv/operator.hpp"
using clk = std::chrono::steady_clock;
static double ms(clk::time_point a, clk::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }
template <class T> void run(const char* spec, const char* prec) {
  const spmv::Csr<T> a = spmv::cast<T>(spmv::generate(spmv::parse_generator_spec(spec)));
  spmv::detail::DeviceCsr<T> d(a);
  cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  spmv::BroEllOptions o;
  for (int round = 0; round < 4; ++round) {
    spmv::diag::marks.clear();
    spmv::diag::enabled = true;
    cudaStreamSynchronize(s);
    const auto t0 = clk::now();
    cudaEvent_t e0; cudaEventCreate(&e0); cudaEventRecord(e0, s);
    {
      auto bro = spmv::detail::build_bro_ell_on_device(d.view(), o, s);
      spmv::diag::mark("returned", s);
      cudaStreamSynchronize(s);
      spmv::diag::mark("synchronised", s);
    }
    spmv::diag::mark("freed", s);
    cudaStreamSynchronize(s);
    spmv::diag::enabled = false;
    std::printf("%s %s round %d: %-22s %9s %9s\n", spec, prec, round, "step", "host ms", "gpu ms");
    for (auto& m : spmv::diag::marks) {
      float g = 0; cudaEventElapsedTime(&g, e0, m.event);
      std::printf("  %-22s %9.3f %9.3f\n", m.name.c_str(), ms(t0, m.host), g);
    }
  }
  for (int round = 0; round < 2; ++round) {
    spmv::PlanOptions po; po.backend = spmv::Backend::cuda; po.kernel = "bro-ell";
    const auto t0 = clk::now();
    auto op = spmv::plan(a, po);
    const auto t1 = clk::now();
    auto desc = op->describe();
    std::printf("%s %s plan(bro-ell) %.2f ms: upload %.2f build %.2f\n", spec, prec, ms(t0, t1),
                desc.upload_seconds * 1e3, desc.build_seconds * 1e3);
  }
  for (std::size_t mb : {16, 128, 512, 1024}) {
    void* p; const auto t0 = clk::now(); cudaMalloc(&p, mb << 20); const auto t1 = clk::now(); cudaFree(p);
    const auto t2 = clk::now();
    std::printf("cudaMalloc %zu MB %.3f ms, cudaFree %.3f ms\n", mb, ms(t0, t1), ms(t1, t2));
  }
}
int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) { run<double>(argv[i], "f64"); run<float>(argv[i], "f32"); }
}
