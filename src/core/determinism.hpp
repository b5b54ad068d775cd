// Deterministic mode (PlanOptions::deterministic): which catalogue rows
// offer it, and the refusal of a named kernel that does not.
#pragma once

#include <vector>

#include "spmv/operator.hpp"

namespace spmv::detail {

// A catalogue row whose operator gives bitwise identical results run to run
// when planned in deterministic mode (KernelInfo::deterministic).
inline KernelInfo deterministic_kernel(KernelInfo info) {
  info.deterministic = true;
  return info;
}

// Whether the plan may take `kernel` under `options`.
inline bool admissible(const KernelInfo& kernel, const PlanOptions& options) {
  return kernel.deterministic || !options.deterministic;
}

// In deterministic mode, throws InvalidArgument when options.kernel names a
// kernel of options.backend in `catalogue` that is not deterministic; the
// message lists the backend's deterministic kernels. Unknown names are left
// to the backend, which names its kernels.
void check_deterministic_kernel(const std::vector<KernelInfo>& catalogue, const PlanOptions& options);

}  // namespace spmv::detail
