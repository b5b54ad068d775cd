// CUDA loads a kernel on its first launch (lazy loading, the default since
// CUDA 12.2). On an H100 a process's first DIA build took about 1.5 ms more
// than with every kernel loaded at start (device call 137): a cost the first
// operator of each kernel paid after its upload. While the CSR of a host
// matrix uploads, KernelWarmUp runs the chosen kernel's preparation and one
// product on a sample of the matrix (its first rows) on a helper thread, so
// that the kernels are loaded by the time the real build starts.
//
// Once per kernel, precision and device in a process. What goes wrong on the
// sample (a refusal, a short device) is dropped: the real build reports it.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <string>
#include <thread>

#include "cuda/csr_algorithm.hpp"

namespace spmv::detail {

template <class T>
class KernelWarmUp {
 public:
  // run(sample, stream) prepares the kernel on `sample` (a CSR on the
  // current device) and multiplies once, on `stream`.
  using Run = std::function<void(const CsrView<T>& sample, cudaStream_t stream)>;
  KernelWarmUp(const Csr<T>& a, const std::string& kernel, Run run);
  ~KernelWarmUp() { finish(); }
  KernelWarmUp(const KernelWarmUp&) = delete;
  KernelWarmUp& operator=(const KernelWarmUp&) = delete;

  // Waits for the helper (before the real build, which it must not compete with).
  void finish() {
    if (helper_.joinable()) helper_.join();
  }

 private:
  std::thread helper_;
};

}  // namespace spmv::detail
