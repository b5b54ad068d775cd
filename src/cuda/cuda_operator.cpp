// The cuda backend's operator and its kernel catalogue.
#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <utility>

#include "core/backends.hpp"
#include "core/kernel_params.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/csr_transposed.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/format_kernel.hpp"
#include "cuda/kernel_warm_up.hpp"
#include "cuda/operator_matrix.hpp"
#include "cuda/spmm_algorithm.hpp"
#include "cuda/spmm_planning.hpp"
#include "cuda/staged_operator.hpp"
#include "spmv/error.hpp"
#include "spmv/formats/footprint.hpp"
#include "spmv/plan.hpp"

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
// runs the SpMM kernel the plan names; else, at the first spmm() of each k
// and layout not captured in a graph, the operator plans that SpMM on its
// own CSR (make_plan with spmm_columns = k: the SpMM model's choice among
// ours and cuSPARSE's) and builds what the plan names, kept for later calls
// (an operator used for SpMV alone never pays their build or memory);
// spmm-csr-vec runs until then, and in a capture.
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
    std::string handed_to;  // the kernel the CSR algorithm handed the matrix to, if any
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
      handed_to = csr_->algorithm->handed_to();
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
      spmm_ = make_spmm_csr_vec<T>({csr_->matrix.view()}, {});
      if (!options.spmv_only) spmm_plan_options_ = options;
    }
    if (spmm_) description_.build_seconds += spmm_->build_seconds();
    if (!format_) description_.upload_seconds = synchronised_seconds_since(upload_start) - description_.build_seconds;

    description_.backend = Backend::cuda;
    description_.format = info.format;
    description_.kernel = handed_to.empty() ? info.name : handed_to;
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

  // The cusparse operators of planned SpMMs follow the operator's stream.
  void set_stream(StreamHandle stream) override {
    StagedOperator<T>::set_stream(stream);
    for (auto& vendor : vendor_spmm_) vendor.second->set_stream(stream);
  }

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
    const PlannedSpmm* planned = spmm_plan_options_ && k >= 2 ? planned_spmm(csr, k, layout) : nullptr;
    if (planned && planned->vendor)
      planned->vendor->spmm(b, c, k, layout, alpha, beta);
    else
      (planned ? planned->ours : spmm_.get())->spmm(b, c, k, layout, alpha, beta, this->cuda_stream());
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

  // What spmm() runs for one k and layout: an SpMM algorithm of ours, or a
  // cusparse operator for cuSPARSE's SpMM.
  struct PlannedSpmm {
    const SpmmAlgorithm<T>* ours = nullptr;
    Operator<T>* vendor = nullptr;
    std::string kernel;  // its name
  };

  // The SpMM planned for k columns in `layout`, planning and building it at
  // the first such call; null in a capture before that (a plan and a build
  // allocate and wait), and for cuSPARSE's in a capture at any time (its
  // SpMM prepares each new pair of operands).
  const PlannedSpmm* planned_spmm(const PreparedCsr<T>& csr, index_t k, Layout layout) {
    const bool in_capture = capturing(this->cuda_stream());
    const auto found = planned_spmm_.find({k, layout});
    if (found != planned_spmm_.end()) return in_capture && found->second.vendor ? nullptr : &found->second;
    if (in_capture) return nullptr;
    const auto start = clock_type::now();
    const PlannedSpmm planned = plan_spmm(csr, k, layout);
    description_.build_seconds += seconds_since(start);
    description_.planned_spmm.push_back({k, layout, planned.kernel});
    // The products may run on a non-blocking stream, which would not wait
    // for the build's work on the legacy default stream.
    SPMV_CUDA_CHECK(cudaDeviceSynchronize());
    return &planned_spmm_.emplace(std::make_pair(k, layout), planned).first->second;
  }

  // make_plan's SpMM choice on this operator's CSR, built: from the plan's
  // choice down its ranking, the first candidate that builds (spmm-csr-vec
  // where none does, or where the plan names none).
  PlannedSpmm plan_spmm(const PreparedCsr<T>& csr, index_t k, Layout layout) {
    const DeviceCsrView<T> matrix = device_view_of(csr.matrix.view());
    const Plan plan = plan_operator_spmm(matrix, *spmm_plan_options_, k, layout);
    auto candidate = std::find_if(plan.candidates.begin(), plan.candidates.end(), [&](const PlanCandidate& c) {
      return c.backend == plan.options.backend && c.kernel == plan.options.kernel;
    });
    for (; candidate != plan.candidates.end(); ++candidate) {
      if (candidate->refusal && !candidate->refusal->empty()) continue;
      try {
        if (const std::optional<PlannedSpmm> built = build_spmm(*candidate, matrix)) return *built;
      } catch (const FormatLimitError&) {
      } catch (const OutOfMemory&) {
      }
    }
    return {spmm_.get(), nullptr, default_spmm_kernel};
  }

  // The candidate's SpMM, built once and kept (nullopt for a kernel this
  // operator cannot build); its memory counts in the description.
  std::optional<PlannedSpmm> build_spmm(const PlanCandidate& c, const DeviceCsrView<T>& matrix) {
    if (c.kernel == default_spmm_kernel) return PlannedSpmm{spmm_.get(), nullptr, c.kernel};
    if (c.backend == Backend::cuda) {
      std::unique_ptr<SpmmAlgorithm<T>>& ours = our_spmm_[c.kernel];
      if (!ours) {
        const SpmmKernelEntry<T>* entry = find_spmm_kernel<T>(c.kernel);
        if (!entry) return std::nullopt;
        ours = entry->make({csr_->matrix.view()}, {});
        description_.device_bytes += ours->device_bytes();
      }
      return PlannedSpmm{ours.get(), nullptr, c.kernel};
    }
    std::unique_ptr<Operator<T>>& vendor = vendor_spmm_[c.kernel];
    if (!vendor) {
      PlanOptions options = *spmm_plan_options_;
      options.backend = Backend::cusparse;
      options.kernel = c.kernel;
      options.params.clear();
      options.explicit_transpose = false;
      options.reordering = Reordering::none;
      vendor = make_cusparse_operator(matrix, options);  // a copy of the CSR, for cuSPARSE's SpMM
      vendor->set_stream(this->stream());
      description_.device_bytes += vendor->describe().device_bytes;
    }
    return PlannedSpmm{nullptr, vendor.get(), c.kernel};
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
  std::unique_ptr<SpmmAlgorithm<T>> spmm_;  // present with csr_: the named SpMM kernel, else spmm-csr-vec
  // With no SpMM kernel named (and not spmv_only): the options the SpMM of
  // each k and layout is planned with, the choices, and what was built.
  std::optional<PlanOptions> spmm_plan_options_;
  std::map<std::pair<index_t, Layout>, PlannedSpmm> planned_spmm_;
  std::map<std::string, std::unique_ptr<SpmmAlgorithm<T>>> our_spmm_;
  std::map<std::string, std::unique_ptr<Operator<T>>> vendor_spmm_;
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
