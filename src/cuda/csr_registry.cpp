// The catalogue of CSR kernels of the cuda backend and the default choice.
#include <algorithm>
#include <string>

#include "cuda/csr_kernels.hpp"
#include "spmv/error.hpp"

namespace spmv::detail {

int param_or(const KernelParams& params, const std::string& kernel, const std::string& name,
             int fallback, const std::vector<int>& allowed) {
  const auto found = params.find(name);
  if (found == params.end()) return fallback;
  const int value = found->second;
  const bool ok = allowed.empty() ? value > 0
                                  : std::find(allowed.begin(), allowed.end(), value) != allowed.end();
  if (!ok) {
    std::string list;
    for (int a : allowed) list += (list.empty() ? "" : ", ") + std::to_string(a);
    throw InvalidArgument("kernel '" + kernel + "': " + name + "=" + std::to_string(value) +
                          " is not allowed (" + (list.empty() ? "must be positive" : "one of " + list) + ")");
  }
  return value;
}

template <class T>
const std::vector<CsrKernelEntry<T>>& csr_kernel_registry() {
  static const std::vector<CsrKernelEntry<T>> registry = {
      {{"csr-scalar", "csr", Backend::cuda, "one thread per row (the papers' naive kernel)",
        "block_size=64|128|256|512|1024", true, false},
       {"block_size"},
       make_csr_scalar<T>},
      {{"csr-vector", "csr", Backend::cuda,
        "a sub-warp of T lanes per row, shuffle reduction (thread mapping)",
        "threads_per_row=2|4|8|16|32 block_size=64..1024", true, false},
       {"threads_per_row", "block_size"},
       make_csr_vector<T>},
  };
  return registry;
}
template const std::vector<CsrKernelEntry<float>>& csr_kernel_registry();
template const std::vector<CsrKernelEntry<double>>& csr_kernel_registry();

template <class T>
KernelChoice default_csr_kernel(const Csr<T>& a) {
  // Sub-warp width: the power of two nearest below the mean row length, so
  // that most lanes have work (Bell & Garland; tuned later by measurement).
  const double mean = a.rows ? static_cast<double>(a.nnz()) / a.rows : 0.0;
  int lanes = 2;
  while (lanes < 32 && 2.0 * lanes <= mean) lanes *= 2;
  return {"csr-vector", {{"threads_per_row", lanes}}};
}
template KernelChoice default_csr_kernel(const Csr<float>&);
template KernelChoice default_csr_kernel(const Csr<double>&);

}  // namespace spmv::detail
