// The wrapper of a cuda or cusparse operator of a reordered matrix
// (core/permuted_operator.hpp): the orders and scratch live on the device and
// the gather and scatter are kernels (permute_vectors.cu). It is a
// StagedOperator, so host operands are copied in and out once around the
// whole product, and the inner operator only ever sees device pointers.
#include <algorithm>

#include "core/permuted_operator.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/permute_vectors.hpp"
#include "cuda/staged_operator.hpp"

namespace spmv::detail {

namespace {

template <class T>
class DevicePermuter final : public OperandPermuter<T> {
 public:
  DevicePermuter(const MatrixOrdering& ordering, index_t rows, index_t cols)
      : row_order_(upload(ordering.row_order, "row order of a reordered matrix")),
        column_order_(upload(ordering.column_order, "column order of a reordered matrix")),
        input_scratch_(static_cast<std::size_t>(std::max(rows, cols)),
                       "reordered operand (input)"),
        output_scratch_(input_scratch_.size(), "reordered operand (output)") {}

  bool identity(MatrixSide side) const override { return order(side).size() == 0; }

  void gather(MatrixSide side, const T* in, T* out, index_t k, Layout layout) override {
    const DeviceBuffer<index_t>& order = this->order(side);
    gather_rows(order.data(), static_cast<index_t>(order.size()), k, layout, in, out, stream_);
  }
  void scatter(MatrixSide side, const T* in, T* out, index_t k, Layout layout, T alpha,
               T beta) override {
    const DeviceBuffer<index_t>& order = this->order(side);
    scatter_rows(order.data(), static_cast<index_t>(order.size()), k, layout, in, out, alpha,
                 beta, stream_);
  }

  T* input_scratch(std::size_t count) override {
    return grown(input_scratch_, count, "reordered operand (SpMM input)");
  }
  T* output_scratch(std::size_t count) override {
    return grown(output_scratch_, count, "reordered operand (SpMM output)");
  }

  void set_stream(cudaStream_t stream) { stream_ = stream; }

  std::size_t bytes() const {
    return row_order_.bytes() + column_order_.bytes() + input_scratch_.bytes() +
           output_scratch_.bytes();
  }

 private:
  static DeviceBuffer<index_t> upload(const std::vector<index_t>& order, const char* what) {
    return order.empty() ? DeviceBuffer<index_t>() : DeviceBuffer<index_t>(order, what);
  }
  const DeviceBuffer<index_t>& order(MatrixSide side) const {
    return side == MatrixSide::rows ? row_order_ : column_order_;
  }
  static T* grown(DeviceBuffer<T>& buffer, std::size_t count, const char* what) {
    if (buffer.size() < count) buffer = DeviceBuffer<T>(count, what);
    return buffer.data();
  }

  DeviceBuffer<index_t> row_order_;
  DeviceBuffer<index_t> column_order_;
  DeviceBuffer<T> input_scratch_;
  DeviceBuffer<T> output_scratch_;
  cudaStream_t stream_ = cudaStreamPerThread;
};

template <class T>
class DevicePermutedOperator final : public StagedOperator<T> {
 public:
  DevicePermutedOperator(std::unique_ptr<Operator<T>> inner, const MatrixOrdering& ordering)
      : StagedOperator<T>(inner->rows(), inner->cols()),
        inner_(std::move(inner)),
        permuter_(ordering, this->rows(), this->cols()),
        description_(describe_reordered(inner_->describe(), ordering)) {
    // The wrapper's own staging buffers (StagedOperator) are counted too.
    description_.device_bytes +=
        permuter_.bytes() + 2 * static_cast<std::size_t>(std::max(this->rows(), this->cols())) * sizeof(T);
  }

  OperatorDescription describe() const override { return description_; }

  // The gathers, the scatters and the inner product share the stream.
  void set_stream(StreamHandle stream) override {
    StagedOperator<T>::set_stream(stream);
    inner_->set_stream(stream);
    permuter_.set_stream(this->cuda_stream());
  }

 protected:
  void device_apply(const T* x, T* y, T alpha, T beta) override {
    permuted_apply(permuter_, *inner_, x, y, alpha, beta);
  }
  void device_apply_transposed(const T* x, T* y, T alpha, T beta) override {
    permuted_apply_transposed(permuter_, *inner_, x, y, alpha, beta);
  }
  void device_spmm(const T* b, T* c, index_t k, Layout layout, T alpha, T beta) override {
    permuted_spmm(permuter_, *inner_, b, c, k, layout, alpha, beta);
  }

 private:
  std::unique_ptr<Operator<T>> inner_;
  DevicePermuter<T> permuter_;
  OperatorDescription description_;
};

}  // namespace

template <class T>
std::unique_ptr<Operator<T>> make_device_permuted_operator(std::unique_ptr<Operator<T>> inner,
                                                           const MatrixOrdering& ordering) {
  return std::make_unique<DevicePermutedOperator<T>>(std::move(inner), ordering);
}

template std::unique_ptr<Operator<float>> make_device_permuted_operator(
    std::unique_ptr<Operator<float>>, const MatrixOrdering&);
template std::unique_ptr<Operator<double>> make_device_permuted_operator(
    std::unique_ptr<Operator<double>>, const MatrixOrdering&);

}  // namespace spmv::detail
