// Deterministic matrix generators (same seed, same matrix, on every machine:
// the generators use their own integer PRNG, never std:: distributions, and
// the result does not depend on the number of threads).
//
// A generator is named by a spec string "KIND" or "KIND:key=value,key=value",
// e.g. "stencil27:n=150" or "rmat:scale=20,edge_factor=16,seed=3". `spmv gen
// --list` and generator_kinds() describe each kind and its parameters.
//
// Every generator returns a canonical Csr<double>. Random values are
// pseudo-random in [-1, -0.1] U [0.1, 1], a function of (seed, row, column).
// Stencils use constant Laplacian values (diagonal = points - 1, neighbours
// -1), so they are symmetric positive definite and have two distinct values.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "spmv/io.hpp"
#include "spmv/matrix.hpp"

namespace spmv {

struct GeneratorSpec {
  std::string kind;
  std::map<std::string, std::string> params;
};

// Parses "KIND[:k=v,...]"; throws InvalidArgument on syntax errors (empty kind
// or key, a pair without '=', an empty value, a repeated key). Whether the
// kind and keys exist is checked by generate().
GeneratorSpec parse_generator_spec(const std::string& text);
// The inverse of parse_generator_spec; parameters in key order.
std::string to_string(const GeneratorSpec& spec);

struct GeneratorParam {
  std::string name;
  // Used when the spec omits the parameter. Empty when the default is derived
  // from another parameter (the help says which, e.g. nx defaults to n).
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
// malformed parameter or an impossible combination (e.g. more distinct
// columns per row than columns), and SizeError, before allocating, when the
// result would exceed int32.
Csr<double> generate(const GeneratorSpec& spec);
// generate() with labels for the kinds that plant them ("classification");
// the labels of other kinds are empty.
LabeledMatrix<double> generate_labeled(const GeneratorSpec& spec);

// The individual generators. Grid points are numbered x fastest, then y, then z.
// 2-D 5-point Laplacian on an nx x ny grid (diagonal 4).
Csr<double> gen_stencil_2d_5pt(index_t nx, index_t ny);
// 3-D 7-point (diagonal 6) or 27-point (diagonal 26) Laplacian on nx x ny x nz.
Csr<double> gen_stencil_3d(index_t nx, index_t ny, index_t nz, int points);

// El Zein's thesis families (section 4.3.2). Random: every (row, column) is a
// non-zero with probability `density` (the thesis's 1 - sparsity), and a row
// left empty gets one random column. Constant Row: `per_row` distinct uniformly
// random columns in every row. Structured: the same `per_row` random columns
// in every row.
Csr<double> gen_thesis_random(index_t rows, index_t cols, double density, std::uint64_t seed);
Csr<double> gen_constant_row(index_t rows, index_t cols, index_t per_row, std::uint64_t seed);
Csr<double> gen_structured(index_t rows, index_t cols, index_t per_row, std::uint64_t seed);

// `per_row` distinct uniformly random columns in every row.
Csr<double> gen_uniform_random(index_t rows, index_t cols, index_t per_row, std::uint64_t seed);
// R-MAT (Chakrabarti, Zhan & Faloutsos 2004): 2^scale square, edge_factor *
// 2^scale edges, each placed by recursive quadrant choice with probabilities
// a, b, c and d = 1 - a - b - c; duplicate edges are summed, self loops kept.
Csr<double> gen_rmat(int scale, int edge_factor, double a, double b, double c, std::uint64_t seed);
// b x b dense blocks on the 7-point stencil of an nx x ny x nz grid of nodes.
Csr<double> gen_block_fem(index_t nx, index_t ny, index_t nz, index_t block, std::uint64_t seed);
// Square, entries (i, j) with i - lower <= j <= i + upper. Tridiagonal: 1, 1.
Csr<double> gen_banded(index_t rows, index_t lower, index_t upper, std::uint64_t seed);
Csr<double> gen_dense(index_t rows, index_t cols, std::uint64_t seed);
// The rows of `a` in a uniformly random order drawn with `seed` (the columns
// keep theirs): the stencils' `shuffle` parameter, a matrix whose BRO
// compression a row reordering has to recover (Tang et al., Section 3.4).
Csr<double> shuffle_rows(const Csr<double>& a, std::uint64_t seed);
// Few rows, very many columns: row lengths uniform in [per_row/2, per_row/2 + per_row]
// (mean about per_row, capped at cols), distinct random columns.
Csr<double> gen_wide_lp(index_t rows, index_t cols, index_t per_row, std::uint64_t seed);
// Circuit-like: `per_row` random columns in most rows, and `huge_rows` rows,
// evenly spread, with `huge_length` random columns each.
Csr<double> gen_few_huge_rows(index_t rows, index_t cols, index_t per_row, index_t huge_rows,
                              index_t huge_length, std::uint64_t seed);

// LIBSVM-like binary classification data (kind "classification"; the
// thesis's kdd99 is rows=4898431,cols=127,per_row=16 and news20
// rows=15960,cols=1355181,per_row=455): the features are
// gen_uniform_random(rows, cols, per_row, seed), the labels those of a
// planted linear model, y_i = sign(w*.x_i + noise * s_i * u_i) in {-1, +1},
// with w*_j pseudo-random in [-1, -0.1] U [0.1, 1] (a function of seed and
// j), u_i uniform in [-1, 1] and s_i = 0.37 sqrt(length of row i), the
// typical size of w*.x_i; noise 0 gives separable data.
std::vector<double> planted_labels(const Csr<double>& features, double noise, std::uint64_t seed);

}  // namespace spmv
