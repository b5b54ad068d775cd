// What `spmv suite` measures: the matrices of a collection (a folder or a
// list file), each as it is and replicated block-diagonally, and the
// generated families of a families file.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "spmv/formats/footprint.hpp"
#include "spmv/types.hpp"

namespace spmv::cli {

// The three sets of the suite, in the order they run.
enum class SuiteSet { real, replicated, family };
const char* to_string(SuiteSet set);

struct SuiteMatrix {
  std::string name;    // the file name without its extension, or the family's name
  std::string source;  // the file path, or the generator spec
  bool generated = false;
};

// DIR: every file in it whose extension names a matrix format, by name. LIST:
// a text file naming one matrix file per line (relative paths are relative to
// the list's folder); blank lines and lines starting with '#' are skipped.
// Throws ParseError (LIST:LINE) for a named file that does not exist, and
// InvalidArgument for a collection without matrices or two of one name.
std::vector<SuiteMatrix> collection_matrices(const std::string& dir_or_list);

// A families file: "NAME SPEC" per line (SPEC as for `spmv gen`), blank lines
// and '#' comments skipped. Throws ParseError (FILE:LINE) for a malformed
// line, a bad spec or a repeated name.
std::vector<SuiteMatrix> family_matrices(const std::string& path);

// The fewest copies of a rows x cols matrix with nnz entries whose product
// data (csr_product_bytes of I_copies (x) A) reaches target_bytes; 1 when
// one copy does (or the matrix has no data).
index_t copies_to_reach(std::int64_t rows, std::int64_t cols, std::int64_t nnz,
                        std::size_t value_bytes, std::size_t target_bytes);

}  // namespace spmv::cli
