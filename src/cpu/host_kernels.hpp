// Helpers shared by the host operators (reference and cpu): choosing a kernel
// of a backend by name and the figures of describe().
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "spmv/operator.hpp"

namespace spmv::detail {

// The kernel of `backend` called `name` in `catalogue`, or the backend's first
// kernel when `name` is empty. Throws InvalidArgument listing the backend's
// kernels when there is no such kernel.
KernelInfo find_kernel(const std::vector<KernelInfo>& catalogue, Backend backend,
                       const std::string& name);

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Throws InvalidArgument for a negative SpMM column count.
void check_spmm_columns(index_t k);

}  // namespace spmv::detail
