// Example: a GPU operator on your own CUDA stream, with x and y in device
// memory, so that the product is queued behind your other work and the call
// returns at once (no copies, no synchronisation, no allocation).
//
// The public API takes the matrix as a host Csr (plan() uploads it); only the
// vectors are handed over as device pointers here. Without a GPU the program
// says so and exits 0.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "spmv/gen.hpp"
#include "spmv/operator.hpp"

#define CHECK(call) \
  if (cudaError_t e = (call); e != cudaSuccess) return std::fprintf(stderr, "%s\n", cudaGetErrorString(e)), 1

int main() {
  if (!spmv::cuda_available()) {
    std::printf("no CUDA device: nothing to run\n");
    return 0;
  }
  const spmv::Csr<double> a = spmv::gen_stencil_2d_5pt(300, 300);  // 2-D Laplacian
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  spmv::PlanOptions options;
  options.backend = spmv::Backend::cuda;
  options.stream = static_cast<spmv::StreamHandle>(stream);  // a cudaStream_t cast to void*
  const auto op = spmv::plan(a, options);

  const std::vector<double> ones(a.cols, 1.0);
  double *x, *y;
  CHECK(cudaMalloc(&x, a.cols * sizeof(double)));
  CHECK(cudaMalloc(&y, a.rows * sizeof(double)));
  CHECK(cudaMemcpyAsync(x, ones.data(), a.cols * sizeof(double), cudaMemcpyHostToDevice, stream));

  op->apply(x, y);  // queued on `stream`; returns before the product has run

  std::vector<double> result(a.rows);
  CHECK(cudaMemcpyAsync(result.data(), y, a.rows * sizeof(double), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));  // now y is ready

  // A Laplacian's rows sum to 0 inside the grid, >0 on its border.
  std::printf("kernel %s on a stream of our own: y[0] = %g, y[%d] = %g\n",
              op->describe().kernel.c_str(), result[0], a.rows / 2 + 150, result[a.rows / 2 + 150]);
  const bool right = result[a.rows / 2 + 150] == 0.0;
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaStreamDestroy(stream));
  return right ? 0 : 1;
}
