// Deterministic matrix generators (same seed, same matrix, on every machine).
//
// A generator is named by a spec string "KIND" or "KIND:key=value,key=value",
// e.g. "stencil27:n=150" or "rmat:scale=20,edge_factor=16,seed=3". `spmv gen
// --list` and generator_kinds() describe each kind and its parameters.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "spmv/matrix.hpp"

namespace spmv {

struct GeneratorSpec {
  std::string kind;
  std::map<std::string, std::string> params;
};

// Parses "KIND[:k=v,...]"; throws InvalidArgument on syntax errors.
GeneratorSpec parse_generator_spec(const std::string& text);
std::string to_string(const GeneratorSpec& spec);

struct GeneratorParam {
  std::string name;
  std::string default_value;
  std::string help;
};
struct GeneratorKind {
  std::string name;
  std::string help;
  std::vector<GeneratorParam> params;
};
const std::vector<GeneratorKind>& generator_kinds();

// Builds the matrix; throws InvalidArgument on an unknown kind, an unknown or
// malformed parameter, and SizeError when the result would exceed int32.
Csr<double> generate(const GeneratorSpec& spec);

// The individual generators (values are deterministic pseudo-random in
// [-1, 1] excluding small magnitudes unless stated).
Csr<double> gen_stencil_2d_5pt(index_t nx, index_t ny);
Csr<double> gen_stencil_3d(index_t nx, index_t ny, index_t nz, int points);  // 7 or 27
// El Zein's thesis families.
Csr<double> gen_thesis_random(index_t rows, index_t cols, double density, std::uint64_t seed);
Csr<double> gen_constant_row(index_t rows, index_t cols, index_t per_row, std::uint64_t seed);
Csr<double> gen_structured(index_t rows, index_t block, index_t blocks_per_row, std::uint64_t seed);
Csr<double> gen_uniform_random(index_t rows, index_t cols, index_t per_row, std::uint64_t seed);
Csr<double> gen_rmat(int scale, int edge_factor, double a, double b, double c, std::uint64_t seed);
Csr<double> gen_block_fem(index_t nx, index_t ny, index_t nz, index_t block, std::uint64_t seed);
Csr<double> gen_banded(index_t rows, index_t lower, index_t upper, std::uint64_t seed);  // tridiagonal: 1,1
Csr<double> gen_dense(index_t rows, index_t cols, std::uint64_t seed);
Csr<double> gen_wide_lp(index_t rows, index_t cols, index_t per_row, std::uint64_t seed);
Csr<double> gen_few_huge_rows(index_t rows, index_t cols, index_t per_row, index_t huge_rows,
                              index_t huge_length, std::uint64_t seed);

}  // namespace spmv
