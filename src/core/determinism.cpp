#include "core/determinism.hpp"

#include <string>

#include "spmv/error.hpp"

namespace spmv::detail {

void check_deterministic_kernel(const std::vector<KernelInfo>& catalogue, const PlanOptions& options) {
  if (!options.deterministic || options.kernel.empty()) return;
  std::string offered;
  const KernelInfo* named = nullptr;
  for (const KernelInfo& kernel : catalogue) {
    if (kernel.backend != options.backend) continue;
    if (kernel.name == options.kernel) named = &kernel;
    if (kernel.deterministic) offered += (offered.empty() ? "" : ", ") + kernel.name;
  }
  if (!named || named->deterministic) return;
  throw InvalidArgument("kernel '" + named->name + "' of backend '" + to_string(options.backend) +
                        "' is not deterministic (its results may differ in the last bits from run to run), and "
                        "deterministic mode was asked for; deterministic kernels of this backend: " +
                        (offered.empty() ? std::string("none") : offered));
}

}  // namespace spmv::detail
