// plan() with a reordering, and the wrapper of the host backends' operators
// (reference, cpu): gather and scatter by plain loops over host buffers made
// at plan time.
#include "core/permuted_operator.hpp"

#include <algorithm>

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

template <class T>
std::unique_ptr<Operator<T>> make_reordered_operator(const Csr<T>& a, const PlanOptions& options) {
  MatrixOrdering ordering = compute_ordering(a, options.reordering);
  PlanOptions inner_options = options;
  inner_options.reordering = Reordering::none;
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
