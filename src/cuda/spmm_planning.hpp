// The SpMM of an operator planned for the SpMV: such an operator does not
// know k when it is built, so it plans the SpMM of each k and layout at its
// first spmm() with them, on its own CSR (make_plan with spmm_columns = k),
// outside a CUDA graph capture. The cuda operator builds what the plan names,
// cuSPARSE's algorithms included; the cusparse operator takes the plan's best
// cuSPARSE algorithm (cuda_operator.cpp, cusparse_operator.cpp).
#pragma once

#include <cuda_runtime.h>

#include "spmv/operator.hpp"

namespace spmv::detail {

// The options make_plan is given for that SpMM, from the options the operator
// was built with: the cuda backend (the selector's: ours and cuSPARSE's
// algorithms), no kernel or parameters named, no reordering (the operator's
// CSR is the matrix its products run on), no A^T, the model's choice for the
// device the operator is on.
PlanOptions spmm_planning_options(PlanOptions built_with, index_t k, Layout layout);

// Whether `stream` is being captured into a CUDA graph, where a plan (which
// allocates and waits) cannot run.
bool capturing(cudaStream_t stream);

}  // namespace spmv::detail
