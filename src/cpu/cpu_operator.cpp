// The cpu backend as an Operator: owns a copy of A (and A^T when asked), the
// row partition and the transposed product's workspace, all made in plan().
#include <omp.h>

#include <chrono>
#include <optional>

#include "core/backends.hpp"
#include "core/kernel_params.hpp"
#include "cpu/csr_kernels.hpp"
#include "cpu/host_kernels.hpp"
#include "spmv/error.hpp"
#include "spmv/formats/footprint.hpp"

namespace spmv::detail {

namespace {

int thread_count(const KernelParams& params) {
  const auto found = params.find("threads");
  return found == params.end() ? omp_get_max_threads() : found->second;
}

template <class T>
class CpuOperator final : public Operator<T> {
 public:
  CpuOperator(const Csr<T>& a, const PlanOptions& options, const KernelInfo& kernel, int threads)
      : Operator<T>(a.rows, a.cols) {
    auto start = std::chrono::steady_clock::now();
    a_ = a;
    if (options.explicit_transpose) transposed_ = transpose(a_);
    description_.build_seconds = seconds_since(start);

    start = std::chrono::steady_clock::now();
    rows_ = balanced_row_partition(a_.row_ptr, threads);
    if (transposed_)
      transposed_rows_ = balanced_row_partition(transposed_->row_ptr, threads);
    else
      transpose_workspace_ = make_transpose_workspace(a_, rows_);
    description_.analysis_seconds = seconds_since(start);

    description_.backend = Backend::cpu;
    description_.format = kernel.format;
    description_.kernel = kernel.name;
    description_.params = {{"threads", threads}};
    description_.matrix_bytes = csr_bytes(a_.rows, a_.nnz(), sizeof(T));
  }

  void run_apply(const T* x, T* y, T alpha, T beta) override { csr_spmv(a_, rows_, x, y, alpha, beta); }

  void run_apply_transposed(const T* x, T* y, T alpha, T beta) override {
    if (transposed_)
      csr_spmv(*transposed_, transposed_rows_, x, y, alpha, beta);
    else
      csr_spmv_transposed(a_, rows_, transpose_workspace_, x, y, alpha, beta);
  }

  void run_spmm(const T* b, T* c, index_t k, Layout layout, T alpha, T beta) override {
    check_spmm_columns(k);
    csr_spmm(a_, rows_, b, c, k, layout, alpha, beta);
  }

  OperatorDescription describe() const override { return description_; }

 private:
  Csr<T> a_;
  RowPartition rows_;
  std::optional<Csr<T>> transposed_;  // only with PlanOptions::explicit_transpose
  RowPartition transposed_rows_;
  TransposeWorkspace<T> transpose_workspace_;  // only without it
  OperatorDescription description_;
};

}  // namespace

template <class T>
std::unique_ptr<Operator<T>> make_cpu_operator(const Csr<T>& a, const PlanOptions& options) {
  const KernelInfo kernel = find_kernel(host_kernels(), Backend::cpu, options.kernel);
  check_kernel_params(kernel.name, options.params, kernel.params);
  return std::make_unique<CpuOperator<T>>(a, options, kernel, thread_count(options.params));
}

template std::unique_ptr<Operator<float>> make_cpu_operator(const Csr<float>&, const PlanOptions&);
template std::unique_ptr<Operator<double>> make_cpu_operator(const Csr<double>&,
                                                             const PlanOptions&);

}  // namespace spmv::detail
