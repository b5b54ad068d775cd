// Kernel parameters: the spec builders of the kernel registries, and the one
// check of a plan's parameters against the specs of its kernel.
#pragma once

#include <climits>
#include <string>
#include <utility>
#include <vector>

#include "spmv/operator.hpp"

namespace spmv::detail {

inline KernelParamSpec one_of(std::string name, std::vector<int> allowed, std::string default_value,
                              std::string meaning) {
  return {std::move(name), std::move(allowed), 1, INT_MAX, std::move(default_value), std::move(meaning)};
}

inline KernelParamSpec in_range(std::string name, int min, int max, std::string default_value,
                                std::string meaning) {
  return {std::move(name), {}, min, max, std::move(default_value), std::move(meaning)};
}

// Throws InvalidArgument naming the kernel when `params` holds a name that
// `specs` does not list, or a value its spec does not allow.
void check_kernel_params(const std::string& kernel, const KernelParams& params,
                         const std::vector<KernelParamSpec>& specs);

}  // namespace spmv::detail
