// The catalogue of SpMM kernels of the cuda backend.
#include "core/determinism.hpp"
#include "cuda/format_kernels.hpp"
#include "cuda/param_specs.hpp"
#include "cuda/spmm_algorithm.hpp"

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

}  // namespace spmv::detail
