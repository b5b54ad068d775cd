// The SpMM of an operator planned for the SpMV: such an operator does not
// know k when it is built, so it plans the SpMM of each k and layout at its
// first spmm() with them, on its own CSR (make_plan with spmm_columns = k),
// outside a CUDA graph capture. The cuda operator builds what the plan names,
// cuSPARSE's algorithms included; the cusparse operator takes the plan's best
// cuSPARSE algorithm (cuda_operator.cpp, cusparse_operator.cpp).
#pragma once

#include <cuda_runtime.h>

#include "spmv/plan.hpp"

namespace spmv::detail {

// make_plan's plan for that SpMM of `csr` (the operator's CSR), from the
// options the operator was built with: the cuda backend (the
// selector's: ours and cuSPARSE's algorithms), no kernel or parameters named,
// no reordering (the operator's CSR is the matrix its products run on), no
// A^T, the model's choice for the device the operator is on.
template <class T>
Plan plan_operator_spmm(const DeviceCsrView<T>& csr, PlanOptions built_with, index_t k, Layout layout);

// Whether `stream` is being captured into a CUDA graph, where a plan (which
// allocates and waits) cannot run.
bool capturing(cudaStream_t stream);

}  // namespace spmv::detail
