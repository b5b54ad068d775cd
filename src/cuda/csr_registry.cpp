// The catalogue of CSR kernels of the cuda backend and the default choice.
#include <algorithm>
#include <string>

#include "cuda/csr_kernels.hpp"
#include "spmv/error.hpp"

namespace spmv::detail {

int param_or(const KernelParams& params, const std::string& kernel, const std::string& name,
             int fallback, const std::vector<int>& allowed) {
  const auto found = params.find(name);
  if (found == params.end()) return fallback;
  const int value = found->second;
  const bool ok = allowed.empty() ? value > 0
                                  : std::find(allowed.begin(), allowed.end(), value) != allowed.end();
  if (!ok) {
    std::string list;
    for (int a : allowed) list += (list.empty() ? "" : ", ") + std::to_string(a);
    throw InvalidArgument("kernel '" + kernel + "': " + name + "=" + std::to_string(value) +
                          " is not allowed (" + (list.empty() ? "must be positive" : "one of " + list) + ")");
  }
  return value;
}

template <class T>
const std::vector<CsrKernelEntry<T>>& csr_kernel_registry() {
  static const std::vector<CsrKernelEntry<T>> registry = {
      {{"csr-scalar", "csr", Backend::cuda, "one thread per row (the papers' naive kernel)",
        "block_size=64|128|256|512|1024", true, false},
       {"block_size"},
       make_csr_scalar<T>},
      {{"csr-vector", "csr", Backend::cuda,
        "a sub-warp of T lanes per row, shuffle reduction (thread mapping)",
        "threads_per_row=2|4|8|16|32 block_size=64..1024", true, false},
       {"threads_per_row", "block_size"},
       make_csr_vector<T>},
      {{"csr-aligned", "csr", Backend::cuda,
        "csr-vector whose steps read aligned segments, the row's unaligned head first (Baskaran)",
        "threads_per_row=2|4|8|16|32", true, false},
       {"threads_per_row"},
       make_csr_aligned<T>},
      {{"csr-vector-tuned", "csr", Backend::cuda,
        "csr-vector with the thesis's variants: load width, x path, rows per sub-warp, order",
        "threads_per_row=1|2|4|8|16|32 vector_width=1|2|4 cached_x=0|1 rows_per_subwarp=1|2|4|8 "
        "cyclic_rows=0|1 block_size=64..1024",
        true, false},
       {"threads_per_row", "vector_width", "cached_x", "rows_per_subwarp", "cyclic_rows", "block_size"},
       make_csr_vector_tuned<T>},
      {{"csr-pcsr", "csr", Backend::cuda,
        "PCSR: products into a middle array, then per-row sums through shared memory",
        "block_size=64|128|256|512", true, false},
       {"block_size"},
       make_csr_pcsr<T>},
      {{"csr-merge", "csr", Backend::cuda,
        "merge path: equal shares of rows + entries per block, carries fixed up in a second pass",
        "items_per_thread=4|8|12|16", true, false},
       {"items_per_thread"},
       make_csr_merge<T>},
      {{"csr-adaptive", "csr", Backend::cuda,
        "row blocks of ~constant entries: CSR-stream for short rows, block reduction for long ones",
        "block_size=128|256 items_per_thread=4|8|12", true, false},
       {"block_size", "items_per_thread"},
       make_csr_adaptive<T>},
  };
  return registry;
}
template const std::vector<CsrKernelEntry<float>>& csr_kernel_registry();
template const std::vector<CsrKernelEntry<double>>& csr_kernel_registry();

template <class T>
KernelChoice default_csr_kernel(const Csr<T>& a) {
  // A first rule from row-length statistics, to be tuned by measurement.
  // Irregular rows (the longest far above the mean: power-law, circuit, LP)
  // or long rows go to csr-adaptive, whose row blocks hold about the same
  // number of entries whatever the row lengths. Regular short rows go to
  // csr-vector with a sub-warp of the power of two nearest below the mean
  // row length, so that most lanes have work (Bell & Garland).
  const double mean = a.rows ? static_cast<double>(a.nnz()) / a.rows : 0.0;
  index_t longest = 0;
  for (index_t r = 0; r < a.rows; ++r) longest = std::max(longest, a.row_ptr[r + 1] - a.row_ptr[r]);
  if (longest > 4 * mean + 32 || mean > 64) return {"csr-adaptive", {}};
  int lanes = 2;
  while (lanes < 32 && 2.0 * lanes <= mean) lanes *= 2;
  return {"csr-vector", {{"threads_per_row", lanes}}};
}
template KernelChoice default_csr_kernel(const Csr<float>&);
template KernelChoice default_csr_kernel(const Csr<double>&);

}  // namespace spmv::detail
