// The reference backend as an Operator: the serial products of reference.cpp,
// computed in double into a scratch buffer and rounded to T once.
#include <algorithm>
#include <chrono>
#include <optional>

#include "core/backends.hpp"
#include "core/kernel_params.hpp"
#include "cpu/host_kernels.hpp"
#include "spmv/formats/footprint.hpp"
#include "spmv/reference.hpp"

namespace spmv::detail {

namespace {

template <class T>
void round_into(const std::vector<double>& exact, std::size_t n, T* out) {
  std::transform(exact.begin(), exact.begin() + static_cast<std::ptrdiff_t>(n), out,
                 [](double v) { return static_cast<T>(v); });
}

template <class T>
class ReferenceOperator final : public Operator<T> {
 public:
  ReferenceOperator(const Csr<T>& a, const PlanOptions& options, const KernelInfo& kernel)
      : Operator<T>(a.rows, a.cols), a_(a) {
    const auto start = std::chrono::steady_clock::now();
    if (options.explicit_transpose) transposed_ = transpose(a_);
    scratch_.assign(std::max(a.rows, a.cols), 0.0);
    description_.backend = Backend::reference;
    description_.format = kernel.format;
    description_.kernel = kernel.name;
    description_.matrix_bytes = csr_bytes(a_.rows, a_.nnz(), sizeof(T));
    description_.build_seconds = seconds_since(start);
  }

  void run_apply(const T* x, T* y, T alpha, T beta) override {
    reference_spmv(a_, x, y, alpha, beta, scratch_.data());
    round_into(scratch_, a_.rows, y);
  }

  void run_apply_transposed(const T* x, T* y, T alpha, T beta) override {
    if (transposed_)
      reference_spmv(*transposed_, x, y, alpha, beta, scratch_.data());
    else
      reference_spmv_transposed(a_, x, y, alpha, beta, scratch_.data());
    round_into(scratch_, a_.cols, y);
  }

  // The only allocation after plan: the double-precision copy of C grows on
  // the first call with a larger k and is kept for later calls.
  void run_spmm(const T* b, T* c, index_t k, Layout layout, T alpha, T beta) override {
    check_spmm_columns(k);
    const std::size_t n = static_cast<std::size_t>(a_.rows) * k;
    if (spmm_scratch_.size() < n) spmm_scratch_.resize(n);
    reference_spmm(a_, b, c, k, layout, alpha, beta, spmm_scratch_.data());
    round_into(spmm_scratch_, n, c);
  }

  OperatorDescription describe() const override { return description_; }

 private:
  Csr<T> a_;
  std::optional<Csr<T>> transposed_;
  std::vector<double> scratch_;
  std::vector<double> spmm_scratch_;
  OperatorDescription description_;
};

}  // namespace

template <class T>
std::unique_ptr<Operator<T>> make_reference_operator(const Csr<T>& a, const PlanOptions& options) {
  const KernelInfo kernel = find_kernel(host_kernels(), Backend::reference, options.kernel);
  check_kernel_params(kernel.name, options.params, kernel.params);
  return std::make_unique<ReferenceOperator<T>>(a, options, kernel);
}

template std::unique_ptr<Operator<float>> make_reference_operator(const Csr<float>&,
                                                                  const PlanOptions&);
template std::unique_ptr<Operator<double>> make_reference_operator(const Csr<double>&,
                                                                   const PlanOptions&);

}  // namespace spmv::detail
