// The thread-safety contract of operator.hpp: different operators may be used
// from different threads at once (bitwise the results of serial use); one
// operator used by a second thread while a call holds it is refused, and the
// call that holds it is not disturbed. The refusal lives in the Operator
// base, which every backend's operator goes through.
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/operator.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

std::unique_ptr<Operator<double>> cpu_operator(const Csr<double>& a) {
  PlanOptions options;
  options.backend = Backend::cpu;
  return plan(a, options);
}

std::vector<double> repeated_products(Operator<double>& op, const std::vector<double>& x) {
  std::vector<double> y(op.rows(), 0.0);
  for (int i = 0; i < 20; ++i) op.apply(x.data(), y.data(), 1.0, 0.5);
  return y;
}

TEST(OperatorThreads, TwoOperatorsFromTwoThreadsMatchSerialUse) {
  const Csr<double> a = generate(parse_generator_spec("rmat:scale=11"));
  const Csr<double> b = generate(parse_generator_spec("stencil27:n=14"));
  const auto op_a = cpu_operator(a);
  const auto op_b = cpu_operator(b);
  const std::vector<double> xa = test::random_vector<double>(a.cols, 1);
  const std::vector<double> xb = test::random_vector<double>(b.cols, 2);
  const std::vector<double> serial_a = repeated_products(*op_a, xa);
  const std::vector<double> serial_b = repeated_products(*op_b, xb);
  std::vector<double> threaded_a, threaded_b;
  std::thread first([&] { threaded_a = repeated_products(*op_a, xa); });
  std::thread second([&] { threaded_b = repeated_products(*op_b, xb); });
  first.join();
  second.join();
  EXPECT_EQ(threaded_a, serial_a);
  EXPECT_EQ(threaded_b, serial_b);
}

// A cpu operator whose apply, once inside (the operator claimed), says so and
// waits to be released before running the product: the test decides when a
// second call arrives, so that nothing depends on timing.
class HeldOperator final : public Operator<double> {
 public:
  HeldOperator(std::unique_ptr<Operator<double>> inner, std::shared_future<void> release)
      : Operator<double>(inner->rows(), inner->cols()), inner_(std::move(inner)),
        release_(std::move(release)) {}
  std::future<void> entered() { return entered_.get_future(); }
  OperatorDescription describe() const override { return inner_->describe(); }

 protected:
  void run_apply(const double* x, double* y, double alpha, double beta) override {
    entered_.set_value();
    release_.wait();
    inner_->apply(x, y, alpha, beta);
  }
  void run_apply_transposed(const double* x, double* y, double alpha, double beta) override {
    inner_->apply_transposed(x, y, alpha, beta);
  }
  void run_spmm(const double* b, double* c, index_t k, Layout layout, double alpha, double beta) override {
    inner_->spmm(b, c, k, layout, alpha, beta);
  }

 private:
  std::unique_ptr<Operator<double>> inner_;
  std::promise<void> entered_;
  std::shared_future<void> release_;
};

TEST(OperatorThreads, ASharedOperatorIsRefusedNotCorrupted) {
  const Csr<double> a = generate(parse_generator_spec("rmat:scale=10"));
  const std::vector<double> x = test::random_vector<double>(a.cols, 3);
  std::vector<double> expected(a.rows);
  cpu_operator(a)->apply(x.data(), expected.data());

  std::promise<void> release;
  HeldOperator op(cpu_operator(a), release.get_future().share());
  std::future<void> entered = op.entered();
  std::vector<double> y(a.rows, 0.0);
  std::thread holder([&] { op.apply(x.data(), y.data()); });
  entered.wait();  // the holder has claimed the operator

  std::vector<double> intruder(a.rows, 0.0);
  try {
    op.apply(x.data(), intruder.data());
    ADD_FAILURE() << "a second call on a busy operator was not refused";
  } catch (const InvalidArgument& refusal) {
    EXPECT_NE(std::string(refusal.what()).find("'" + op.describe().kernel + "'"), std::string::npos)
        << refusal.what();
    EXPECT_NE(std::string(refusal.what()).find("in use"), std::string::npos) << refusal.what();
  }
  EXPECT_THROW(op.spmm(x.data(), intruder.data(), 1, Layout::row_major), InvalidArgument);
  release.set_value();
  holder.join();
  EXPECT_EQ(y, expected);
  EXPECT_EQ(intruder, std::vector<double>(a.rows, 0.0));

  // Released: the operator serves the next call (apply_transposed does not wait).
  std::vector<double> transposed(a.cols);
  EXPECT_NO_THROW(op.apply_transposed(y.data(), transposed.data()));
}

TEST(OperatorThreads, HostBackendsKeepTheStreamTheyAreGiven) {
  const Csr<double> a = generate(parse_generator_spec("stencil27:n=4"));
  PlanOptions options;
  options.backend = Backend::cpu;
  EXPECT_EQ(plan(a, options)->stream(), per_thread_stream());
  options.stream = nullptr;  // the legacy default stream
  const auto op = plan(a, options);
  EXPECT_EQ(op->stream(), nullptr);
  op->set_stream(per_thread_stream());
  EXPECT_EQ(op->stream(), per_thread_stream());
}

}  // namespace
}  // namespace spmv
