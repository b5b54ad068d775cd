// The cusparse backend: NVIDIA's cuSPARSE behind the Operator interface, the
// baseline of every benchmark.
//
// Kernels: cusparse-csr-alg1 (CUSPARSE_SPMV_CSR_ALG1, with the SpMV
// preprocessing step), cusparse-csr-alg2 (CUSPARSE_SPMV_CSR_ALG2,
// deterministic), cusparse-coo (CUSPARSE_SPMV_COO_ALG1 on a COO copy). The
// SpMM of the CSR ones is cuSPARSE's algorithm that the SpMM model ranks best
// for each k and layout, planned at the first spmm() with them on the
// operator's CSR (cuda/spmm_planning.hpp); in a CUDA graph capture before
// that, and for cusparse-coo, CUSPARSE_SPMM_ALG_DEFAULT. (Until 2026-12-02 it
// was always ALG_DEFAULT: for a matrix whose SpMV the selector gives to
// cuSPARSE, 1.4-2.6x slower than the best algorithm on an R-MAT and on few
// huge rows in f32, device call 202.) The SpMM kernels cusparse-spmm-alg1/2/3
// run CUSPARSE_SPMM_CSR_ALG1/2/3 (their SpMV: CUSPARSE_SPMV_ALG_DEFAULT); a
// layout an algorithm refuses is reported as Unavailable.
// explicit_transpose: A^T is built on the device at plan time (our radix-sort
// transpose, where a user of cuSPARSE would call its csr2csc) and
// apply_transposed runs the kernel's non-transposed product on it, in the
// kernel's format (COO for cusparse-coo); without it, cuSPARSE's transposed
// mode on A.
// Deterministic mode (PlanOptions::deterministic; cuSPARSE documents
// CUSPARSE_SPMV_CSR_ALG2 as bitwise deterministic for the non-transposed
// product only, and CUSPARSE_SPMM_CSR_ALG3 as deterministic): SpMV runs
// CSR_ALG2, the transposed product runs CSR_ALG2 on a copy of A^T made at
// plan time, SpMM runs CSR_ALG3 without cusparseSpMM_preprocess. Measured
// (H100, cuSPARSE 12.6.3, tests/gpu/test_gpu_determinism.cpp): ALG3 after
// the preprocessing step gave different bits in two runs on an R-MAT matrix
// (scale 14, f32 and f64, both layouts); without it, the same bits.
// Workspace buffers are sized and allocated at plan time; SpMM sizes its
// buffer, and runs cuSPARSE's SpMM preprocessing (ALG1, ALG3), on the first
// call with each shape and operands (cuSPARSE asks for them per shape).
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "core/backends.hpp"
#include "core/determinism.hpp"
#include "core/kernel_params.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/dense_ops.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/device_scope.hpp"
#include "cuda/operator_matrix.hpp"
#include "cuda/spmm_planning.hpp"
#include "cuda/staged_operator.hpp"
#include "spmv/formats/footprint.hpp"
#include "spmv/plan.hpp"

namespace spmv::detail {

namespace {

enum class CusparseKernel { csr_alg1, csr_alg2, coo, spmm_alg1, spmm_alg2, spmm_alg3 };

struct CusparseKernelEntry {
  CusparseKernel kind;
  KernelInfo info;
};

const std::vector<CusparseKernelEntry>& cusparse_registry() {
  static const std::vector<CusparseKernelEntry> registry = {
      {CusparseKernel::csr_alg1,
       {"cusparse-csr-alg1", "csr", Backend::cusparse,
        "cuSPARSE SpMV, CSR ALG1 with preprocessing", {}, true, true}},
      {CusparseKernel::csr_alg2,
       deterministic_kernel({"cusparse-csr-alg2", "csr", Backend::cusparse,
                             "cuSPARSE SpMV, CSR ALG2 (deterministic)", {}, true, true})},
      {CusparseKernel::coo,
       {"cusparse-coo", "coo", Backend::cusparse, "cuSPARSE SpMV, COO ALG1", {}, true, true}},
      {CusparseKernel::spmm_alg1,
       {"cusparse-spmm-alg1", "csr", Backend::cusparse, "cuSPARSE SpMM, CSR ALG1 (preprocessed)",
        {}, true, true, true}},
      {CusparseKernel::spmm_alg2,
       {"cusparse-spmm-alg2", "csr", Backend::cusparse, "cuSPARSE SpMM, CSR ALG2", {}, true, true,
        true}},
      {CusparseKernel::spmm_alg3,
       deterministic_kernel({"cusparse-spmm-alg3", "csr", Backend::cusparse,
                             "cuSPARSE SpMM, CSR ALG3 (preprocessed, but not in deterministic mode)", {}, true, true, true})},
  };
  return registry;
}

// The SpMM algorithm an SpMM kernel names (none for the SpMV kernels).
std::optional<cusparseSpMMAlg_t> named_spmm_algorithm(CusparseKernel kind) {
  switch (kind) {
    case CusparseKernel::spmm_alg1: return CUSPARSE_SPMM_CSR_ALG1;
    case CusparseKernel::spmm_alg2: return CUSPARSE_SPMM_CSR_ALG2;
    case CusparseKernel::spmm_alg3: return CUSPARSE_SPMM_CSR_ALG3;
    default: return std::nullopt;
  }
}

template <class T>
constexpr cudaDataType value_type() {
  return std::is_same_v<T, double> ? CUDA_R_64F : CUDA_R_32F;
}

using clock_type = std::chrono::steady_clock;

template <class T>
class CusparseOperator final : public StagedOperator<T> {
 public:
  // `start`: when the factory began, so that the setup time covers the CSR
  // upload of the member initialisers as it does for the cuda backend.
  CusparseOperator(const OperatorMatrix<T>& a, const CusparseKernelEntry& entry, const PlanOptions& options,
                   clock_type::time_point start)
      : StagedOperator<T>(a.rows, a.cols),
        kind_(entry.kind),
        deterministic_(options.deterministic),
        explicit_transpose_(options.explicit_transpose),
        trivial_(a.rows == 0 || a.cols == 0 || a.nnz == 0),
        matrix_(a.copy_to_device()),
        x_probe_(std::max(a.rows, a.cols), "cuSPARSE probe vector x"),
        y_probe_(std::max(a.rows, a.cols), "cuSPARSE probe vector y") {
    if (!trivial_) create_descriptors(a);
    if ((kind_ == CusparseKernel::csr_alg1 || kind_ == CusparseKernel::csr_alg2) && !deterministic_)
      spmm_plan_options_ = options;
    SPMV_CUDA_CHECK(cudaDeviceSynchronize());
    description_.upload_seconds = std::chrono::duration<double>(clock_type::now() - start).count();
    description_.backend = Backend::cusparse;
    description_.format = entry.info.format;
    description_.kernel = entry.info.name;
    description_.device_bytes = matrix_.bytes() + coo_rows_.bytes() + buffer_.bytes() + transposed_buffer_.bytes() +
                                (transposed_ ? transposed_->bytes() : 0) + transposed_coo_rows_.bytes();
    description_.matrix_bytes = kind_ == CusparseKernel::coo
                                    ? static_cast<std::size_t>(a.nnz) * (2 * sizeof(index_t) + sizeof(T))
                                    : csr_bytes(a.rows, a.nnz, sizeof(T));
  }

  ~CusparseOperator() override {
    if (trivial_) return;
    const DeviceScope on_device(this->device());
    cusparseDestroyDnVec(x_);
    cusparseDestroyDnVec(y_);
    cusparseDestroyDnVec(xt_);
    cusparseDestroyDnVec(yt_);
    if (spmm_shape_.b_descr) cusparseDestroyDnMat(spmm_shape_.b_descr);
    if (spmm_shape_.c_descr) cusparseDestroyDnMat(spmm_shape_.c_descr);
    if (spmm_shape_.matrix) cusparseDestroySpMat(spmm_shape_.matrix);
    cusparseDestroySpMat(descr_);
    if (transposed_descr_) cusparseDestroySpMat(transposed_descr_);
    cusparseDestroy(handle_);
  }

  OperatorDescription describe() const override { return description_; }

  // cuSPARSE's calls go on the stream of the operator's handle.
  void set_stream(StreamHandle stream) override {
    StagedOperator<T>::set_stream(stream);
    const DeviceScope on_device(this->device());
    if (!trivial_) SPMV_CUSPARSE_CHECK(cusparseSetStream(handle_, this->cuda_stream()));
  }

 protected:
  void device_apply(const T* x, T* y, T alpha, T beta) override {
    product(descr_, CUSPARSE_OPERATION_NON_TRANSPOSE, x_, y_, x, y, alpha, beta, buffer_);
  }
  void device_apply_transposed(const T* x, T* y, T alpha, T beta) override {
    if (transposed_descr_)
      product(transposed_descr_, CUSPARSE_OPERATION_NON_TRANSPOSE, xt_, yt_, x, y, alpha, beta, transposed_buffer_);
    else
      product(descr_, CUSPARSE_OPERATION_TRANSPOSE, xt_, yt_, x, y, alpha, beta, transposed_buffer_);
  }
  void device_spmm(const T* b, T* c, index_t k, Layout layout, T alpha, T beta) override {
    if (this->rows() == 0 || k == 0) return;
    if (trivial_) {
      scale_vector(c, static_cast<std::size_t>(this->rows()) * k, beta, this->cuda_stream());
      return;
    }
    const cusparseSpMMAlg_t algorithm = spmm_algorithm(k, layout);
    if (spmm_shape_.k != k || spmm_shape_.layout != layout || spmm_shape_.b != b || spmm_shape_.c != c ||
        spmm_shape_.algorithm != algorithm)
      prepare_spmm(b, c, k, layout, alpha, beta, algorithm);
    SPMV_CUSPARSE_CHECK(cusparseSpMM(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                     CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, spmm_matrix(),
                                     spmm_shape_.b_descr, &beta, spmm_shape_.c_descr,
                                     value_type<T>(), algorithm, spmm_buffer_.data()));
  }

 private:
  // Dense descriptors, workspace and preprocessing for one SpMM shape, pair
  // of operands and algorithm. A CSR kernel's SpMM gets a matrix descriptor
  // of its own, made again for each: cuSPARSE keeps an algorithm's
  // preprocessing in the descriptor, and once the algorithm changed (a
  // planned ALG1 or ALG3 for one k, the default for k = 1) the old state gave
  // wrong products (device call 204).
  void prepare_spmm(const T* b, T* c, index_t k, Layout layout, T alpha, T beta, cusparseSpMMAlg_t algorithm) {
    if (spmm_shape_.b_descr) cusparseDestroyDnMat(spmm_shape_.b_descr);
    if (spmm_shape_.c_descr) cusparseDestroyDnMat(spmm_shape_.c_descr);
    if (spmm_shape_.matrix) cusparseDestroySpMat(spmm_shape_.matrix);
    spmm_shape_ = {};
    if (kind_ != CusparseKernel::coo)
      spmm_shape_.matrix =
          csr_descriptor(matrix_, this->rows(), this->cols(), static_cast<index_t>(matrix_.values.size()));
    const bool row_major = layout == Layout::row_major;
    const cusparseOrder_t order = row_major ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL;
    const index_t rows = this->rows(), cols = this->cols();
    cusparseDnMatDescr_t b_descr, c_descr;
    SPMV_CUSPARSE_CHECK(cusparseCreateDnMat(&b_descr, cols, k, row_major ? k : cols,
                                            const_cast<T*>(b), value_type<T>(), order));
    spmm_shape_.b_descr = b_descr;
    SPMV_CUSPARSE_CHECK(cusparseCreateDnMat(&c_descr, rows, k, row_major ? k : rows, c,
                                            value_type<T>(), order));
    spmm_shape_.c_descr = c_descr;
    std::size_t bytes = 0;
    const cusparseStatus_t status = cusparseSpMM_bufferSize(
        handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, spmm_matrix(),
        b_descr, &beta, c_descr, value_type<T>(), algorithm, &bytes);
    if (status == CUSPARSE_STATUS_NOT_SUPPORTED || status == CUSPARSE_STATUS_INVALID_VALUE)
      throw Unavailable(description_.kernel + " does not take " + to_string(layout) +
                        " B and C (cuSPARSE: " + cusparseGetErrorString(status) + ")");
    SPMV_CUSPARSE_CHECK(status);
    if (spmm_buffer_.size() < bytes) spmm_buffer_ = DeviceBuffer<char>(bytes, "cuSPARSE SpMM workspace");
    if (algorithm == CUSPARSE_SPMM_CSR_ALG1 || (algorithm == CUSPARSE_SPMM_CSR_ALG3 && !deterministic_))
      SPMV_CUSPARSE_CHECK(cusparseSpMM_preprocess(
          handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
          spmm_matrix(), b_descr, &beta, c_descr, value_type<T>(), algorithm, spmm_buffer_.data()));
    spmm_shape_.k = k;
    spmm_shape_.layout = layout;
    spmm_shape_.b = b;
    spmm_shape_.c = c;
    spmm_shape_.algorithm = algorithm;
  }

  // The SpMM algorithm for k columns in `layout`: the kernel's own, ALG3 in
  // deterministic mode, else (a CSR SpMV kernel, k >= 2) the one planned at
  // the first such call outside a capture.
  cusparseSpMMAlg_t spmm_algorithm(index_t k, Layout layout) {
    if (deterministic_) return CUSPARSE_SPMM_CSR_ALG3;
    if (const std::optional<cusparseSpMMAlg_t> named = named_spmm_algorithm(kind_)) return *named;
    if (!spmm_plan_options_ || k < 2) return CUSPARSE_SPMM_ALG_DEFAULT;
    const auto found = planned_spmm_.find({k, layout});
    if (found != planned_spmm_.end()) return found->second;
    if (capturing(this->cuda_stream())) return CUSPARSE_SPMM_ALG_DEFAULT;
    const auto start = clock_type::now();
    const cusparseSpMMAlg_t planned = planned_spmm_algorithm(k, layout);
    description_.build_seconds += std::chrono::duration<double>(clock_type::now() - start).count();
    return planned_spmm_.emplace(std::make_pair(k, layout), planned).first->second;
  }

  // The SpMM model's best ranked cuSPARSE algorithm on this operator's CSR
  // (ALG_DEFAULT where it ranks none).
  cusparseSpMMAlg_t planned_spmm_algorithm(index_t k, Layout layout) {
    const Plan plan = plan_operator_spmm(device_view_of(matrix_.view()), *spmm_plan_options_, k, layout);
    for (const PlanCandidate& c : plan.candidates) {
      if (c.backend != Backend::cusparse || (c.refusal && !c.refusal->empty())) continue;
      for (const auto& entry : cusparse_registry())
        if (entry.info.name == c.kernel)
          if (const std::optional<cusparseSpMMAlg_t> algorithm = named_spmm_algorithm(entry.kind)) {
            description_.planned_spmm.push_back({k, layout, c.kernel});
            return *algorithm;
          }
    }
    description_.planned_spmm.push_back({k, layout, "cuSPARSE's default"});
    return CUSPARSE_SPMM_ALG_DEFAULT;
  }

  void create_descriptors(const OperatorMatrix<T>& a) {
    SPMV_CUSPARSE_CHECK(cusparseCreate(&handle_));
    const bool coo = kind_ == CusparseKernel::coo;
    descr_ = coo ? coo_descriptor(matrix_, a.rows, a.cols, a.nnz, coo_rows_)
                 : csr_descriptor(matrix_, a.rows, a.cols, a.nnz);
    if (deterministic_ || explicit_transpose_) {
      // Asked for, or because cuSPARSE's transposed product is not deterministic: multiply by A^T.
      transposed_.emplace(transpose_on_device(matrix_.view(), nullptr));
      transposed_descr_ = coo ? coo_descriptor(*transposed_, a.cols, a.rows, a.nnz, transposed_coo_rows_)
                              : csr_descriptor(*transposed_, a.cols, a.rows, a.nnz);
    }
    SPMV_CUSPARSE_CHECK(cusparseCreateDnVec(&x_, a.cols, x_probe_.data(), value_type<T>()));
    SPMV_CUSPARSE_CHECK(cusparseCreateDnVec(&y_, a.rows, y_probe_.data(), value_type<T>()));
    SPMV_CUSPARSE_CHECK(cusparseCreateDnVec(&xt_, a.rows, x_probe_.data(), value_type<T>()));
    SPMV_CUSPARSE_CHECK(cusparseCreateDnVec(&yt_, a.cols, y_probe_.data(), value_type<T>()));
    buffer_ = workspace(descr_, CUSPARSE_OPERATION_NON_TRANSPOSE, x_, y_);
    transposed_buffer_ = transposed_descr_ ? workspace(transposed_descr_, CUSPARSE_OPERATION_NON_TRANSPOSE, xt_, yt_)
                                           : workspace(descr_, CUSPARSE_OPERATION_TRANSPOSE, xt_, yt_);
    if (kind_ == CusparseKernel::csr_alg1) {
      const T one = 1, zero = 0;
      SPMV_CUSPARSE_CHECK(cusparseSpMV_preprocess(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                                  descr_, x_, &zero, y_, value_type<T>(),
                                                  algorithm(), buffer_.data()));
      if (transposed_descr_)
        SPMV_CUSPARSE_CHECK(cusparseSpMV_preprocess(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                                    transposed_descr_, xt_, &zero, yt_, value_type<T>(),
                                                    algorithm(), transposed_buffer_.data()));
    }
  }

  // A COO descriptor of `m`, the row of every entry expanded from its row_ptr
  // into `rows_of_entries` by cuSPARSE (as a user of cuSPARSE would): on the
  // host and copied from pageable memory it cost 5 ns an entry, 4x the CSR upload.
  cusparseSpMatDescr_t coo_descriptor(const DeviceCsr<T>& m, index_t rows, index_t cols, index_t nnz,
                                      DeviceBuffer<index_t>& rows_of_entries) {
    rows_of_entries = DeviceBuffer<index_t>(static_cast<std::size_t>(nnz), "COO row indices");
    SPMV_CUSPARSE_CHECK(cusparseXcsr2coo(handle_, m.row_ptr.data(), nnz, rows, rows_of_entries.data(),
                                         CUSPARSE_INDEX_BASE_ZERO));
    cusparseSpMatDescr_t descr{};
    SPMV_CUSPARSE_CHECK(cusparseCreateCoo(&descr, rows, cols, nnz, rows_of_entries.data(),
                                          const_cast<index_t*>(m.col_idx.data()), const_cast<T*>(m.values.data()),
                                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, value_type<T>()));
    return descr;
  }

  static cusparseSpMatDescr_t csr_descriptor(const DeviceCsr<T>& m, index_t rows, index_t cols, index_t nnz) {
    cusparseSpMatDescr_t descr{};
    SPMV_CUSPARSE_CHECK(cusparseCreateCsr(&descr, rows, cols, nnz, const_cast<index_t*>(m.row_ptr.data()),
                                          const_cast<index_t*>(m.col_idx.data()), const_cast<T*>(m.values.data()),
                                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                          value_type<T>()));
    return descr;
  }

  cusparseSpMVAlg_t algorithm() const {
    if (deterministic_) return CUSPARSE_SPMV_CSR_ALG2;
    switch (kind_) {
      case CusparseKernel::csr_alg1: return CUSPARSE_SPMV_CSR_ALG1;
      case CusparseKernel::csr_alg2: return CUSPARSE_SPMV_CSR_ALG2;
      case CusparseKernel::coo: return CUSPARSE_SPMV_COO_ALG1;
      default: return CUSPARSE_SPMV_ALG_DEFAULT;
    }
  }

  DeviceBuffer<char> workspace(cusparseSpMatDescr_t matrix, cusparseOperation_t op, cusparseDnVecDescr_t x,
                               cusparseDnVecDescr_t y) {
    const T one = 1, zero = 0;
    std::size_t bytes = 0;
    SPMV_CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle_, op, &one, matrix, x, &zero, y,
                                                value_type<T>(), algorithm(), &bytes));
    return DeviceBuffer<char>(bytes, "cuSPARSE SpMV workspace");
  }

  // y = alpha * op(matrix) * x + beta * y.
  void product(cusparseSpMatDescr_t matrix, cusparseOperation_t op, cusparseDnVecDescr_t x_descr,
               cusparseDnVecDescr_t y_descr, const T* x, T* y, T alpha, T beta, DeviceBuffer<char>& buffer) {
    if (trivial_) {
      // cuSPARSE refuses empty shapes; with no entries the product is y = beta * y
      // (no A^T is made then: the transposed product comes here as TRANSPOSE).
      scale_vector(y, op == CUSPARSE_OPERATION_NON_TRANSPOSE ? this->rows() : this->cols(), beta,
                   this->cuda_stream());
      return;
    }
    SPMV_CUSPARSE_CHECK(cusparseDnVecSetValues(x_descr, const_cast<T*>(x)));
    SPMV_CUSPARSE_CHECK(cusparseDnVecSetValues(y_descr, y));
    SPMV_CUSPARSE_CHECK(cusparseSpMV(handle_, op, &alpha, matrix, x_descr, &beta, y_descr,
                                     value_type<T>(), algorithm(), buffer.data()));
  }

  CusparseKernel kind_;
  bool deterministic_;  // PlanOptions::deterministic: see the top of this file
  bool explicit_transpose_;  // PlanOptions::explicit_transpose: A^T stored
  bool trivial_;  // no entries or an empty shape: no cuSPARSE objects are made
  DeviceCsr<T> matrix_;
  DeviceBuffer<index_t> coo_rows_;
  DeviceBuffer<T> x_probe_;
  DeviceBuffer<T> y_probe_;
  cusparseHandle_t handle_{};
  cusparseSpMatDescr_t descr_{};
  std::optional<DeviceCsr<T>> transposed_;  // A^T, with explicit_transpose or in deterministic mode
  DeviceBuffer<index_t> transposed_coo_rows_;  // A^T's rows of entries, for cusparse-coo
  cusparseSpMatDescr_t transposed_descr_{};
  cusparseDnVecDescr_t x_{}, y_{}, xt_{}, yt_{};
  DeviceBuffer<char> buffer_;
  DeviceBuffer<char> transposed_buffer_;
  DeviceBuffer<char> spmm_buffer_;
  struct SpmmShape {
    index_t k = -1;  // none prepared yet
    Layout layout = Layout::row_major;
    const T* b = nullptr;
    T* c = nullptr;
    cusparseDnMatDescr_t b_descr = nullptr;
    cusparseDnMatDescr_t c_descr = nullptr;
    cusparseSpMMAlg_t algorithm = CUSPARSE_SPMM_ALG_DEFAULT;
    cusparseSpMatDescr_t matrix = nullptr;  // the SpMM's own CSR descriptor (null for cusparse-coo: descr_)
  } spmm_shape_;
  cusparseSpMatDescr_t spmm_matrix() const { return spmm_shape_.matrix ? spmm_shape_.matrix : descr_; }
  // With a CSR SpMV kernel, not in deterministic mode: the options its SpMM
  // is planned with, and each k and layout's planned algorithm.
  std::optional<PlanOptions> spmm_plan_options_;
  std::map<std::pair<index_t, Layout>, cusparseSpMMAlg_t> planned_spmm_;
  OperatorDescription description_;
};

}  // namespace

std::vector<KernelInfo> cusparse_kernels() {
  std::vector<KernelInfo> kernels;
  for (const auto& entry : cusparse_registry()) kernels.push_back(entry.info);
  return kernels;
}

namespace {

template <class T>
std::unique_ptr<Operator<T>> make_operator_of(const OperatorMatrix<T>& a, const PlanOptions& options) {
  const auto start = clock_type::now();
  const std::string name =
      !options.kernel.empty() ? options.kernel : options.deterministic ? "cusparse-csr-alg2" : "cusparse-csr-alg1";
  for (const auto& entry : cusparse_registry()) {
    if (entry.info.name != name) continue;
    check_kernel_params(name, options.params, entry.info.params);
    return std::make_unique<CusparseOperator<T>>(a, entry, options, start);
  }
  std::string list;
  for (const auto& entry : cusparse_registry()) list += (list.empty() ? "" : ", ") + entry.info.name;
  throw InvalidArgument("unknown cusparse kernel '" + name + "' (cusparse kernels: " + list + ")");
}

}  // namespace

template <class T>
std::unique_ptr<Operator<T>> make_cusparse_operator(const Csr<T>& a, const PlanOptions& options) {
  return make_operator_of(OperatorMatrix<T>(a), options);
}
template <class T>
std::unique_ptr<Operator<T>> make_cusparse_operator(const DeviceCsrView<T>& a, const PlanOptions& options) {
  return make_operator_of(OperatorMatrix<T>(a), options);
}
template std::unique_ptr<Operator<float>> make_cusparse_operator(const Csr<float>&, const PlanOptions&);
template std::unique_ptr<Operator<double>> make_cusparse_operator(const Csr<double>&, const PlanOptions&);
template std::unique_ptr<Operator<float>> make_cusparse_operator(const DeviceCsrView<float>&, const PlanOptions&);
template std::unique_ptr<Operator<double>> make_cusparse_operator(const DeviceCsrView<double>&, const PlanOptions&);

}  // namespace spmv::detail
