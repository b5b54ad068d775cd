// Reading and writing matrices: Matrix Market, LIBSVM and the binary .spmv format.
//
// Every reader returns a canonical Csr (see matrix.hpp) or throws ParseError
// ("FILE:LINE: problem") / IoError. Writers write to a temporary file next to
// the target and rename it, so a failed write never leaves a half-written file.
// Files ending in .gz are read through zlib.
#pragma once

#include <string>
#include <vector>

#include "spmv/matrix.hpp"

namespace spmv {

enum class FileFormat { matrix_market, libsvm, binary };

const char* to_string(FileFormat format);
// "mtx" | "libsvm" | "spmv"; throws InvalidArgument otherwise.
FileFormat file_format_from_name(const std::string& name);
// From the extension (.mtx, .mtx.gz, .libsvm, .svm, .spmv, with optional .gz);
// throws InvalidArgument naming the path when the extension is unknown.
FileFormat file_format_from_path(const std::string& path);

struct ReadOptions {
  // NaN and Inf values are refused unless this is set.
  bool allow_nonfinite = false;
};

// Matrix Market: coordinate (real, integer, pattern; general, symmetric,
// skew-symmetric) and array (dense) forms. Symmetric forms are expanded.
// complex and hermitian are refused with a message naming them. A `vector`
// object is read as an n x 1 matrix.
template <class T>
Csr<T> read_matrix_market(const std::string& path, const ReadOptions& options = {});
template <class T>
void write_matrix_market(const std::string& path, const Csr<T>& a);

// LIBSVM: "label idx:val idx:val ..." with 1-based indices; qid: is skipped.
// The number of columns is the largest index seen unless a larger one is given.
template <class T>
struct LabeledMatrix {
  Csr<T> features;
  std::vector<double> labels;  // one per row
};
template <class T>
LabeledMatrix<T> read_libsvm(const std::string& path, const ReadOptions& options = {},
                             index_t min_cols = 0);
template <class T>
void write_libsvm(const std::string& path, const LabeledMatrix<T>& data);

// Binary .spmv: versioned header, sizes, value type, CRC-32 checksum of the
// payload. Reading converts the stored value type to T.
template <class T>
Csr<T> read_binary(const std::string& path);
template <class T>
void write_binary(const std::string& path, const Csr<T>& a);

// Any supported file, the format from the extension unless given. For LIBSVM
// files the labels are dropped (use read_libsvm to keep them).
template <class T>
Csr<T> read_matrix(const std::string& path, const ReadOptions& options = {});
template <class T>
Csr<T> read_matrix(const std::string& path, FileFormat format, const ReadOptions& options = {});
// Writes by extension; LIBSVM output gets label 0 on every row.
template <class T>
void write_matrix(const std::string& path, const Csr<T>& a);

}  // namespace spmv
