// Labelled data sets in LIBSVM or the binary cache: see labeled_data.hpp.
#include "labeled_data.hpp"

#include <fmt/format.h>

#include "spmv/error.hpp"

namespace spmv::cli {

std::string labels_path(const std::string& binary_path) { return binary_path + ".labels"; }

template <class T>
LabeledMatrix<T> read_labeled_data(const std::string& path, FileFormat format) {
  if (format == FileFormat::libsvm) return read_libsvm<T>(path);
  if (format != FileFormat::binary)
    throw InvalidArgument(path + ": a Matrix Market file has no labels (use LIBSVM or .spmv with " +
                          labels_path("its .spmv") + ")");
  LabeledMatrix<T> data{read_binary<T>(path), {}};
  const std::string label_file = labels_path(path);
  const Csr<double> labels = read_binary<double>(label_file);
  if (labels.rows != data.features.rows || labels.cols != 1 || labels.nnz() != labels.rows)
    throw InvalidArgument(fmt::format(
        "{}: expected a {} x 1 column with every entry stored (the labels of {}), found {} x {} "
        "with {} entries",
        label_file, data.features.rows, path, labels.rows, labels.cols, labels.nnz()));
  data.labels = labels.values;
  return data;
}

template <class T>
void write_labeled_data(const std::string& path, FileFormat format, const LabeledMatrix<T>& data) {
  if (format == FileFormat::libsvm) {
    write_libsvm(path, data);
    return;
  }
  if (format == FileFormat::binary && !data.labels.empty()) {
    Csr<double> labels;
    labels.rows = data.features.rows;
    labels.cols = 1;
    labels.row_ptr.resize(static_cast<std::size_t>(labels.rows) + 1);
    for (index_t r = 0; r <= labels.rows; ++r) labels.row_ptr[r] = r;
    labels.col_idx.assign(static_cast<std::size_t>(labels.rows), 0);
    labels.values = data.labels;
    write_binary(labels_path(path), labels);
  }
  write_matrix(path, data.features);
}

template LabeledMatrix<float> read_labeled_data<float>(const std::string&, FileFormat);
template LabeledMatrix<double> read_labeled_data<double>(const std::string&, FileFormat);
template void write_labeled_data<float>(const std::string&, FileFormat, const LabeledMatrix<float>&);
template void write_labeled_data<double>(const std::string&, FileFormat, const LabeledMatrix<double>&);

}  // namespace spmv::cli
