// plan() with a reordering, and the wrapper of the host backends' operators
// (reference, cpu): gather and scatter by plain loops over host buffers made
// at plan time.
#include "core/permuted_operator.hpp"

#include <algorithm>

#include "core/backends.hpp"

#include "spmv/error.hpp"

namespace spmv::detail {

namespace {

// Position of entry (row, column) of an n x k block in `layout`.
inline std::size_t block_index(std::size_t row, std::size_t column, std::size_t n, std::size_t k,
                               Layout layout) {
  return layout == Layout::row_major ? row * k + column : row + column * n;
}

// Below this many entries a loop runs on one thread.
constexpr std::size_t parallel_threshold = 1 << 15;

template <class T>
class HostPermuter final : public OperandPermuter<T> {
 public:
  explicit HostPermuter(const MatrixOrdering& ordering, index_t rows, index_t cols)
      : row_order_(ordering.row_order),
        column_order_(ordering.column_order),
        input_scratch_(static_cast<std::size_t>(std::max(rows, cols))),
        output_scratch_(input_scratch_.size()) {}

  bool identity(MatrixSide side) const override { return order(side).empty(); }

  void gather(MatrixSide side, const T* in, T* out, index_t k, Layout layout) override {
    const std::vector<index_t>& order = this->order(side);
    const std::size_t n = order.size(), columns = static_cast<std::size_t>(k);
#pragma omp parallel for schedule(static) if (n * columns > parallel_threshold)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t c = 0; c < columns; ++c)
        out[block_index(i, c, n, columns, layout)] =
            in[block_index(static_cast<std::size_t>(order[i]), c, n, columns, layout)];
  }

  void scatter(MatrixSide side, const T* in, T* out, index_t k, Layout layout, T alpha,
               T beta) override {
    const std::vector<index_t>& order = this->order(side);
    const std::size_t n = order.size(), columns = static_cast<std::size_t>(k);
#pragma omp parallel for schedule(static) if (n * columns > parallel_threshold)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t c = 0; c < columns; ++c) {
        T& target = out[block_index(static_cast<std::size_t>(order[i]), c, n, columns, layout)];
        const T value = alpha * in[block_index(i, c, n, columns, layout)];
        target = beta == T(0) ? value : value + beta * target;
      }
  }

  T* input_scratch(std::size_t count) override { return grown(input_scratch_, count); }
  T* output_scratch(std::size_t count) override { return grown(output_scratch_, count); }

 private:
  const std::vector<index_t>& order(MatrixSide side) const {
    return side == MatrixSide::rows ? row_order_ : column_order_;
  }
  static T* grown(std::vector<T>& buffer, std::size_t count) {
    if (buffer.size() < count) buffer.resize(count);
    return buffer.data();
  }

  std::vector<index_t> row_order_;
  std::vector<index_t> column_order_;
  std::vector<T> input_scratch_;
  std::vector<T> output_scratch_;
};

template <class T>
class HostPermutedOperator final : public Operator<T> {
 public:
  HostPermutedOperator(std::unique_ptr<Operator<T>> inner, const MatrixOrdering& ordering)
      : Operator<T>(inner->rows(), inner->cols()),
        inner_(std::move(inner)),
        permuter_(ordering, this->rows(), this->cols()),
        description_(describe_reordered(inner_->describe(), ordering)) {}

  void run_apply(const T* x, T* y, T alpha, T beta) override {
    permuted_apply(permuter_, *inner_, x, y, alpha, beta);
  }
  void run_apply_transposed(const T* x, T* y, T alpha, T beta) override {
    permuted_apply_transposed(permuter_, *inner_, x, y, alpha, beta);
  }
  void run_spmm(const T* b, T* c, index_t k, Layout layout, T alpha, T beta) override {
    permuted_spmm(permuter_, *inner_, b, c, k, layout, alpha, beta);
  }
  OperatorDescription describe() const override { return description_; }

 private:
  std::unique_ptr<Operator<T>> inner_;
  HostPermuter<T> permuter_;
  OperatorDescription description_;
};

}  // namespace

OperatorDescription describe_reordered(OperatorDescription inner, const MatrixOrdering& ordering) {
  inner.reordering = ordering.method;
  inner.reorder_seconds = ordering.seconds;
  return inner;
}

namespace {

// BAR scores slices with the streams of the BRO kernel that will read them:
// a named bro-ell's or bro-hyb's slice_height and threads_per_row; for a
// bro-ell on the GPU without threads_per_row, the ELLR-T model's choice for
// this device (what its build would pick), which the inner plan is then told
// to use, so that the kernel reads the slices BAR scored. Any other kernel,
// or none named: the paper's one stream per row.
template <class T>
BroAwareOptions bar_options_for_kernel([[maybe_unused]] const Csr<T>& a, PlanOptions& inner_options) {
  BroAwareOptions bar;
  const std::string& kernel = inner_options.kernel;
  if (kernel != "bro-ell" && kernel != "bro-hyb") return bar;
  KernelParams& params = inner_options.params;
  if (const auto h = params.find("slice_height"); h != params.end()) bar.slice_height = h->second;
  if (const auto t = params.find("threads_per_row"); t != params.end()) {
    bar.threads_per_row = t->second;
    return bar;
  }
#ifdef SPMV_HAVE_CUDA
  if (kernel == "bro-ell" && inner_options.backend == Backend::cuda) {
    std::vector<index_t> lengths(static_cast<std::size_t>(a.rows));
    for (index_t row = 0; row < a.rows; ++row) lengths[row] = a.row_length(row);
    bar.threads_per_row = ellrt_configuration(lengths, current_gpu_shape()).threads_per_row;
    params["threads_per_row"] = bar.threads_per_row;
  }
#endif
  return bar;
}

}  // namespace

template <class T>
std::unique_ptr<Operator<T>> make_reordered_operator(const Csr<T>& a, const PlanOptions& options) {
  PlanOptions inner_options = options;
  inner_options.reordering = Reordering::none;
  const BroAwareOptions bar = options.reordering == Reordering::bro_aware
                                  ? bar_options_for_kernel(a, inner_options)
                                  : BroAwareOptions{};
  MatrixOrdering ordering = compute_ordering(a, options.reordering, bar);
  std::unique_ptr<Operator<T>> inner = plan(reorder(a, ordering), inner_options);
  // The permutation of a side is only worth its gather or scatter when it moves something.
  for (std::vector<index_t>* order : {&ordering.row_order, &ordering.column_order})
    if (std::is_sorted(order->begin(), order->end())) order->clear();
#ifdef SPMV_HAVE_CUDA
  if (options.backend == Backend::cuda || options.backend == Backend::cusparse)
    return make_device_permuted_operator(std::move(inner), ordering);
#endif
  return std::make_unique<HostPermutedOperator<T>>(std::move(inner), ordering);
}

template std::unique_ptr<Operator<float>> make_reordered_operator(const Csr<float>&,
                                                                  const PlanOptions&);
template std::unique_ptr<Operator<double>> make_reordered_operator(const Csr<double>&,
                                                                   const PlanOptions&);

}  // namespace spmv::detail
