// BRO-HYB: HYB's split into two Csr parts, each compressed by its own
// format; footprint, decoding, product and metrics from the parts'.
#include "spmv/formats/bro_hyb.hpp"

#include <algorithm>
#include <limits>

#include "formats/bro_shapes.hpp"
#include "formats/format_common.hpp"
#include "spmv/formats/hyb.hpp"

namespace spmv {

namespace {

// The first `width` entries of every row (head) and the rest (tail).
template <class T>
struct RowSplit {
  Csr<T> head;
  Csr<T> tail;
};

template <class T>
RowSplit<T> split_rows(const Csr<T>& a, index_t width) {
  RowSplit<T> split;
  for (Csr<T>* part : {&split.head, &split.tail}) {
    part->rows = a.rows;
    part->cols = a.cols;
    part->row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  }
  for (index_t r = 0; r < a.rows; ++r) {
    const index_t kept = std::min(width, a.row_length(r));
    split.head.row_ptr[r + 1] = split.head.row_ptr[r] + kept;
    split.tail.row_ptr[r + 1] = split.tail.row_ptr[r] + a.row_length(r) - kept;
  }
  for (Csr<T>* part : {&split.head, &split.tail}) {
    part->col_idx.resize(part->row_ptr.back());
    part->values.resize(part->row_ptr.back());
  }
#pragma omp parallel for schedule(static)
  for (index_t r = 0; r < a.rows; ++r) {
    const auto first = a.row_ptr[r];
    const auto middle = first + (split.head.row_ptr[r + 1] - split.head.row_ptr[r]);
    const auto last = a.row_ptr[r + 1];
    std::copy(a.col_idx.begin() + first, a.col_idx.begin() + middle,
              split.head.col_idx.begin() + split.head.row_ptr[r]);
    std::copy(a.values.begin() + first, a.values.begin() + middle,
              split.head.values.begin() + split.head.row_ptr[r]);
    std::copy(a.col_idx.begin() + middle, a.col_idx.begin() + last,
              split.tail.col_idx.begin() + split.tail.row_ptr[r]);
    std::copy(a.values.begin() + middle, a.values.begin() + last,
              split.tail.values.begin() + split.tail.row_ptr[r]);
  }
  return split;
}

template <class T>
index_t split_width(const Csr<T>& a, const BroHybOptions& options) {
  return hyb_ell_width(a, HybOptions{options.ell_width});
}

template <class T>
FormatFootprint footprint(const Csr<T>& a, const RowSplit<T>& split, const BroHybOptions& options) {
  const FormatFootprint ell = bro_ell_footprint(split.head, options.ell);
  const FormatFootprint coo = bro_coo_footprint(split.tail, options.coo);
  FormatFootprint f;
  f.nnz = a.nnz();
  f.stored_entries = ell.stored_entries + coo.stored_entries;
  f.bytes = ell.bytes + coo.bytes;
  f.csr_bytes = csr_bytes(a.rows, a.nnz(), sizeof(T));
  return f;
}

}  // namespace

template <class T>
FormatFootprint bro_hyb_footprint(const Csr<T>& a, const BroHybOptions& options) {
  return footprint(a, split_rows(a, split_width(a, options)), options);
}

template <class T>
BroHyb<T> bro_hyb_from_csr(const Csr<T>& a, const BroHybOptions& options) {
  const index_t width = split_width(a, options);
  const RowSplit<T> split = split_rows(a, width);
  detail::check_bro_hyb_limit(footprint(a, split, options), width, a.rows, options.ell.max_padding);
  // The whole is within the limit; the ELL part alone may pad more, as in HYB.
  BroEllOptions ell_options = options.ell;
  ell_options.max_padding = std::numeric_limits<double>::infinity();
  return {bro_ell_from_csr(split.head, ell_options), bro_coo_from_csr(split.tail, options.coo)};
}

template <class T>
void multiply(const BroHyb<T>& a, const T* x, T* y, T alpha, T beta) {
  multiply(a.ell, x, y, alpha, beta);
  multiply(a.coo, x, y, alpha, T(1));
}

template <class T>
Csr<T> to_csr(const BroHyb<T>& a) {
  Coo<T> entries = to_coo(to_csr(a.ell));
  const Coo<T> tail = to_coo(a.coo);
  entries.row_idx.insert(entries.row_idx.end(), tail.row_idx.begin(), tail.row_idx.end());
  entries.col_idx.insert(entries.col_idx.end(), tail.col_idx.begin(), tail.col_idx.end());
  entries.values.insert(entries.values.end(), tail.values.begin(), tail.values.end());
  return to_csr(entries);
}

template <class T>
double bro_hyb_ell_fraction(const BroHyb<T>& a) {
  const std::int64_t nnz = std::int64_t(a.ell.nnz) + a.coo.nnz();
  return nnz == 0 ? 0.0 : static_cast<double>(a.ell.nnz) / static_cast<double>(nnz);
}

template <class T>
CompressionMetrics bro_hyb_metrics(const BroHyb<T>& a) {
  return detail::bro_hyb_metrics(detail::bro_ell_shape(a.ell), detail::bro_coo_shape(a.coo));
}

#define SPMV_INSTANTIATE_BRO_HYB(T)                                                \
  template FormatFootprint bro_hyb_footprint(const Csr<T>&, const BroHybOptions&); \
  template BroHyb<T> bro_hyb_from_csr(const Csr<T>&, const BroHybOptions&);        \
  template void multiply(const BroHyb<T>&, const T*, T*, T, T);                    \
  template Csr<T> to_csr(const BroHyb<T>&);                                        \
  template double bro_hyb_ell_fraction(const BroHyb<T>&);                          \
  template CompressionMetrics bro_hyb_metrics(const BroHyb<T>&);
SPMV_INSTANTIATE_BRO_HYB(float)
SPMV_INSTANTIATE_BRO_HYB(double)
#undef SPMV_INSTANTIATE_BRO_HYB

}  // namespace spmv
