// TEMPORARY diagnosis (kept with the call's results, not built by CMake):
// the host check of the row pointers on large matrices, and DIA's device
// build, first of the process against later ones.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/csr_checks.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/dia_device.hpp"
#include "cuda/spmm_algorithm.hpp"
#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/stats.hpp"

using clk = std::chrono::steady_clock;
static double ms_since(clk::time_point t) { return std::chrono::duration<double, std::milli>(clk::now() - t).count(); }

template <class T>
void run(const char* spec, bool premalloc) {
  const spmv::Csr<T> a = spmv::cast<T>(spmv::generate(spmv::parse_generator_spec(spec)));
  std::printf("%s %s: %d rows, %lld nnz\n", spec, sizeof(T) == 4 ? "f32" : "f64", a.rows, (long long)a.nnz());
  for (int i = 0; i < 4; ++i) {
    const auto t = clk::now();
    spmv::detail::validate_row_pointers(a);
    std::printf("  validate_row_pointers %d: %.3f ms\n", i, ms_since(t));
  }
  for (int i = 0; i < 2; ++i) {
    const auto t = clk::now();
    const spmv::MatrixStats s = spmv::analyse(a);
    std::printf("  analyse (full) %d: %.3f ms (rows %lld)\n", i, ms_since(t), (long long)s.rows);
  }
  const spmv::detail::DeviceCsr<T> d(a);
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  if (premalloc) {
    for (int i = 0; i < 2; ++i) {
      const auto t = clk::now();
      void* p = nullptr;
      cudaMalloc(&p, std::size_t(a.rows) * 27 * sizeof(T));
      const double m = ms_since(t);
      cudaFree(p);
      std::printf("  cudaMalloc %zu MB %d: %.3f ms\n", std::size_t(a.rows) * 27 * sizeof(T) >> 20, i, m);
    }
  }
  {  // the build's kernels loaded first (CUDA loads a kernel on its first launch)
    const spmv::Csr<T> small = spmv::cast<T>(spmv::generate(spmv::parse_generator_spec("stencil5:nx=8,ny=8")));
    const spmv::detail::DeviceCsr<T> ds(small);
    const auto t = clk::now();
    auto dia = spmv::detail::build_dia_on_device(ds.view(), {}, stream);
    cudaStreamSynchronize(stream);
    std::printf("  dia build of a 64-row stencil (kernels loaded): %.3f ms\n", ms_since(t));
  }
  for (int round = 0; round < 4; ++round) {
    cudaStreamSynchronize(stream);
    const auto t0 = clk::now();
    double built = 0;
    {
      auto dia = spmv::detail::build_dia_on_device(d.view(), {}, stream);
      cudaStreamSynchronize(stream);
      built = ms_since(t0);
    }
    cudaStreamSynchronize(stream);
    std::printf("  dia build %d: %.3f ms (freed after %.3f ms)\n", round, built, ms_since(t0));
  }
  for (int round = 0; round < 3; ++round) {
    cudaDeviceSynchronize();
    const auto t0 = clk::now();
    auto spmm = spmv::detail::make_default_spmm<T>({d.view()}, true);
    cudaDeviceSynchronize();
    std::printf("  default SpMM (FastSpMM's ELLPACK-R copy) %d: %.3f ms (its build_seconds %.3f ms)\n", round,
                ms_since(t0), spmm->build_seconds() * 1e3);
  }
  cudaStreamDestroy(stream);
}

// DIA's refusal of a scattered matrix, timed.
template <class T>
void refusal(const char* spec) {
  const spmv::Csr<T> a = spmv::cast<T>(spmv::generate(spmv::parse_generator_spec(spec)));
  const spmv::detail::DeviceCsr<T> d(a);
  for (int round = 0; round < 3; ++round) {
    cudaDeviceSynchronize();
    const auto t0 = clk::now();
    std::string what = "built";
    try {
      auto dia = spmv::detail::build_dia_on_device(d.view(), {}, nullptr);
      cudaDeviceSynchronize();
    } catch (const spmv::FormatLimitError& e) {
      what = e.what();
    }
    std::printf("%s: dia refusal %d: %.3f ms: %s\n", spec, round, ms_since(t0), what.substr(0, 90).c_str());
  }
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: diag_setup f32|f64 [premalloc] SPEC...\n");
    return 2;
  }
  const bool f64 = std::strcmp(argv[1], "f64") == 0;
  const bool premalloc = std::strcmp(argv[2], "premalloc") == 0;
  cudaFree(nullptr);
  for (int i = premalloc ? 3 : 2; i < argc; ++i) {
    if (std::strncmp(argv[i], "rmat", 4) == 0)
      f64 ? refusal<double>(argv[i]) : refusal<float>(argv[i]);
    else
      f64 ? run<double>(argv[i], premalloc) : run<float>(argv[i], premalloc);
  }
}
