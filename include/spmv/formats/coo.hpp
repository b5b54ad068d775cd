// COO as a storage format for the kernels: the triplets of Coo<T>
// (matrix.hpp) in row-major order, as to_coo(csr) produces them. The GPU
// kernel (Bell & Garland's warp-level segmented reduction) relies on that
// order; it never pads, so it is never refused.
#pragma once

#include "spmv/formats/footprint.hpp"
#include "spmv/matrix.hpp"

namespace spmv {

template <class T>
FormatFootprint coo_footprint(const Csr<T>& a);

// y = alpha * A * x + beta * y for triplets in any order (duplicates add up);
// y is not read when beta == 0.
template <class T>
void multiply(const Coo<T>& a, const T* x, T* y, T alpha, T beta);

}  // namespace spmv
