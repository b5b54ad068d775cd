// Internal: whether a kernel's format would refuse a matrix, decided from the
// format's footprint before anything is built (the same rule the builders
// apply: bytes beyond max_padding times the CSR bytes, or more stored
// entries than int32 indices allow).
#pragma once

#include <string>

#include "spmv/formats/ellpack_r.hpp"
#include "spmv/matrix.hpp"

namespace spmv::detail {

// Empty when the kernel (with its default parameters) accepts `a`; else the
// reason. Kernels that store no padding (CSR, COO, segmented, cuSPARSE)
// never refuse. ELLR-T and BRO-ELL are checked with the threads per row
// their configuration model picks on `gpu`, as their builders do.
template <class T>
std::string format_refusal(const std::string& kernel, const Csr<T>& a, const GpuShape& gpu);

}  // namespace spmv::detail
