// Aligned CSR-vector (Baskaran & Bordawekar, 2009: "optimized thread mapping"
// plus "aligned global memory access").
//
// A sub-warp of threads_per_row lanes per row, as in csr-vector, but the
// sub-warp's first step starts at the row start rounded down to a multiple of
// threads_per_row entries: the lanes below the row start idle in that step
// (the row's unaligned head), and every step reads exactly one aligned
// segment of threads_per_row entries of col_idx and values (with 32 lanes:
// 128 bytes of indices), coalesced and evict-first. x is read through the
// read-only cache; the lanes' sums meet in a shuffle reduction and the first
// lane writes y. The kernel is the sub-warp engine of csr_subwarp_rows.cu
// with one-entry loads and alignment = threads_per_row.
#include "cuda/csr_kernels.hpp"
#include "cuda/csr_subwarp_rows.hpp"

namespace spmv::detail {

namespace {

template <class T>
class CsrAligned final : public CsrAlgorithm<T> {
 public:
  explicit CsrAligned(int threads_per_row) {
    config_.threads_per_row = threads_per_row;
    config_.alignment = threads_per_row;
  }
  void spmv(const CsrView<T>& a, const T* x, T* y, T alpha, T beta,
            cudaStream_t stream) const override {
    spmv_csr_subwarp_rows(config_, a, x, y, alpha, beta, stream);
  }
  KernelParams params() const override { return {{"threads_per_row", config_.threads_per_row}}; }

 private:
  SubwarpRowsConfig config_;
};

}  // namespace

template <class T>
std::unique_ptr<CsrAlgorithm<T>> make_csr_aligned(const KernelParams& params) {
  return std::make_unique<CsrAligned<T>>(
      // Default 16: the paper's half-warp per row.
      param_or(params, "threads_per_row", 16));
}
template std::unique_ptr<CsrAlgorithm<float>> make_csr_aligned(const KernelParams&);
template std::unique_ptr<CsrAlgorithm<double>> make_csr_aligned(const KernelParams&);

}  // namespace spmv::detail
