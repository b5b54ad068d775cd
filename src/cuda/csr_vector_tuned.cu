// CSR-vector with the thesis's implementation choices as parameters (El Zein,
// 2009: coalesced vs sequential reads, load widths, where x is read from,
// rows per thread group, threads per block), on today's hardware.
//
// The sub-warp engine of csr_subwarp_rows.cu: a sub-warp of threads_per_row
// lanes per row (1 = the thesis's "sequential" thread-per-row kernel, 32 =
// its "coalesced" one); each lane loads vector_width consecutive entries at a
// time (4/8/16-byte index loads, values likewise, the row's first step
// rounded down to that width so that loads are aligned); x through the
// read-only cache (cached_x=1, the texture path of the thesis) or plain
// loads; each sub-warp multiplies rows_per_subwarp rows, blocked
// (consecutive, cyclic_rows=0), cyclic (strided by the sub-warp count,
// cyclic_rows=1) or swept by its block (cyclic over the sub-warps of a block
// that owns a contiguous range of rows, cyclic_rows=2); block_size threads
// per block. Matrix arrays are streamed evict-first; a shuffle
// reduction combines a row's lanes and the first lane writes y.
#include "cuda/csr_kernels.hpp"
#include "cuda/csr_subwarp_rows.hpp"
#include "cuda/vector_loads.cuh"

namespace spmv::detail {

namespace {

template <class T>
class CsrVectorTuned final : public CsrAlgorithm<T> {
 public:
  explicit CsrVectorTuned(const SubwarpRowsConfig& config) : config_(config) {}

  void prepare(const CsrView<T>& device) override {
    if (config_.vector_width > 1) require_vector_alignment(device, "csr-vector-tuned");
  }
  void spmv(const CsrView<T>& a, const T* x, T* y, T alpha, T beta,
            cudaStream_t stream) const override {
    spmv_csr_subwarp_rows(config_, a, x, y, alpha, beta, stream);
  }
  KernelParams params() const override {
    return {{"threads_per_row", config_.threads_per_row},
            {"vector_width", config_.vector_width},
            {"cached_x", config_.cached_x ? 1 : 0},
            {"rows_per_subwarp", config_.rows_per_subwarp},
            {"cyclic_rows", static_cast<int>(config_.row_order)},
            {"block_size", config_.block_size}};
  }

 private:
  SubwarpRowsConfig config_;
};

}  // namespace

template <class T>
std::unique_ptr<CsrAlgorithm<T>> make_csr_vector_tuned(const KernelParams& params) {
  SubwarpRowsConfig config;
  config.threads_per_row = param_or(params, "threads_per_row", 8);
  config.vector_width = param_or(params, "vector_width", 4);
  config.alignment = config.vector_width;
  config.cached_x = param_or(params, "cached_x", 1) == 1;
  config.rows_per_subwarp = param_or(params, "rows_per_subwarp", 1);
  config.row_order = static_cast<RowOrder>(param_or(params, "cyclic_rows", 0));
  config.block_size = param_or(params, "block_size", default_block_size);
  return std::make_unique<CsrVectorTuned<T>>(config);
}
template std::unique_ptr<CsrAlgorithm<float>> make_csr_vector_tuned(const KernelParams&);
template std::unique_ptr<CsrAlgorithm<double>> make_csr_vector_tuned(const KernelParams&);

}  // namespace spmv::detail
