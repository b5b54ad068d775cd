// Matrix Market writer: always "coordinate real general", entries in row
// order, values in the shortest form that reads back exactly.
#include "io/text_writer.hpp"
#include "spmv/io.hpp"

namespace spmv {

template <class T>
void write_matrix_market(const std::string& path, const Csr<T>& a) {
  validate(a);
  io::TextWriter out(path);
  out.text("%%MatrixMarket matrix coordinate real general\n");
  out.integer(a.rows);
  out.character(' ');
  out.integer(a.cols);
  out.character(' ');
  out.integer(a.nnz());
  out.character('\n');
  for (index_t r = 0; r < a.rows; ++r) {
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      out.integer(r + 1);
      out.character(' ');
      out.index_and_value(a.col_idx[k] + 1, ' ', a.values[k]);
      out.character('\n');
    }
  }
  out.commit();
}

template void write_matrix_market(const std::string&, const Csr<float>&);
template void write_matrix_market(const std::string&, const Csr<double>&);

}  // namespace spmv
