// Shared by the host and GPU tests of the distributed operator: products,
// transposed products and SpMM of a distributed operator over P parts
// against the reference, with y = NaN for beta == 0 (must not be read) and
// with alpha and beta.
#pragma once

#include <limits>
#include <string>

#include "spmv/distributed.hpp"
#include "test_support.hpp"

namespace spmv::test {

template <class T>
void check_distributed_products(const Csr<double>& matrix, const std::string& name, PartitionMethod method,
                                int parts, const DistributedOptions& options) {
  const Csr<T> a = cast<T>(matrix);
  SCOPED_TRACE(name + " / " + std::to_string(parts) + " parts by " + to_string(method) + " / " +
               to_string(options.exchange) + " / " + to_string(options.part_options.backend) +
               (sizeof(T) == 4 ? " / f32" : " / f64"));
  const auto op = make_distributed_operator(a, partition(a, method, parts), options);
  ASSERT_EQ(op->parts(), parts);
  const auto x = random_vector<T>(a.cols, 21);
  const auto y0 = random_vector<T>(a.rows, 22);
  std::vector<T> y(a.rows, std::numeric_limits<T>::quiet_NaN());
  op->apply(x.data(), y.data());
  EXPECT_TRUE(matches_reference_spmv(a, x, {}, T(1), T(0), y));
  y = y0;
  op->apply(x.data(), y.data(), T(-0.5), T(2));
  EXPECT_TRUE(matches_reference_spmv(a, x, y0, T(-0.5), T(2), y));
  // Again with other x: from its second call with the same scalars a device
  // operator replays its steps as a captured graph.
  for (std::uint64_t round = 0; round < 2; ++round) {
    const auto other_x = random_vector<T>(a.cols, 30 + round);
    y = y0;
    op->apply(other_x.data(), y.data(), T(-0.5), T(2));
    EXPECT_TRUE(matches_reference_spmv(a, other_x, y0, T(-0.5), T(2), y)) << "repeated product " << round;
  }
  // The transposed product (x of rows entries, y of cols), with y = NaN for
  // beta == 0 and with alpha and beta; the forward products after it are
  // unchanged (it keeps vectors of its own).
  const auto xt = random_vector<T>(a.rows, 23);
  const auto yt0 = random_vector<T>(a.cols, 24);
  std::vector<T> yt(a.cols, std::numeric_limits<T>::quiet_NaN());
  op->apply_transposed(xt.data(), yt.data());
  EXPECT_TRUE(matches_reference_spmv_transposed(a, xt, {}, T(1), T(0), yt)) << "transposed";
  yt = yt0;
  op->apply_transposed(xt.data(), yt.data(), T(-0.5), T(2));
  EXPECT_TRUE(matches_reference_spmv_transposed(a, xt, yt0, T(-0.5), T(2), yt)) << "transposed, alpha and beta";
  // SpMM through the same parts, both layouts, C = NaN for beta == 0, then
  // alpha and beta; k grows from 3 to 5 (a device operator remakes its buffers).
  for (const index_t k : {index_t{3}, index_t{5}})
    for (const Layout layout : {Layout::row_major, Layout::col_major}) {
      const auto b = random_vector<T>(static_cast<std::size_t>(a.cols) * k, 50 + k);
      const auto c0 = random_vector<T>(static_cast<std::size_t>(a.rows) * k, 60 + k);
      std::vector<T> c(c0.size(), std::numeric_limits<T>::quiet_NaN());
      op->spmm(b.data(), c.data(), k, layout);
      EXPECT_TRUE(matches_reference_spmm(a, b, {}, k, layout, T(1), T(0), c))
          << "spmm " << to_string(layout) << " k=" << k;
      c = c0;
      op->spmm(b.data(), c.data(), k, layout, T(-0.5), T(2));
      EXPECT_TRUE(matches_reference_spmm(a, b, c0, k, layout, T(-0.5), T(2), c))
          << "spmm, alpha and beta, " << to_string(layout) << " k=" << k;
    }
  // The steps one at a time give the same result as run(), also repeated.
  for (std::uint64_t round = 0; round < 2; ++round) {
    const auto stepped_x = random_vector<T>(a.cols, 40 + round);
    std::vector<T> stepped(a.rows, T(0));
    op->load_x(stepped_x.data());
    op->exchange();
    for (int p = 0; p < parts; ++p) op->multiply_part(p, T(1), T(0));
    op->store_y(stepped.data());
    EXPECT_TRUE(matches_reference_spmv(a, stepped_x, {}, T(1), T(0), stepped)) << "steps, round " << round;
  }
}

}  // namespace spmv::test
