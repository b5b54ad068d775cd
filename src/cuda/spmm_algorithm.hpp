// The SpMM kernel family on the device: C = alpha * A * B + beta * C with B
// (cols x k) and C (rows x k) dense, row- or column-major, no padding.
//
// An SpMM algorithm is built once at plan time from the host matrix (it may
// build and upload its own format, e.g. ELLPACK-R) or from the operator's
// device CSR, and then launched by every spmm(). spmm() never allocates,
// never synchronises and checks its launches. Each algorithm lives in
// src/cuda/spmm_<algo>.cu, whose opening comment gives its work
// decomposition, and is listed in spmm_registry.cpp.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cuda/csr_algorithm.hpp"

namespace spmv::detail {

template <class T>
class SpmmAlgorithm {
 public:
  virtual ~SpmmAlgorithm() = default;
  // On `stream`; with beta == 0, C is not read. k >= 0.
  virtual void spmm(const T* b, T* c, index_t k, Layout layout, T alpha, T beta,
                    cudaStream_t stream) const = 0;
  virtual KernelParams params() const = 0;
  // Device bytes held beyond the operator's device CSR.
  virtual std::size_t device_bytes() const { return 0; }
  // Compulsory bytes of the matrix as this algorithm stores it.
  virtual std::size_t matrix_bytes() const = 0;
  // Seconds of host-side conversion from Csr (0 for CSR algorithms).
  virtual double build_seconds() const { return 0; }
};

// What a factory receives: the operator's device CSR (which must outlive the
// algorithm).
template <class T>
struct SpmmSource {
  CsrView<T> device;
};

template <class T>
struct SpmmKernelEntry {
  KernelInfo info;  // info.spmm_only is true; info.params: what `make` accepts (checked before it is called)
  // Throws FormatLimitError when the algorithm's format would exceed its
  // padding limit.
  std::function<std::unique_ptr<SpmmAlgorithm<T>>(const SpmmSource<T>&, const KernelParams&)> make;
};

// All SpMM kernels of the cuda backend, in catalogue order.
template <class T>
const std::vector<SpmmKernelEntry<T>>& spmm_kernel_registry();

// The entry named `name`, or nullptr.
template <class T>
const SpmmKernelEntry<T>* find_spmm_kernel(const std::string& name);

// The SpMM that runs where none is planned: a cuda operator's in a CUDA
// graph capture before its plan for that k and layout, or when planned with
// spmv_only (cuda_operator.cpp); the out-of-core SpMM's default.
inline constexpr const char* default_spmm_kernel = "spmm-csr-vec";

// Factories, one per file src/cuda/spmm_<algo>.cu.
template <class T>
std::unique_ptr<SpmmAlgorithm<T>> make_spmm_csr_vec(const SpmmSource<T>& source,
                                                    const KernelParams& params);
template <class T>
std::unique_ptr<SpmmAlgorithm<T>> make_spmm_fastspmm(const SpmmSource<T>& source,
                                                     const KernelParams& params);
template <class T>
std::unique_ptr<SpmmAlgorithm<T>> make_spmm_setspmvs(const SpmmSource<T>& source,
                                                     const KernelParams& params);

}  // namespace spmv::detail
