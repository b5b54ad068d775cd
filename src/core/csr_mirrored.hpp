// A symmetric matrix's Csr from one stored triangle (the Matrix Market
// reader's symmetric and skew-symmetric files).
#pragma once

#include "spmv/matrix.hpp"

namespace spmv {

// The Csr of a symmetric matrix (skew: skew-symmetric) from one stored
// triangle and the diagonal: each off-diagonal entry (r, c, v) also gives
// (c, r, v) (skew: -v), placed straight into the Csr without a second copy of
// the entries. Otherwise as to_csr; InvalidArgument for a non-square triangle.
template <class T>
Csr<T> to_csr_mirrored(const Coo<T>& triangle, bool skew);

}  // namespace spmv
