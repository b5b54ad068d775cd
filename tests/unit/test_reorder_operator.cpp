// The reordering inside the operator on the host backends: the caller's x
// and y stay in the original order for every product.
#include <gtest/gtest.h>

#include "reordered_products.hpp"
#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/operator.hpp"

namespace spmv {
namespace {

Csr<double> generated(const std::string& spec) { return generate(parse_generator_spec(spec)); }

constexpr Reordering reorderings[] = {Reordering::rcm, Reordering::amd, Reordering::bro_aware};

TEST(ReorderedOperator, HostBackendsMatchTheReferenceOfTheOriginalMatrix) {
  for (Backend backend : {Backend::reference, Backend::cpu})
    for (Reordering method : reorderings)
      for (const auto& [name, a] : test::matrix_zoo()) {
        if (!test::reorderable(method, a)) continue;
        SCOPED_TRACE(::testing::Message() << to_string(backend) << ", " << to_string(method) << ", " << name);
        PlanOptions options;
        options.backend = backend;
        options.reordering = method;
        auto op = plan(a, options);
        EXPECT_EQ(op->describe().reordering, method);
        EXPECT_GE(op->describe().reorder_seconds, 0.0);
        test::expect_reordered_products_match<double>(a, *op, test::place_on_host<double>);
      }
}

TEST(ReorderedOperator, ExplicitTransposeAndSinglePrecision) {
  const Csr<float> a = cast<float>(generated("rmat:scale=11"));
  for (Reordering method : reorderings) {
    SCOPED_TRACE(to_string(method));
    PlanOptions options;
    options.reordering = method;
    options.explicit_transpose = true;
    auto op = plan(a, options);
    test::expect_reordered_products_match<float>(a, *op, test::place_on_host<float>);
  }
}

TEST(ReorderedOperator, DescribesTheInnerOperator) {
  const Csr<double> a = generated("banded:rows=2000,lower=3,upper=1");
  PlanOptions options;
  options.backend = Backend::cpu;
  const OperatorDescription plain = plan(a, options)->describe();
  EXPECT_EQ(plain.reordering, Reordering::none);
  EXPECT_EQ(plain.reorder_seconds, 0.0);
  options.reordering = Reordering::rcm;
  const OperatorDescription reordered = plan(a, options)->describe();
  EXPECT_EQ(reordered.kernel, plain.kernel);
  EXPECT_EQ(reordered.matrix_bytes, plain.matrix_bytes);  // same non-zeros, same CSR
}

TEST(ReorderedOperator, NonSquareMatricesAreRefusedBySymmetricReorderings) {
  const Csr<double> a = test::from_triplets(3, 5, {{0, 4, 1.0}, {2, 1, 2.0}});
  for (Reordering method : {Reordering::rcm, Reordering::amd}) {
    PlanOptions options;
    options.reordering = method;
    try {
      plan(a, options);
      FAIL() << to_string(method) << " planned a 3 x 5 matrix";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("3 x 5"), std::string::npos) << e.what();
    }
  }
  PlanOptions bar;
  bar.reordering = Reordering::bro_aware;
  EXPECT_EQ(plan(a, bar)->rows(), 3);
}

TEST(ReorderedOperator, NegativeSpmmColumnsAreRefused) {
  PlanOptions options;
  options.reordering = Reordering::rcm;
  auto op = plan(generated("banded:rows=2000,lower=3,upper=1"), options);
  std::vector<double> b(10), c(10);
  EXPECT_THROW(op->spmm(b.data(), c.data(), -1, Layout::row_major, 1.0, 0.0), InvalidArgument);
}

}  // namespace
}  // namespace spmv
