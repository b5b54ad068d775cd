// Internal: whether a kernel's format would refuse a matrix, decided from the
// format's footprint before anything is built where that is cheap (the same rule the builders
// apply: bytes beyond max_padding times the CSR bytes, or more stored
// entries than int32 indices allow).
#pragma once

#include <optional>
#include <string>

#include "spmv/formats/ellpack_r.hpp"
#include "spmv/matrix.hpp"
#include "spmv/stats.hpp"

namespace spmv::detail {

// Empty when the kernel (with its default parameters) accepts `a`; else the
// reason. Kernels that store no padding (CSR, COO, segmented, cuSPARSE)
// never refuse. ELL and HYB are judged from `stats` (the plan's analysis of
// `a`) where it read every row or is far within the limit, else exactly.
// ELLR-T (and the ELLPACK-R SpMM kernels, spmm-fastspmm and spmm-setspmvs)
// is checked with the threads per row its configuration model picks
// on `gpu`, as its builder does; where even 32 threads a row (its widest
// padding) stay within the limit, from the longest row alone. nullopt for the
// formats whose footprint needs every entry (DIA's diagonals, SELL's sorted
// windows, the blocked inspection, the BRO bit widths): on the host that
// costs more than the upload, while their device builds decide it in
// milliseconds before allocating, so the operator checks them when it
// builds (make_operator takes the plan's next candidate on a refusal).
// `a` null: the matrix is on the device, and only what `stats` decides is
// checked (nullopt for the rest, which the device builds check).
template <class T>
std::optional<std::string> format_refusal(const std::string& kernel, const Csr<T>* a, const MatrixStats& stats,
                                          const GpuShape& gpu);

}  // namespace spmv::detail
