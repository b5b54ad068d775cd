// Kernels of the non-CSR storage formats (ELL, ELLPACK-R, HYB, DIA, SELL-C-s,
// blocked, COO, segmented scan, BRO-*, ...).
//
// A FormatKernel owns its format's device arrays, built at plan time on the
// device from the CSR already uploaded (device_build.hpp; the host builders
// of src/formats/ are the reference they are tested against), and computes
// y = alpha A x + beta y. The operator keeps a device CSR of A beside it for
// apply_transposed and spmm unless the plan asks for SpMV only.
// Each format's kernels live in src/cuda/<format>_<algo>.cu and register in
// format_registry.cpp.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cuda/csr_algorithm.hpp"
#include "spmv/matrix.hpp"
#include "spmv/operator.hpp"

namespace spmv::detail {

template <class T>
class FormatKernel {
 public:
  virtual ~FormatKernel() = default;
  // y = alpha * A * x + beta * y on `stream`; with beta == 0, y is not read.
  // Never allocates or synchronises.
  virtual void spmv(const T* x, T* y, T alpha, T beta, cudaStream_t stream) const = 0;
  virtual KernelParams params() const = 0;
  virtual std::size_t device_bytes() const = 0;
  // Compulsory bytes of the stored format (all its arrays once, padding included).
  virtual std::size_t matrix_bytes() const = 0;
  // The index compression of a compressing format (BRO-*); empty otherwise.
  virtual std::optional<CompressionMetrics> index_compression() const { return std::nullopt; }
};

// What a format kernel is built from: the CSR already on the device.
template <class T>
struct FormatSource {
  CsrView<T> device;
  cudaStream_t stream = nullptr;
};

template <class T>
struct FormatKernelEntry {
  KernelInfo info;  // info.params: what `make` accepts (checked before it is called)
  // Builds the format from `a`. Throws InvalidArgument for parameters the
  // format refuses and spmv::Error (with the reason and a format to use
  // instead) when the format would exceed its memory limit.
  std::function<std::unique_ptr<FormatKernel<T>>(const FormatSource<T>& a, const KernelParams& params)> make;
};

template <class T>
const std::vector<FormatKernelEntry<T>>& format_kernel_registry();

}  // namespace spmv::detail
