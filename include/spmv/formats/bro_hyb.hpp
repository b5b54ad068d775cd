// BRO-HYB (Tang et al. 2013, section 3.3): HYB's split with compressed
// parts. The first K entries of every row go to BRO-ELL, the entries beyond
// K to BRO-COO; K comes from the Bell-Garland rule (hyb_ell_width), as for
// HYB, unless given.
#pragma once

#include "spmv/formats/bro_coo.hpp"
#include "spmv/formats/bro_ell.hpp"
#include "spmv/formats/bro_metrics.hpp"
#include "spmv/formats/footprint.hpp"
#include "spmv/matrix.hpp"

namespace spmv {

template <class T>
struct BroHyb {
  BroEll<T> ell;  // the first K entries of every row
  BroCoo<T> coo;  // the entries beyond K
};

struct BroHybOptions {
  index_t ell_width = -1;  // K; -1 chooses it by hyb_ell_width
  BroEllOptions ell;       // the BRO-ELL part; its max_padding limits the whole BRO-HYB
  BroCooOptions coo;       // the BRO-COO part
};

// Both parts' bytes. Throws InvalidArgument for bad options.
template <class T>
FormatFootprint bro_hyb_footprint(const Csr<T>& a, const BroHybOptions& options = {});

// Throws InvalidArgument for bad options, FormatLimitError when the whole
// exceeds options.ell.max_padding times the CSR bytes (or value codes are
// demanded of an ELL part with too many distinct values).
template <class T>
BroHyb<T> bro_hyb_from_csr(const Csr<T>& a, const BroHybOptions& options = {});

// y = alpha * A * x + beta * y, decoding both parts; y is not read when beta == 0.
template <class T>
void multiply(const BroHyb<T>& a, const T* x, T* y, T alpha, T beta);

// The matrix back, decoded from both parts (exact).
template <class T>
Csr<T> to_csr(const BroHyb<T>& a);

// Share of the non-zeros in the BRO-ELL part (the paper's Table 4; 0
// without entries).
template <class T>
double bro_hyb_ell_fraction(const BroHyb<T>& a);

// Compression of the whole index data. Against HYB (the paper's eta in
// Table 4): O = the ELL part's column indices as bro_ell_metrics counts them
// plus the COO part's row and column indices; C = the BRO-ELL index data,
// the BRO-COO compressed rows and its column indices (stored as in COO).
// Against CSR: O = row pointers and column indices, the same C.
template <class T>
CompressionMetrics bro_hyb_metrics(const BroHyb<T>& a);

}  // namespace spmv
