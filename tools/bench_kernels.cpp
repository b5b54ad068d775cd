#include "bench_kernels.hpp"

#include <algorithm>
#include <sstream>

#include "cli_common.hpp"
#include "spmv/error.hpp"

namespace spmv::cli {

Backend chosen_backend(const std::string& name, const std::string& command) {
  if (name == "auto") return cuda_available() ? Backend::cuda : Backend::cpu;
  const Backend backend = backend_from_string(name.c_str());
  if ((backend == Backend::cuda || backend == Backend::cusparse) && !cuda_available())
    throw Unavailable(command + ": backend '" + name + "' cannot run here: CUDA backends " +
                      cuda_status() + "; use --backend cpu");
  return backend;
}

std::vector<std::string> split_commas(const std::string& list) {
  std::vector<std::string> items;
  std::stringstream stream(list);
  for (std::string item; std::getline(stream, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

std::vector<std::string> kernels_of(Backend backend, index_t k) {
  const std::vector<KernelInfo> catalogue = kernel_catalogue();
  const bool has_spmm_kernels = std::any_of(
      catalogue.begin(), catalogue.end(),
      [&](const KernelInfo& kernel) { return kernel.backend == backend && kernel.spmm_only; });
  std::vector<std::string> names;
  for (const KernelInfo& kernel : catalogue) {
    if (kernel.backend != backend) continue;
    const bool computes_it =
        k == 1 ? !kernel.spmm_only : kernel.spmm_only || (!has_spmm_kernels && kernel.spmm);
    if (computes_it) names.push_back(kernel.name);
  }
  return names;
}

std::vector<std::string> chosen_kernels(const std::string& list, Backend backend,
                                        const std::string& command,
                                        const std::vector<std::string>& extra_names, index_t k) {
  if (list == "all") return kernels_of(backend, k);
  std::vector<std::string> valid;
  for (const KernelInfo& kernel : kernel_catalogue())
    if (kernel.backend == backend) valid.push_back(kernel.name);
  const auto known = [&](const std::string& name) {
    return std::find(valid.begin(), valid.end(), name) != valid.end() ||
           std::find(extra_names.begin(), extra_names.end(), name) != extra_names.end();
  };
  const std::vector<std::string> names = split_commas(list);
  for (const std::string& name : names)
    if (!known(name)) {
      std::string listed;
      for (const std::string& v : valid) listed += (listed.empty() ? "" : ", ") + v;
      for (const std::string& v : extra_names) listed += ", " + v;
      throw InvalidArgument(command + ": unknown kernel '" + name + "' for backend '" +
                            to_string(backend) + "' (valid: " + listed + ")");
    }
  return names;
}

std::vector<KernelRun> runs_with_baseline(Backend backend, const std::vector<std::string>& kernels,
                                          index_t k) {
  std::vector<KernelRun> runs;
  if (backend == Backend::cuda)
    for (const std::string& kernel : kernels_of(Backend::cusparse, k))
      runs.emplace_back(Backend::cusparse, kernel);
  for (const std::string& kernel : kernels) runs.emplace_back(backend, kernel);
  return runs;
}

}  // namespace spmv::cli
