// The check of an operator planned with a reordering, shared by the unit
// tests (host backends) and the GPU tests (host and device operands): every
// product, in the caller's order, against the reference of the ORIGINAL
// matrix, for alpha/beta cases with y poisoned by NaN when beta == 0.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <vector>

#include "spmv/operator.hpp"
#include "spmv/reorder.hpp"
#include "test_support.hpp"

namespace spmv::test {

// Runs `product(in, out)` with the operands where the test wants them (host
// vectors as they are, or copies on the device), leaving the result in `out`.
template <class T>
using OperandPlacement =
    std::function<void(const std::vector<T>& in, std::vector<T>& out,
                       const std::function<void(const T* in, T* out)>& product)>;

template <class T>
void place_on_host(const std::vector<T>& in, std::vector<T>& out,
                   const std::function<void(const T*, T*)>& product) {
  product(in.data(), out.data());
}

// Matrices a reordering applies to: every shape for BAR, square ones for the others.
inline bool reorderable(Reordering method, const Csr<double>& a) {
  return method == Reordering::bro_aware || a.rows == a.cols;
}

template <class T>
void expect_reordered_products_match(const Csr<T>& a, Operator<T>& op,
                                     const OperandPlacement<T>& place) {
  const auto poisoned_or_random = [](std::size_t n, T beta, std::uint64_t seed) {
    return beta == T(0) ? std::vector<T>(n, std::numeric_limits<T>::quiet_NaN())
                        : random_vector<T>(n, seed);
  };
  const auto rows = static_cast<std::size_t>(a.rows), cols = static_cast<std::size_t>(a.cols);
  for (const auto& [alpha, beta] : {std::pair<T, T>{1, 0}, std::pair<T, T>{2.5, -0.5}}) {
    SCOPED_TRACE(::testing::Message() << "alpha " << alpha << ", beta " << beta);
    const std::vector<T> x = random_vector<T>(cols, 1), y0 = poisoned_or_random(rows, beta, 2);
    std::vector<T> y = y0;
    place(x, y, [&](const T* in, T* out) { op.apply(in, out, alpha, beta); });
    EXPECT_TRUE(matches_reference_spmv(a, x, y0, alpha, beta, y)) << "apply";

    const std::vector<T> xt = random_vector<T>(rows, 3), yt0 = poisoned_or_random(cols, beta, 4);
    std::vector<T> yt = yt0;
    place(xt, yt, [&](const T* in, T* out) { op.apply_transposed(in, out, alpha, beta); });
    EXPECT_TRUE(matches_reference_spmv_transposed(a, xt, yt0, alpha, beta, yt)) << "apply_transposed";

    for (Layout layout : {Layout::row_major, Layout::col_major})
      for (index_t k : {1, 3}) {
        const std::vector<T> b = random_vector<T>(cols * k, 5),
                             c0 = poisoned_or_random(rows * k, beta, 6);
        std::vector<T> c = c0;
        place(b, c, [&](const T* in, T* out) { op.spmm(in, out, k, layout, alpha, beta); });
        EXPECT_TRUE(matches_reference_spmm(a, b, c0, k, layout, alpha, beta, c))
            << "spmm " << to_string(layout) << " k=" << k;
      }
  }
}

}  // namespace spmv::test
