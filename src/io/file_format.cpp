// Choosing a file format from a name or an extension, and the read_matrix /
// write_matrix entry points that dispatch on it.
#include <string>

#include "io/output_file.hpp"
#include "spmv/error.hpp"
#include "spmv/io.hpp"

namespace spmv {

namespace {

constexpr FileFormat all_formats[] = {FileFormat::matrix_market, FileFormat::libsvm, FileFormat::binary};

struct Extension {
  const char* suffix;
  FileFormat format;
};
constexpr Extension extensions[] = {
    {".mtx", FileFormat::matrix_market},    {".mtx.gz", FileFormat::matrix_market},
    {".libsvm", FileFormat::libsvm},        {".libsvm.gz", FileFormat::libsvm},
    {".svm", FileFormat::libsvm},           {".svm.gz", FileFormat::libsvm},
    {".spmv", FileFormat::binary},
};

}  // namespace

const char* to_string(FileFormat format) {
  switch (format) {
    case FileFormat::matrix_market: return "mtx";
    case FileFormat::libsvm: return "libsvm";
    case FileFormat::binary: return "spmv";
  }
  return "?";
}

FileFormat file_format_from_name(const std::string& name) {
  for (FileFormat format : all_formats)
    if (name == to_string(format)) return format;
  throw InvalidArgument("unknown file format '" + name + "' (expected mtx, libsvm or spmv)");
}

FileFormat file_format_from_path(const std::string& path) {
  for (const Extension& extension : extensions)
    if (io::ends_with_ignoring_case(path, extension.suffix)) return extension.format;
  throw InvalidArgument("cannot tell the format of '" + path +
                        "' from its extension (expected .mtx, .mtx.gz, .libsvm, .svm, their .gz "
                        "forms, or .spmv); name the format explicitly");
}

template <class T>
Csr<T> read_matrix(const std::string& path, FileFormat format, const ReadOptions& options) {
  switch (format) {
    case FileFormat::matrix_market: return read_matrix_market<T>(path, options);
    case FileFormat::libsvm: return read_libsvm<T>(path, options).features;
    case FileFormat::binary: return read_binary<T>(path, options);
  }
  throw InvalidArgument("unknown file format");
}

template <class T>
Csr<T> read_matrix(const std::string& path, const ReadOptions& options) {
  return read_matrix<T>(path, file_format_from_path(path), options);
}

template <class T>
void write_matrix(const std::string& path, const Csr<T>& a) {
  switch (file_format_from_path(path)) {
    case FileFormat::matrix_market: return write_matrix_market(path, a);
    case FileFormat::libsvm: return write_libsvm(path, LabeledMatrix<T>{a, std::vector<double>(a.rows, 0.0)});
    case FileFormat::binary: return write_binary(path, a);
  }
}

#define SPMV_INSTANTIATE(T)                                                                   \
  template Csr<T> read_matrix(const std::string&, FileFormat, const ReadOptions&);           \
  template Csr<T> read_matrix(const std::string&, const ReadOptions&);                       \
  template void write_matrix(const std::string&, const Csr<T>&);
SPMV_INSTANTIATE(float)
SPMV_INSTANTIATE(double)
#undef SPMV_INSTANTIATE

}  // namespace spmv
