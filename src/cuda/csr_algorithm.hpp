// The CSR kernel family on the device: one CsrAlgorithm per named kernel.
//
// An algorithm is built once at plan time (prepare: inspect the host matrix,
// make its own device workspace), then launched by every apply. spmv() never
// allocates, never synchronises, and checks its launches (SPMV_LAUNCH_CHECK).
// Each algorithm lives in its own file src/cuda/csr_<algo>.cu, whose opening
// comment states the work decomposition (who computes what, what is coalesced,
// what is cached), and registers itself in csr_registry.cu.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "spmv/matrix.hpp"
#include "spmv/operator.hpp"

namespace spmv::detail {

// Device arrays of a canonical Csr (owned by the operator).
template <class T>
struct CsrView {
  index_t rows = 0;
  index_t cols = 0;
  index_t nnz = 0;
  const index_t* row_ptr = nullptr;
  const index_t* col_idx = nullptr;
  const T* values = nullptr;
};

// The kernels' view of a CSR handed over on the device.
template <class T>
CsrView<T> view_of(const DeviceCsrView<T>& a) {
  return {a.rows, a.cols, a.nnz, a.row_ptr, a.col_idx, a.values};
}
// ... and the other way: an operator's CSR handed to make_plan or another operator.
template <class T>
DeviceCsrView<T> device_view_of(const CsrView<T>& a) {
  return {a.rows, a.cols, a.nnz, a.row_ptr, a.col_idx, a.values};
}

template <class T>
class CsrAlgorithm {
 public:
  virtual ~CsrAlgorithm() = default;
  // Plan time, from the matrix on the device (nothing copied back). May allocate.
  virtual void prepare(const CsrView<T>& device) { (void)device; }
  // y = alpha * A * x + beta * y on `stream`; with beta == 0, y is not read.
  virtual void spmv(const CsrView<T>& a, const T* x, T* y, T alpha, T beta,
                    cudaStream_t stream) const = 0;
  // The parameters in force (defaults filled in), for describe().
  virtual KernelParams params() const = 0;
  // The kernel that multiplies, when prepare() handed the matrix to another
  // (csr-hub to csr-adaptive below its hub_min_share; params() are then that
  // kernel's); empty: this one.
  virtual std::string handed_to() const { return {}; }
  // Device bytes held by prepare() beyond the CSR arrays.
  virtual std::size_t workspace_bytes() const { return 0; }
};

// A registry row: what the kernel is, and how to make it from parameters.
template <class T>
struct CsrKernelEntry {
  KernelInfo info;  // info.params: what `make` accepts (checked before it is called)
  std::function<std::unique_ptr<CsrAlgorithm<T>>(const KernelParams&)> make;
};

// All CSR kernels of the cuda backend, in catalogue order.
template <class T>
const std::vector<CsrKernelEntry<T>>& csr_kernel_registry();

// The kernel (and parameters) used for a matrix when none is forced.
struct KernelChoice {
  std::string name;
  KernelParams params;
};
template <class T>
KernelChoice default_csr_kernel(const Csr<T>& a);
// The same for a matrix on the device, profiled there (row_profile.cu); its
// columns checked.
template <class T>
KernelChoice default_csr_kernel(const CsrView<T>& a);

// Row-length and locality figures the default rule reads (one pass over
// row_ptr and the first and last column of each row).
struct RowProfile {
  double mean_length = 0;
  index_t longest = 0;
  double empty_fraction = 0;
  double mean_span = 0;  // mean of (last column - first column) over non-empty rows
};
template <class T>
RowProfile row_profile_on_device(const CsrView<T>& a);

// Parameter `name` from `params` (checked against the kernel's specs when
// planned), or `fallback` when absent.
inline int param_or(const KernelParams& params, const std::string& name, int fallback) {
  const auto found = params.find(name);
  return found == params.end() ? fallback : found->second;
}

// Shared launch helpers.
constexpr int warp_size = 32;
constexpr int default_block_size = 256;
inline unsigned blocks_for(std::size_t work_items, int threads_per_block) {
  return static_cast<unsigned>((work_items + threads_per_block - 1) / threads_per_block);
}

}  // namespace spmv::detail
