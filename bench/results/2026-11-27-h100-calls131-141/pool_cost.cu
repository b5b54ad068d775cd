// TEMPORARY: what a stream-ordered pool's first uses cost.
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <cstdint>
using clk = std::chrono::steady_clock;
static double ms(clk::time_point a) { return std::chrono::duration<double, std::milli>(clk::now() - a).count(); }
#define T(label, stmt) do { auto t0 = clk::now(); stmt; cudaStreamSynchronize(s); printf("%-48s %8.3f ms\n", label, ms(t0)); } while (0)
int main(int argc, char**) {
  cudaFree(0);
  cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  void* p = nullptr;
  T("cudaMalloc 16 MB", cudaMalloc(&p, 16 << 20));
  T("cudaFree 16 MB", cudaFree(p));
  cudaMemPool_t pool;
  cudaMemPoolProps props{}; props.allocType = cudaMemAllocationTypePinned; props.location.type = cudaMemLocationTypeDevice; props.location.id = 0;
  if (argc > 1) {
    T("default pool get", cudaDeviceGetDefaultMemPool(&pool, 0));
  } else {
    T("cudaMemPoolCreate", cudaMemPoolCreate(&pool, &props));
  }
  std::uint64_t keep = 256ull << 20;
  T("set release threshold", cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  T("first alloc 4 B", cudaMallocFromPoolAsync(&p, 4, pool, s));
  T("free 4 B", cudaFreeAsync(p, s));
  T("alloc 4 B again", cudaMallocFromPoolAsync(&p, 4, pool, s));
  T("free 4 B again", cudaFreeAsync(p, s));
  T("alloc 16 MB", cudaMallocFromPoolAsync(&p, 16 << 20, pool, s));
  T("free 16 MB", cudaFreeAsync(p, s));
  T("alloc 16 MB again", cudaMallocFromPoolAsync(&p, 16 << 20, pool, s));
  T("free 16 MB again", cudaFreeAsync(p, s));
  T("alloc 200 MB", cudaMallocFromPoolAsync(&p, 200 << 20, pool, s));
  T("free 200 MB", cudaFreeAsync(p, s));
  T("alloc 200 MB again", cudaMallocFromPoolAsync(&p, 200 << 20, pool, s));
  T("free 200 MB again", cudaFreeAsync(p, s));
  void* q[8];
  T("8 allocs of 1 MB", for (auto& x : q) cudaMallocFromPoolAsync(&x, 1 << 20, pool, s));
  T("8 frees of 1 MB", for (auto& x : q) cudaFreeAsync(x, s));
  T("8 allocs of 1 MB again", for (auto& x : q) cudaMallocFromPoolAsync(&x, 1 << 20, pool, s));
  T("8 frees of 1 MB again", for (auto& x : q) cudaFreeAsync(x, s));
  printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
}
