// Example: a matrix and vectors that live on the GPU already. The plan reads
// the matrix's three device arrays where they are (spmv::DeviceCsrView: no
// upload; the operator keeps a device copy of its own), and the product runs
// on your own CUDA stream with x and y in device memory, so that it is queued
// behind your other work and the call returns at once (no copies, no
// synchronisation, no allocation). Without a GPU the program says so and
// exits 0.
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
  // The matrix's arrays on the device, as an application that assembled it there would hold them.
  spmv::index_t *row_ptr, *col_idx;
  double* values;
  CHECK(cudaMalloc(&row_ptr, a.row_ptr.size() * sizeof(spmv::index_t)));
  CHECK(cudaMalloc(&col_idx, a.col_idx.size() * sizeof(spmv::index_t)));
  CHECK(cudaMalloc(&values, a.values.size() * sizeof(double)));
  CHECK(cudaMemcpy(row_ptr, a.row_ptr.data(), a.row_ptr.size() * sizeof(spmv::index_t), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(col_idx, a.col_idx.data(), a.col_idx.size() * sizeof(spmv::index_t), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(values, a.values.data(), a.values.size() * sizeof(double), cudaMemcpyHostToDevice));
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  spmv::PlanOptions options;
  options.backend = spmv::Backend::cuda;
  options.stream = static_cast<spmv::StreamHandle>(stream);  // a cudaStream_t cast to void*
  const auto op = spmv::plan(spmv::DeviceCsrView<double>{a.rows, a.cols, a.nnz(), row_ptr, col_idx, values}, options);
  CHECK(cudaFree(row_ptr));  // the operator holds a copy: the arrays may go
  CHECK(cudaFree(col_idx));
  CHECK(cudaFree(values));

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
  std::printf("kernel %s, planned from device arrays, on a stream of our own: y[0] = %g, y[%d] = %g\n",
              op->describe().kernel.c_str(), result[0], a.rows / 2 + 150, result[a.rows / 2 + 150]);
  const bool right = result[a.rows / 2 + 150] == 0.0;
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaStreamDestroy(stream));
  return right ? 0 : 1;
}
