#include "cuda/cuda_check.hpp"
#include "cuda/csr_algorithm.hpp"

namespace spmv::detail {

const std::vector<index_t>& HostRowPointers::get() const {
  if (host_) return *host_;
  if (copied_.empty()) {
    copied_.resize(static_cast<std::size_t>(rows_) + 1);
    SPMV_CUDA_CHECK(
        cudaMemcpy(copied_.data(), device_, copied_.size() * sizeof(index_t), cudaMemcpyDeviceToHost));
  }
  return copied_;
}

}  // namespace spmv::detail
