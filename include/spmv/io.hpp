// Reading and writing matrices: Matrix Market, LIBSVM and the binary .spmv format.
//
// Every reader returns a canonical Csr (see matrix.hpp) or throws ParseError
// ("FILE:LINE: problem") / IoError. Writers write to a temporary file next to
// the target and rename it, so a failed write never leaves a half-written file.
// Files ending in .gz are read through zlib.
#pragma once

#include <cstdint>
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

// Every reader treats its file as hostile: sizes are checked against the
// file's length before anything is allocated, and the work done is bounded
// by that length, not by the dimensions a header claims.
struct ReadOptions {
  // NaN and Inf values are refused (by all three readers) unless this is set.
  bool allow_nonfinite = false;
  // The most rows or columns a file may have (Matrix Market size line, .spmv
  // header, LIBSVM's largest feature index). 0: the larger of dimension_floor
  // and the file's length in bytes (after decompression). Everything done
  // with a matrix costs memory and time in proportion to its dimensions, so a
  // few bytes must not be able to ask for 2^31 of them.
  std::int64_t max_dimension = 0;
  static constexpr std::int64_t dimension_floor = std::int64_t{1} << 20;
  // The most bytes a gzip-compressed file may inflate to; 0: no limit.
  std::int64_t max_inflated_bytes = 0;
};

// Matrix Market: coordinate (real, integer, pattern; general, symmetric,
// skew-symmetric) and array (dense) forms. Symmetric forms are expanded.
// hermitian is read as symmetric (the field is real: a real hermitian
// matrix is symmetric); complex is refused with a message naming it. A
// `vector` object is read as an n x 1 matrix.
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
Csr<T> read_binary(const std::string& path, const ReadOptions& options = {});
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
