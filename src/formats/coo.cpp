// COO: footprint and the serial reference product.
#include "spmv/formats/coo.hpp"

#include <vector>

#include "formats/format_common.hpp"

namespace spmv {

template <class T>
FormatFootprint coo_footprint(const Csr<T>& a) {
  FormatFootprint f;
  f.nnz = a.nnz();
  f.stored_entries = a.nnz();
  f.bytes = static_cast<std::size_t>(a.nnz()) * (2 * sizeof(index_t) + sizeof(T));
  f.csr_bytes = csr_bytes(a.rows, a.nnz(), sizeof(T));
  return f;
}

template <class T>
void multiply(const Coo<T>& a, const T* x, T* y, T alpha, T beta) {
  std::vector<double> sums(a.rows, 0.0);
  for (index_t k = 0; k < a.nnz(); ++k)
    sums[a.row_idx[k]] += static_cast<double>(a.values[k]) * static_cast<double>(x[a.col_idx[k]]);
  for (index_t r = 0; r < a.rows; ++r) detail::store_scaled(y[r], sums[r], alpha, beta);
}

template FormatFootprint coo_footprint(const Csr<float>&);
template FormatFootprint coo_footprint(const Csr<double>&);
template void multiply(const Coo<float>&, const float*, float*, float, float);
template void multiply(const Coo<double>&, const double*, double*, double, double);

}  // namespace spmv
