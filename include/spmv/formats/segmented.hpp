// The segmented-scan format (Sengupta, Harris, Zhang & Owens 2007, as in
// CUDPP; the baseline of Baskaran & Bordawekar 2009, section 5.1): the CSR
// arrays plus a head flag at the first entry of every non-empty row. The
// product forms all a_ij * x_j, runs an inclusive segmented scan over them
// (each row a segment), and gathers each row's last scanned value.
#pragma once

#include <cstdint>
#include <vector>

#include "spmv/formats/footprint.hpp"
#include "spmv/matrix.hpp"

namespace spmv {

template <class T>
struct Segmented {
  Csr<T> csr;                           // row_ptr locates each row's last entry for the gather
  std::vector<std::uint8_t> head_flags;  // nnz entries: 1 where a row starts
};

template <class T>
FormatFootprint segmented_footprint(const Csr<T>& a);

// Never refused: the flags add one byte per entry.
template <class T>
Segmented<T> segmented_from_csr(const Csr<T>& a);

// The three steps of the GPU product, serially: products, inclusive
// segmented scan, gather. y is not read when beta == 0.
template <class T>
void multiply(const Segmented<T>& a, const T* x, T* y, T alpha, T beta);

}  // namespace spmv
