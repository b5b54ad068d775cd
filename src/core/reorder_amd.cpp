// Approximate minimum degree ordering from SuiteSparse AMD (Amestoy, Davis,
// Duff), linked statically. amd_order takes a compressed-column pattern and
// orders A + A^T itself, so the CSR arrays of A (the CSC arrays of A^T)
// go in unchanged; it ignores the diagonal and the values.
#include <string>

#include "core/reorder_support.hpp"
#include "spmv/error.hpp"
#include "spmv/reorder.hpp"

#ifdef SPMV_HAVE_AMD
#include <suitesparse/amd.h>

#include <type_traits>
static_assert(std::is_same_v<int, spmv::index_t>, "amd_order takes int indices");
#endif

namespace spmv {

template <class T>
std::vector<index_t> approximate_minimum_degree(const Csr<T>& a) {
  detail::require_square(a.rows, a.cols, "amd");
#ifdef SPMV_HAVE_AMD
  std::vector<index_t> order(static_cast<std::size_t>(a.rows));
  if (a.rows == 0) return order;  // amd_order refuses the null P of an empty order
  double info[AMD_INFO];
  const int status = amd_order(a.rows, a.row_ptr.data(), a.col_idx.data(), order.data(),
                               nullptr, info);
  switch (status) {
    case AMD_OK:
    case AMD_OK_BUT_JUMBLED: return order;
    case AMD_OUT_OF_MEMORY:
      throw Error("amd reordering: SuiteSparse AMD ran out of host memory on a " +
                  std::to_string(a.rows) + " x " + std::to_string(a.cols) + " matrix with " +
                  std::to_string(a.nnz()) + " non-zeros");
    default:
      throw InvalidArgument("amd reordering: SuiteSparse AMD refused the matrix as invalid (status " +
                            std::to_string(status) + ")");
  }
#else
  throw Unavailable(
      "amd reordering is not in this build: SuiteSparse AMD (libamd.a and libsuitesparseconfig.a "
      "from libsuitesparse-dev) was not found when it was configured");
#endif
}

template std::vector<index_t> approximate_minimum_degree(const Csr<float>&);
template std::vector<index_t> approximate_minimum_degree(const Csr<double>&);

}  // namespace spmv
