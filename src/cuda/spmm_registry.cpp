// The catalogue of SpMM kernels of the cuda backend and the default SpMM.
#include "core/determinism.hpp"
#include "cuda/format_kernels.hpp"
#include "cuda/param_specs.hpp"
#include "cuda/spmm_algorithm.hpp"
#include "spmv/error.hpp"

namespace spmv::detail {

namespace {
KernelInfo spmm_info(const char* name, const char* format, const char* summary, std::vector<KernelParamSpec> params) {
  KernelInfo info{name, format, Backend::cuda, summary, std::move(params), true, true};
  info.spmm_only = true;
  return info;
}

// The ELLR-T build's parameters and L_c.
std::vector<KernelParamSpec> fastspmm_specs() {
  std::vector<KernelParamSpec> specs = ellr_t_specs();
  specs.push_back(one_of("columns_per_pass", {1, 2, 4, 8}, "8", "columns of C per pass over A (L_c)"));
  return specs;
}
}  // namespace

template <class T>
const std::vector<SpmmKernelEntry<T>>& spmm_kernel_registry() {
  // Each element of C is summed by one lane group in row order: no atomics.
  static const std::vector<SpmmKernelEntry<T>> registry = {
      {deterministic_kernel(spmm_info(
           "spmm-csr-vec", "csr",
           "CSR SpMM, a lane group per row: row-major B read in 16-byte loads, column-major B in column passes",
           {one_of("entry_lanes", {1, 2, 4, 8, 16, 32}, "the power of two at most the mean row length / 8",
                   "lanes sharing a row's entries (row-major: at most 32 / the lanes k columns need)"),
            one_of("columns_per_pass", {4, 8}, "8", "columns of B per pass (column-major B)"),
            block_size_spec()})),
       make_spmm_csr_vec<T>},
      {deterministic_kernel(spmm_info(
           "spmm-fastspmm", "ellpack-r",
           "FastSpMM: ELLR-T with L_c columns of C per pass, A read once per pass (Ortega et al., Algorithm 1)",
           fastspmm_specs())),
       make_spmm_fastspmm<T>},
      {deterministic_kernel(spmm_info(
           "spmm-setspmvs", "ellpack-r",
           "SetSpMVs: k separate ELLR-T SpMVs, A read once per column (the paper's baseline)", ellr_t_specs())),
       make_spmm_setspmvs<T>},
  };
  return registry;
}
template const std::vector<SpmmKernelEntry<float>>& spmm_kernel_registry();
template const std::vector<SpmmKernelEntry<double>>& spmm_kernel_registry();

template <class T>
const SpmmKernelEntry<T>* find_spmm_kernel(const std::string& name) {
  for (const auto& entry : spmm_kernel_registry<T>())
    if (entry.info.name == name) return &entry;
  return nullptr;
}
template const SpmmKernelEntry<float>* find_spmm_kernel(const std::string&);
template const SpmmKernelEntry<double>* find_spmm_kernel(const std::string&);

namespace {

// Narrow products (few columns) on one algorithm, the others on another.
template <class T>
class ColumnCountSpmm final : public SpmmAlgorithm<T> {
 public:
  ColumnCountSpmm(std::unique_ptr<SpmmAlgorithm<T>> narrow, std::unique_ptr<SpmmAlgorithm<T>> wide)
      : narrow_(std::move(narrow)), wide_(std::move(wide)) {}
  void spmm(const T* b, T* c, index_t k, Layout layout, T alpha, T beta,
            cudaStream_t stream) const override {
    (k <= fastspmm_default_max_columns ? narrow_ : wide_)
        ->spmm(b, c, k, layout, alpha, beta, stream);
  }
  KernelParams params() const override { return wide_->params(); }
  std::size_t device_bytes() const override {
    return narrow_->device_bytes() + wide_->device_bytes();
  }
  std::size_t matrix_bytes() const override { return wide_->matrix_bytes(); }
  double build_seconds() const override {
    return narrow_->build_seconds() + wide_->build_seconds();
  }

 private:
  std::unique_ptr<SpmmAlgorithm<T>> narrow_;
  std::unique_ptr<SpmmAlgorithm<T>> wide_;
};

}  // namespace

template <class T>
std::unique_ptr<SpmmAlgorithm<T>> make_default_spmm(const SpmmSource<T>& source,
                                                    bool extra_formats) {
  std::unique_ptr<SpmmAlgorithm<T>> wide = make_spmm_csr_vec(source, {});
  if (!extra_formats || source.device.nnz == 0) return wide;
  // The ELLR-T configuration and the padding check run where the matrix is
  // (host passes over the row lengths cost 40-80 ms on 9M rows); the check
  // comes before the ELLPACK-R copy is allocated.
  std::unique_ptr<SpmmAlgorithm<T>> narrow;
  try {
    narrow = make_spmm_fastspmm_within(source, fastspmm_default_max_padding);
  } catch (const FormatLimitError&) {
    return wide;
  }
  return std::make_unique<ColumnCountSpmm<T>>(std::move(narrow), std::move(wide));
}
template std::unique_ptr<SpmmAlgorithm<float>> make_default_spmm(const SpmmSource<float>&, bool);
template std::unique_ptr<SpmmAlgorithm<double>> make_default_spmm(const SpmmSource<double>&, bool);

}  // namespace spmv::detail
