// The catalogue of host kernels and the lookup every backend's plan uses.
#include "cpu/host_kernels.hpp"

#include "core/backends.hpp"
#include "core/determinism.hpp"
#include "core/kernel_params.hpp"
#include "spmv/error.hpp"

namespace spmv::detail {

std::vector<KernelInfo> host_kernels() {
  // Both sum in an order fixed by the matrix (cpu-csr: and its thread count).
  return {
      deterministic_kernel({"reference", "csr", Backend::reference,
                            "serial CSR product accumulated in double, rounded once (the test oracle)", {}, true,
                            true}),
      deterministic_kernel({"cpu-csr", "csr", Backend::cpu,
                            "OpenMP CSR: rows split into non-zero-balanced chunks, one per thread",
                            {in_range("threads", 1, INT_MAX, "OpenMP's thread count", "threads sharing the rows")},
                            true, true}),
  };
}

KernelInfo find_kernel(const std::vector<KernelInfo>& catalogue, Backend backend,
                       const std::string& name) {
  std::string names;
  for (const KernelInfo& kernel : catalogue) {
    if (kernel.backend != backend) continue;
    if (name.empty() || kernel.name == name) return kernel;
    names += (names.empty() ? "" : ", ") + kernel.name;
  }
  if (names.empty())
    throw InvalidArgument(std::string("backend '") + to_string(backend) +
                          "' has no kernels in this build");
  throw InvalidArgument("unknown kernel '" + name + "' for backend '" + to_string(backend) +
                        "' (valid: " + names + ")");
}

void check_spmm_columns(index_t k) {
  if (k < 0) throw InvalidArgument("spmm: k must not be negative (got " + std::to_string(k) + ")");
}

}  // namespace spmv::detail
