// Internal: the operator of a reordered matrix. plan() with a reordering
// plans the backend on A' = P A Q^T (reorder.hpp) and wraps that operator so
// that the caller's operands stay in the original order:
//   apply:            y = P^T (A' (Q x))      x gathered by the column order,
//                                             y scattered by the row order
//   apply_transposed: y = Q^T (A'^T (P x))    the roles swapped
//   spmm:             C = P^T (A' (Q B))      rows of B and C, either layout
// A side whose order is the identity (the columns under BAR) is not moved.
// When the output side moves, the inner product runs with alpha = 1,
// beta = 0 into scratch and the scatter applies alpha and beta
// (y[p[i]] = alpha * t[i] + beta * y[p[i]], y not read when beta == 0);
// otherwise the inner product writes the caller's output with alpha and beta.
#pragma once

#include <memory>

#include "cpu/host_kernels.hpp"
#include "spmv/operator.hpp"
#include "spmv/reorder.hpp"

namespace spmv::detail {

// Which dimension of A indexes an operand: rows (y of apply, x of
// apply_transposed, C of spmm) or columns (x of apply, y of
// apply_transposed, B of spmm).
enum class MatrixSide { rows, columns };

// Moves dense operands (n x k blocks, n the size of their side) between the
// caller's order and the reordered matrix's, where the operands live (host
// memory or device memory). Made at plan; gather and scatter never allocate.
template <class T>
class OperandPermuter {
 public:
  virtual ~OperandPermuter() = default;
  virtual bool identity(MatrixSide side) const = 0;
  // Row i of `out` = row order[i] of `in`.
  virtual void gather(MatrixSide side, const T* in, T* out, index_t k, Layout layout) = 0;
  // Row order[i] of `out` = alpha * row i of `in` + beta * that row of `out`.
  virtual void scatter(MatrixSide side, const T* in, T* out, index_t k, Layout layout, T alpha,
                       T beta) = 0;
  // Scratch for the operand going into (input) and coming out of (output)
  // the inner product, at least `count` entries. Sized at plan for one
  // vector; SpMM grows it to the largest k seen (its only allocation).
  virtual T* input_scratch(std::size_t count) = 0;
  virtual T* output_scratch(std::size_t count) = 0;
};

// One product of the wrapped operator: `inner(in, out, alpha, beta)` on the
// reordered operands. n_in and n_out are the sizes of the input and output
// sides, k the columns (1 for a vector).
template <class T, class InnerProduct>
void permuted_product(OperandPermuter<T>& permuter, MatrixSide input_side, MatrixSide output_side,
                      index_t n_in, index_t n_out, const T* in, T* out, index_t k, Layout layout,
                      T alpha, T beta, InnerProduct inner) {
  const T* inner_in = in;
  if (!permuter.identity(input_side)) {
    T* gathered = permuter.input_scratch(static_cast<std::size_t>(n_in) * k);
    permuter.gather(input_side, in, gathered, k, layout);
    inner_in = gathered;
  }
  if (permuter.identity(output_side)) {
    inner(inner_in, out, alpha, beta);
    return;
  }
  T* result = permuter.output_scratch(static_cast<std::size_t>(n_out) * k);
  inner(inner_in, result, T(1), T(0));
  permuter.scatter(output_side, result, out, k, layout, alpha, beta);
}

// The three products of a wrapped operator through permuted_product.
template <class T, class Inner>
void permuted_apply(OperandPermuter<T>& permuter, Inner& inner, const T* x, T* y, T alpha, T beta) {
  permuted_product(permuter, MatrixSide::columns, MatrixSide::rows, inner.cols(), inner.rows(), x,
                   y, 1, Layout::row_major, alpha, beta,
                   [&](const T* in, T* out, T a, T b) { inner.apply(in, out, a, b); });
}
template <class T, class Inner>
void permuted_apply_transposed(OperandPermuter<T>& permuter, Inner& inner, const T* x, T* y,
                               T alpha, T beta) {
  permuted_product(permuter, MatrixSide::rows, MatrixSide::columns, inner.rows(), inner.cols(), x,
                   y, 1, Layout::row_major, alpha, beta,
                   [&](const T* in, T* out, T a, T b) { inner.apply_transposed(in, out, a, b); });
}
template <class T, class Inner>
void permuted_spmm(OperandPermuter<T>& permuter, Inner& inner, const T* b, T* c, index_t k,
                   Layout layout, T alpha, T beta) {
  check_spmm_columns(k);
  permuted_product(permuter, MatrixSide::columns, MatrixSide::rows, inner.cols(), inner.rows(), b,
                   c, k, layout, alpha, beta,
                   [&](const T* in, T* out, T a, T bt) { inner.spmm(in, out, k, layout, a, bt); });
}

// The description of a wrapped operator: the inner one's, with the reordering.
OperatorDescription describe_reordered(OperatorDescription inner, const MatrixOrdering& ordering);

// plan() with options.reordering != none.
template <class T>
std::unique_ptr<Operator<T>> make_reordered_operator(const Csr<T>& a, const PlanOptions& options);

#ifdef SPMV_HAVE_CUDA
// The wrapper of a cuda or cusparse operator (src/cuda/permuted_operator.cpp):
// device gather/scatter kernels and device scratch; host operands are staged
// once by the wrapper and the inner operator sees device pointers only.
template <class T>
std::unique_ptr<Operator<T>> make_device_permuted_operator(std::unique_ptr<Operator<T>> inner,
                                                           const MatrixOrdering& ordering);
#endif

}  // namespace spmv::detail
