// The operator of A beside the operator of A^T (paired_operator.hpp).
#include "core/paired_operator.hpp"

#include "spmv/error.hpp"

namespace spmv::detail {

namespace {

template <class T>
class PairedOperator final : public Operator<T> {
 public:
  PairedOperator(std::unique_ptr<Operator<T>> forward, std::unique_ptr<Operator<T>> transposed,
                 double transposed_seconds)
      : Operator<T>(forward->rows(), forward->cols()),
        forward_(std::move(forward)),
        transposed_(std::move(transposed)),
        transposed_seconds_(transposed_seconds),
        last_(forward_.get()) {
    if (transposed_->rows() != this->cols() || transposed_->cols() != this->rows())
      throw InvalidArgument("the operator of A^T is " + std::to_string(transposed_->rows()) + " x " +
                            std::to_string(transposed_->cols()) + ", not the transpose of " +
                            std::to_string(this->rows()) + " x " + std::to_string(this->cols()));
    Operator<T>::set_stream(forward_->stream());
    transposed_->set_stream(forward_->stream());
  }

  OperatorDescription describe() const override {
    OperatorDescription d = forward_->describe();
    auto transposed = std::make_shared<const OperatorDescription>(transposed_->describe());
    d.device_bytes += transposed->device_bytes;
    d.build_seconds += transposed_seconds_;
    d.transposed = std::move(transposed);
    return d;
  }
  double last_transfer_seconds() const override { return last_->last_transfer_seconds(); }
  void set_stream(StreamHandle stream) override {
    Operator<T>::set_stream(stream);
    forward_->set_stream(stream);
    transposed_->set_stream(stream);
  }

 protected:
  void run_apply(const T* x, T* y, T alpha, T beta) override {
    last_ = forward_.get();
    forward_->apply(x, y, alpha, beta);
  }
  void run_apply_transposed(const T* x, T* y, T alpha, T beta) override {
    last_ = transposed_.get();
    transposed_->apply(x, y, alpha, beta);
  }
  void run_spmm(const T* b, T* c, index_t k, Layout layout, T alpha, T beta) override {
    last_ = forward_.get();
    forward_->spmm(b, c, k, layout, alpha, beta);
  }

 private:
  std::unique_ptr<Operator<T>> forward_;
  std::unique_ptr<Operator<T>> transposed_;
  double transposed_seconds_;
  const Operator<T>* last_;  // the one the last call ran, for last_transfer_seconds
};

}  // namespace

template <class T>
std::unique_ptr<Operator<T>> make_paired_operator(std::unique_ptr<Operator<T>> forward,
                                                  std::unique_ptr<Operator<T>> transposed,
                                                  double transposed_seconds) {
  return std::make_unique<PairedOperator<T>>(std::move(forward), std::move(transposed), transposed_seconds);
}
template std::unique_ptr<Operator<float>> make_paired_operator(std::unique_ptr<Operator<float>>,
                                                               std::unique_ptr<Operator<float>>, double);
template std::unique_ptr<Operator<double>> make_paired_operator(std::unique_ptr<Operator<double>>,
                                                                std::unique_ptr<Operator<double>>, double);

}  // namespace spmv::detail
