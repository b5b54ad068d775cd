// Internal: the operator of a plan that chose A^T's kernel apart from A's
// (PlanOptions::explicit_transpose, Plan::transposed). apply and spmm run the
// operator of A; apply_transposed runs the product of the operator of A^T,
// which holds A^T in the format chosen for it.
#pragma once

#include <memory>

#include "spmv/operator.hpp"

namespace spmv::detail {

// `transposed` multiplies by A^T (its rows are A's columns); making it took
// `transposed_seconds` (A^T built on the device and its operator), which the
// description adds to the build, as it adds its device bytes.
template <class T>
std::unique_ptr<Operator<T>> make_paired_operator(std::unique_ptr<Operator<T>> forward,
                                                  std::unique_ptr<Operator<T>> transposed,
                                                  double transposed_seconds);

}  // namespace spmv::detail
