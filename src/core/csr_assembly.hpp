// The Csr of stored entries as a file reader has them (the Matrix Market
// reader): one triangle of a symmetric or skew-symmetric matrix, or the
// positions alone of a pattern file, assembled without a second copy.
#pragma once

#include "spmv/matrix.hpp"

namespace spmv::detail {

// The Csr of the entries, canonicalised as to_csr does; with mirror_sign != 0
// also of the mirror image (c, r, mirror_sign * v) of every off-diagonal
// entry (one stored triangle: sign 1 symmetric, -1 skew-symmetric), placed
// straight into its row. `entries.values` may be empty while there are
// entries: then every value is 1 (a pattern file's reader stores none).
// Throws InvalidArgument for an entry out of range, arrays of different
// lengths or a mirrored non-square matrix, SizeError beyond index_t; the
// messages start with `what`.
template <class T>
Csr<T> assemble_csr(const Coo<T>& entries, T mirror_sign, const std::string& what);

}  // namespace spmv::detail
