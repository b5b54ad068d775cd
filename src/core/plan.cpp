// plan(): validates the matrix and hands it to the chosen backend's factory.
#include <algorithm>
#include <string>

#include "core/backends.hpp"
#include "core/permuted_operator.hpp"
#include "spmv/error.hpp"

namespace spmv {

std::vector<KernelInfo> kernel_catalogue() {
  std::vector<KernelInfo> all = detail::host_kernels();
#ifdef SPMV_HAVE_CUDA
  const std::vector<KernelInfo> gpu = detail::cuda_kernels();
  all.insert(all.end(), gpu.begin(), gpu.end());
#endif
  return all;
}

bool cuda_available() {
#ifdef SPMV_HAVE_CUDA
  return detail::cuda_device_present();
#else
  return false;
#endif
}

template <class T>
std::unique_ptr<Operator<T>> plan(const Csr<T>& a, const PlanOptions& options) {
  validate(a);
  if (options.reordering != Reordering::none) return detail::make_reordered_operator(a, options);
  switch (options.backend) {
    case Backend::reference: return detail::make_reference_operator(a, options);
    case Backend::cpu: return detail::make_cpu_operator(a, options);
    case Backend::cuda:
    case Backend::cusparse:
#ifdef SPMV_HAVE_CUDA
      if (!detail::cuda_device_present())
        throw Unavailable(std::string("backend '") + to_string(options.backend) +
                          "' needs a CUDA device and none was found");
      return options.backend == Backend::cuda ? detail::make_cuda_operator(a, options)
                                              : detail::make_cusparse_operator(a, options);
#else
      throw Unavailable(std::string("backend '") + to_string(options.backend) +
                        "' is not in this build (configured without CUDA)");
#endif
  }
  throw InvalidArgument("unknown backend");
}

template std::unique_ptr<Operator<float>> plan(const Csr<float>&, const PlanOptions&);
template std::unique_ptr<Operator<double>> plan(const Csr<double>&, const PlanOptions&);

namespace detail {

void check_param_names(const std::string& kernel, const KernelParams& params,
                       const std::vector<std::string>& accepted) {
  for (const auto& [name, value] : params) {
    (void)value;
    if (std::find(accepted.begin(), accepted.end(), name) == accepted.end()) {
      std::string list;
      for (const auto& a : accepted) list += (list.empty() ? "" : ", ") + a;
      throw InvalidArgument("kernel '" + kernel + "' has no parameter '" + name + "'" +
                            (list.empty() ? " (it takes none)" : " (it takes: " + list + ")"));
    }
  }
}

}  // namespace detail
}  // namespace spmv
