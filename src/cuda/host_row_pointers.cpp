#include "cuda/csr_algorithm.hpp"
#include "cuda/device_build.hpp"

namespace spmv::detail {

const std::vector<index_t>& HostRowPointers::get() const {
  if (host_) return *host_;
  if (copied_.empty()) copied_ = device_values(device_, static_cast<std::size_t>(rows_) + 1, nullptr);
  return copied_;
}

}  // namespace spmv::detail
