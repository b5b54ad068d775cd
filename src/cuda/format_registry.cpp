// The catalogue of non-CSR format kernels of the cuda backend.
#include "cuda/format_kernel.hpp"

namespace spmv::detail {

template <class T>
const std::vector<FormatKernelEntry<T>>& format_kernel_registry() {
  static const std::vector<FormatKernelEntry<T>> registry = {};
  return registry;
}
template const std::vector<FormatKernelEntry<float>>& format_kernel_registry();
template const std::vector<FormatKernelEntry<double>>& format_kernel_registry();

}  // namespace spmv::detail
