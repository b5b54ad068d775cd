// Labelled data sets for `spmv train`, `predict`, `gen` and `convert`: LIBSVM
// text, or the binary cache. A .spmv file holds one matrix, so the labels of
// X.spmv live beside it in X.spmv.labels: a .spmv file of an m x 1 matrix
// whose entry in row i (always stored, zero included) is the label of row i.
#pragma once

#include <string>

#include "spmv/io.hpp"

namespace spmv::cli {

std::string labels_path(const std::string& binary_path);

// LIBSVM (labels from the rows) or .spmv (labels from labels_path); throws
// InvalidArgument for a Matrix Market file or a .spmv file without labels.
template <class T>
LabeledMatrix<T> read_labeled_data(const std::string& path, FileFormat format);

// LIBSVM or .spmv with its labels file; other formats write the features only.
template <class T>
void write_labeled_data(const std::string& path, FileFormat format, const LabeledMatrix<T>& data);

}  // namespace spmv::cli
