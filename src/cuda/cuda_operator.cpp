// The cuda backend's operator: a Csr on the device and one CsrAlgorithm.
#include <chrono>
#include <optional>

#include "core/backends.hpp"
#include "cuda/csr_spmm.hpp"
#include "cuda/csr_transposed.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/staged_operator.hpp"
#include "spmv/error.hpp"

namespace spmv::detail {

namespace {

using clock_type = std::chrono::steady_clock;
double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

template <class T>
const CsrKernelEntry<T>& find_csr_kernel(const std::string& name) {
  const auto& registry = csr_kernel_registry<T>();
  for (const auto& entry : registry)
    if (entry.info.name == name) return entry;
  std::string list;
  for (const auto& entry : registry) list += (list.empty() ? "" : ", ") + entry.info.name;
  throw InvalidArgument("unknown cuda kernel '" + name + "' (cuda kernels: " + list + ")");
}

// A matrix on the device with the algorithm that multiplies by it.
template <class T>
struct PreparedCsr {
  DeviceCsr<T> matrix;
  std::unique_ptr<CsrAlgorithm<T>> algorithm;

  PreparedCsr(const Csr<T>& a, const CsrKernelEntry<T>& entry, const KernelParams& params)
      : matrix(a), algorithm(entry.make(params)) {
    algorithm->prepare(a, matrix.view());
  }
  std::size_t bytes() const { return matrix.bytes() + algorithm->workspace_bytes(); }
};

template <class T>
class CudaCsrOperator final : public StagedOperator<T> {
 public:
  CudaCsrOperator(const Csr<T>& a, const PlanOptions& options)
      : StagedOperator<T>(a.rows, a.cols) {
    const auto analysis_start = clock_type::now();
    KernelChoice choice{options.kernel, options.params};
    if (choice.name.empty()) {
      choice = default_csr_kernel(a);
      for (const auto& [name, value] : options.params) choice.params[name] = value;
    }
    const CsrKernelEntry<T>& entry = find_csr_kernel<T>(choice.name);
    check_param_names(choice.name, choice.params, entry.param_names);
    description_.analysis_seconds = seconds_since(analysis_start);

    const auto upload_start = clock_type::now();
    forward_.emplace(a, entry, choice.params);
    if (options.explicit_transpose) transposed_.emplace(transpose(a), entry, choice.params);
    SPMV_CUDA_CHECK(cudaDeviceSynchronize());
    description_.upload_seconds = seconds_since(upload_start);

    description_.backend = Backend::cuda;
    description_.format = entry.info.format;
    description_.kernel = entry.info.name;
    description_.params = forward_->algorithm->params();
    description_.device_bytes = forward_->bytes() + (transposed_ ? transposed_->bytes() : 0);
    description_.matrix_bytes = csr_matrix_bytes(a);
  }

  OperatorDescription describe() const override { return description_; }

 protected:
  void device_apply(const T* x, T* y, T alpha, T beta) override {
    forward_->algorithm->spmv(forward_->matrix.view(), x, y, alpha, beta, nullptr);
  }
  void device_apply_transposed(const T* x, T* y, T alpha, T beta) override {
    if (transposed_)
      transposed_->algorithm->spmv(transposed_->matrix.view(), x, y, alpha, beta, nullptr);
    else
      spmv_transposed_atomic(forward_->matrix.view(), x, y, alpha, beta, nullptr);
  }
  void device_spmm(const T* b, T* c, index_t k, Layout layout, T alpha, T beta) override {
    spmm_csr_rowwise(forward_->matrix.view(), b, c, k, layout, alpha, beta, nullptr);
  }

 private:
  std::optional<PreparedCsr<T>> forward_;
  std::optional<PreparedCsr<T>> transposed_;
  OperatorDescription description_;
};

}  // namespace

template <class T>
std::unique_ptr<Operator<T>> make_cuda_operator(const Csr<T>& a, const PlanOptions& options) {
  return std::make_unique<CudaCsrOperator<T>>(a, options);
}
template std::unique_ptr<Operator<float>> make_cuda_operator(const Csr<float>&, const PlanOptions&);
template std::unique_ptr<Operator<double>> make_cuda_operator(const Csr<double>&, const PlanOptions&);

std::vector<KernelInfo> cuda_kernels() {
  std::vector<KernelInfo> kernels;
  for (const auto& entry : csr_kernel_registry<double>()) kernels.push_back(entry.info);
  const std::vector<KernelInfo> vendor = cusparse_kernels();
  kernels.insert(kernels.end(), vendor.begin(), vendor.end());
  return kernels;
}

}  // namespace spmv::detail
