// HYB (Bell & Garland; Tang et al. 2013, section 2.1.3): the first K entries
// of every row in ELL, the entries beyond K in row-ordered COO. K comes from
// the Bell-Garland rule (spmv::hyb_split_width in stats.hpp) unless given.
#pragma once

#include "spmv/formats/ell.hpp"
#include "spmv/formats/footprint.hpp"
#include "spmv/matrix.hpp"

namespace spmv {

template <class T>
struct Hyb {
  Ell<T> ell;  // width K
  Coo<T> coo;  // entries beyond K, row-major order
};

struct HybOptions {
  index_t ell_width = -1;  // K; -1 chooses it by hyb_split_width
  double max_padding = default_max_padding;
};

// K of options (the Bell-Garland rule when options.ell_width is -1).
template <class T>
index_t hyb_ell_width(const Csr<T>& a, const HybOptions& options = {});

// Entries beyond the first ell_width of each row: those of the COO part.
template <class T>
std::int64_t hyb_coo_nnz(const Csr<T>& a, index_t ell_width);

template <class T>
FormatFootprint hyb_footprint(const Csr<T>& a, index_t ell_width);
// HYB of ELL width `ell_width` for `rows` rows, `nnz` entries of which
// `coo_nnz` lie beyond the first ell_width of their rows.
template <class T>
FormatFootprint hyb_footprint(index_t rows, index_t ell_width, std::int64_t nnz, std::int64_t coo_nnz);

// Throws FormatLimitError when that HYB exceeds `max_padding` times the CSR
// bytes: hyb_from_csr's check, shared with the device build.
template <class T>
void check_hyb_limit(index_t rows, index_t ell_width, std::int64_t nnz, std::int64_t coo_nnz, double max_padding);

// Throws InvalidArgument for ell_width < -1, FormatLimitError when the ELL
// part's padding makes the whole exceed options.max_padding.
template <class T>
Hyb<T> hyb_from_csr(const Csr<T>& a, const HybOptions& options = {});

// y = alpha * A * x + beta * y; y is not read when beta == 0.
template <class T>
void multiply(const Hyb<T>& a, const T* x, T* y, T alpha, T beta);

}  // namespace spmv
