// The cuda backend's operator and its kernel catalogue.
#include <chrono>
#include <optional>

#include "core/backends.hpp"
#include "core/kernel_params.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/csr_transposed.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/format_kernel.hpp"
#include "cuda/kernel_warm_up.hpp"
#include "cuda/operator_matrix.hpp"
#include "cuda/spmm_algorithm.hpp"
#include "cuda/staged_operator.hpp"
#include "spmv/error.hpp"
#include "spmv/formats/footprint.hpp"

namespace spmv::detail {

namespace {

using clock_type = std::chrono::steady_clock;
double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

// Seconds since `start` once the device has finished the work queued so far.
double synchronised_seconds_since(clock_type::time_point start) {
  SPMV_CUDA_CHECK(cudaDeviceSynchronize());
  return seconds_since(start);
}

template <class T>
const CsrKernelEntry<T>* find_csr_kernel(const std::string& name) {
  for (const auto& entry : csr_kernel_registry<T>())
    if (entry.info.name == name) return &entry;
  return nullptr;
}

template <class T>
const FormatKernelEntry<T>* find_format_kernel(const std::string& name) {
  for (const auto& entry : format_kernel_registry<T>())
    if (entry.info.name == name) return &entry;
  return nullptr;
}

[[noreturn]] void throw_unknown_kernel(const std::string& name) {
  std::string list;
  for (const auto& entry : csr_kernel_registry<double>()) list += (list.empty() ? "" : ", ") + entry.info.name;
  for (const auto& entry : format_kernel_registry<double>()) list += ", " + entry.info.name;
  for (const auto& entry : spmm_kernel_registry<double>()) list += ", " + entry.info.name;
  throw InvalidArgument("unknown cuda kernel '" + name + "' (cuda kernels: " + list + ")");
}

// A matrix on the device with the CSR algorithm that multiplies by it; none
// for the CSR a format's operator keeps, whose products the format runs (the
// transposed product and SpMM read the matrix alone): choosing and preparing
// an algorithm there cost 2-3 ms of host passes on 9M rows for nothing.
template <class T>
struct PreparedCsr {
  DeviceCsr<T> matrix;
  std::unique_ptr<CsrAlgorithm<T>> algorithm;

  explicit PreparedCsr(DeviceCsr<T>&& uploaded) : matrix(std::move(uploaded)) {}

  PreparedCsr(DeviceCsr<T>&& on_device, const CsrKernelEntry<T>& entry, const KernelParams& params)
      : matrix(std::move(on_device)), algorithm(entry.make(params)) {
    algorithm->prepare(matrix.view());
  }
  std::size_t bytes() const { return matrix.bytes() + (algorithm ? algorithm->workspace_bytes() : 0); }
};

// KernelWarmUp's run: the CSR algorithm or the format kernel (whichever is
// not null) prepared on `sample` and one product with x = 0.
template <class T>
void prepare_and_multiply(const CsrKernelEntry<T>* csr_entry, const FormatKernelEntry<T>* format_entry,
                          const KernelParams& params, const CsrView<T>& sample, cudaStream_t stream) {
  DeviceBuffer<T> x(static_cast<std::size_t>(sample.cols), "warm-up x", ScratchOn{stream});
  DeviceBuffer<T> y(static_cast<std::size_t>(sample.rows), "warm-up y", ScratchOn{stream});
  SPMV_CUDA_CHECK(cudaMemsetAsync(x.data(), 0, x.bytes(), stream));
  if (csr_entry) {
    const std::unique_ptr<CsrAlgorithm<T>> algorithm = csr_entry->make(params);
    algorithm->prepare(sample);
    algorithm->spmv(sample, x.data(), y.data(), T(1), T(0), stream);
  } else {
    format_entry->make({sample, stream}, params)->spmv(x.data(), y.data(), T(1), T(0), stream);
  }
}

// The cuda backend's operator. The product runs either a CSR algorithm on a
// device CSR or a format kernel; a format kernel's operator also keeps a
// device CSR (unless spmv_only) for the transposed product and SpMM. SpMM
// runs the SpMM kernel the plan names, else the default one, whose
// FastSpMM part and its ELLPACK-R copy of A come at the first narrow spmm()
// (an operator used for SpMV alone never pays their build or memory).
template <class T>
class CudaOperator final : public StagedOperator<T> {
 public:
  CudaOperator(const OperatorMatrix<T>& a, const PlanOptions& options) : StagedOperator<T>(a.rows, a.cols) {
    const auto analysis_start = clock_type::now();
    const SpmmKernelEntry<T>* spmm_entry = find_spmm_kernel<T>(options.kernel);
    KernelChoice choice{options.kernel, options.params};
    if (spmm_entry) {
      choice = a.default_kernel();  // the parameters are the SpMM kernel's
    } else if (choice.name.empty()) {
      choice = a.default_kernel();
      for (const auto& [name, value] : options.params) choice.params[name] = value;
    }
    const CsrKernelEntry<T>* csr_entry = find_csr_kernel<T>(choice.name);
    const FormatKernelEntry<T>* format_entry = csr_entry ? nullptr : find_format_kernel<T>(choice.name);
    if (!csr_entry && !format_entry) throw_unknown_kernel(choice.name);
    const KernelInfo& info = csr_entry ? csr_entry->info : format_entry->info;
    check_kernel_params(choice.name, choice.params, info.params);
    description_.analysis_seconds = seconds_since(analysis_start);

    const auto upload_start = clock_type::now();
    std::optional<KernelWarmUp<T>> warm_up;
    if (const Csr<T>* host = a.host_matrix())
      warm_up.emplace(*host, choice.name, [&](const CsrView<T>& sample, cudaStream_t stream) {
        prepare_and_multiply(csr_entry, format_entry, choice.params, sample, stream);
      });
    if (csr_entry) {
      DeviceCsr<T> uploaded = a.copy_to_device();
      if (warm_up) warm_up->finish();
      csr_.emplace(std::move(uploaded), *csr_entry, choice.params);
      if (options.explicit_transpose)
        transposed_csr_.emplace(transpose_on_device(csr_->matrix.view(), nullptr), *csr_entry, choice.params);
      description_.params = csr_->algorithm->params();
      description_.matrix_bytes = csr_bytes(a.rows, a.nnz, sizeof(T));
    } else {
      // The format is built on the device from the uploaded CSR, which the
      // operator keeps (unless spmv_only) for the transposed product and SpMM.
      DeviceCsr<T> uploaded = a.copy_to_device();
      if (warm_up) warm_up->finish();
      description_.upload_seconds = synchronised_seconds_since(upload_start);
      const auto build_start = clock_type::now();
      format_ = format_entry->make({uploaded.view()}, choice.params);
      if (options.explicit_transpose) {
        const DeviceCsr<T> transposed = transpose_on_device(uploaded.view(), nullptr);
        transposed_format_ = format_entry->make({transposed.view()}, choice.params);
      }
      description_.build_seconds = synchronised_seconds_since(build_start);
      if (!options.spmv_only) csr_.emplace(std::move(uploaded));
      description_.params = format_->params();
      description_.matrix_bytes = format_->matrix_bytes();
      description_.index_compression = format_->index_compression();
    }
    if (options.deterministic && !options.explicit_transpose && !options.spmv_only) {
      // The transposed product without A^T accumulates with atomics, in an
      // order that changes from run to run: multiply by a CSR of A^T instead.
      DeviceCsr<T> transposed = transpose_on_device(csr_->matrix.view(), nullptr);
      const KernelChoice for_transposed = default_csr_kernel(transposed.view());
      transposed_csr_.emplace(std::move(transposed), *find_csr_kernel<T>(for_transposed.name),
                              for_transposed.params);
    }
    deterministic_ = options.deterministic;
    if (spmm_entry) {
      check_kernel_params(spmm_entry->info.name, options.params, spmm_entry->info.params);
      spmm_ = spmm_entry->make({csr_->matrix.view()}, options.params);
    } else if (csr_) {
      spmm_ = make_default_spmm<T>({csr_->matrix.view()}, false);
      fastspmm_copy_pending_ = !options.spmv_only;
    }
    if (spmm_) description_.build_seconds += spmm_->build_seconds();
    if (!format_) description_.upload_seconds = synchronised_seconds_since(upload_start) - description_.build_seconds;

    description_.backend = Backend::cuda;
    description_.format = info.format;
    description_.kernel = info.name;
    if (spmm_entry) describe_spmm_kernel(spmm_entry->info);
    description_.device_bytes = (csr_ ? csr_->bytes() : 0) + (transposed_csr_ ? transposed_csr_->bytes() : 0) +
                                (format_ ? format_->device_bytes() : 0) +
                                (transposed_format_ ? transposed_format_->device_bytes() : 0) +
                                (spmm_ ? spmm_->device_bytes() : 0);
    // The products may run on a non-blocking stream, which would not wait
    // for the build's work on the legacy default stream.
    SPMV_CUDA_CHECK(cudaDeviceSynchronize());
  }

  OperatorDescription describe() const override { return description_; }

 protected:
  void device_apply(const T* x, T* y, T alpha, T beta) override {
    if (format_)
      format_->spmv(x, y, alpha, beta, this->cuda_stream());
    else
      csr_->algorithm->spmv(csr_->matrix.view(), x, y, alpha, beta, this->cuda_stream());
  }
  void device_apply_transposed(const T* x, T* y, T alpha, T beta) override {
    if (transposed_format_)
      transposed_format_->spmv(x, y, alpha, beta, this->cuda_stream());
    else if (transposed_csr_)
      transposed_csr_->algorithm->spmv(transposed_csr_->matrix.view(), x, y, alpha, beta, this->cuda_stream());
    else if (deterministic_)
      throw Unavailable("apply_transposed is not available: the deterministic operator for kernel '" +
                        description_.kernel + "' was planned with spmv_only, so it holds no A^T to multiply by");
    else
      spmv_transposed_atomic(fallback_csr("apply_transposed").matrix.view(), x, y, alpha, beta, this->cuda_stream());
  }
  void device_spmm(const T* b, T* c, index_t k, Layout layout, T alpha, T beta) override {
    const PreparedCsr<T>& csr = fallback_csr("spmm");  // throws when planned with spmv_only
    if (fastspmm_copy_pending_ && k <= fastspmm_default_max_columns && !capturing(this->cuda_stream()))
      build_default_spmm(csr);
    spmm_->spmm(b, c, k, layout, alpha, beta, this->cuda_stream());
  }

 private:
  // An operator planned for an SpMM kernel describes that kernel: its
  // format, parameters and matrix bytes are those of the product it times.
  void describe_spmm_kernel(const KernelInfo& info) {
    description_.format = info.format;
    description_.kernel = info.name;
    description_.params = spmm_->params();
    description_.matrix_bytes = spmm_->matrix_bytes();
  }

  // The default SpMM with FastSpMM's ELLPACK-R copy of A, at the first
  // narrow spmm() not captured in a graph (a capture may neither allocate nor
  // wait; until then spmm-csr-vec runs). The description then counts the
  // copy's build and memory. Where the device has no room for the copy,
  // spmm-csr-vec stays.
  void build_default_spmm(const PreparedCsr<T>& csr) {
    fastspmm_copy_pending_ = false;
    std::unique_ptr<SpmmAlgorithm<T>> with_copy;
    try {
      with_copy = make_default_spmm<T>({csr.matrix.view()}, true);
    } catch (const OutOfMemory&) {
      return;
    }
    description_.build_seconds += with_copy->build_seconds() - spmm_->build_seconds();
    description_.device_bytes += with_copy->device_bytes() - spmm_->device_bytes();
    spmm_ = std::move(with_copy);
    // The products may run on a non-blocking stream, which would not wait
    // for the build's work on the legacy default stream.
    SPMV_CUDA_CHECK(cudaDeviceSynchronize());
  }

  static bool capturing(cudaStream_t stream) {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    SPMV_CUDA_CHECK(cudaStreamIsCapturing(stream, &status));
    return status != cudaStreamCaptureStatusNone;
  }

  const PreparedCsr<T>& fallback_csr(const char* operation) const {
    if (!csr_)
      throw Unavailable(std::string(operation) + " is not available: the operator for kernel '" +
                        description_.kernel + "' was planned with spmv_only");
    return *csr_;
  }

  std::optional<PreparedCsr<T>> csr_;
  std::optional<PreparedCsr<T>> transposed_csr_;
  std::unique_ptr<FormatKernel<T>> format_;
  std::unique_ptr<FormatKernel<T>> transposed_format_;
  std::unique_ptr<SpmmAlgorithm<T>> spmm_;  // present with csr_: the named SpMM kernel, else the default
  bool fastspmm_copy_pending_ = false;        // the default SpMM may yet add FastSpMM's copy of A
  bool deterministic_ = false;                // PlanOptions::deterministic
  OperatorDescription description_;
};

}  // namespace

template <class T>
std::unique_ptr<Operator<T>> make_cuda_operator(const Csr<T>& a, const PlanOptions& options) {
  return std::make_unique<CudaOperator<T>>(OperatorMatrix<T>(a), options);
}
template <class T>
std::unique_ptr<Operator<T>> make_cuda_operator(const DeviceCsrView<T>& a, const PlanOptions& options) {
  return std::make_unique<CudaOperator<T>>(OperatorMatrix<T>(a), options);
}
template std::unique_ptr<Operator<float>> make_cuda_operator(const Csr<float>&, const PlanOptions&);
template std::unique_ptr<Operator<double>> make_cuda_operator(const Csr<double>&, const PlanOptions&);
template std::unique_ptr<Operator<float>> make_cuda_operator(const DeviceCsrView<float>&, const PlanOptions&);
template std::unique_ptr<Operator<double>> make_cuda_operator(const DeviceCsrView<double>&, const PlanOptions&);

std::vector<KernelInfo> cuda_kernels() {
  std::vector<KernelInfo> kernels;
  for (const auto& entry : csr_kernel_registry<double>()) kernels.push_back(entry.info);
  for (const auto& entry : format_kernel_registry<double>()) kernels.push_back(entry.info);
  for (const auto& entry : spmm_kernel_registry<double>()) kernels.push_back(entry.info);
  const std::vector<KernelInfo> vendor = cusparse_kernels();
  kernels.insert(kernels.end(), vendor.begin(), vendor.end());
  return kernels;
}

}  // namespace spmv::detail
