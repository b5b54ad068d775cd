// Finite-difference Laplacians: 2-D 5-point, 3-D 7-point and 27-point.
//
// Values are the classic constant ones, diagonal = (points - 1) and -1 for
// each neighbour, so every matrix is symmetric, weakly diagonally dominant
// (strictly on boundary rows) and positive definite, and has at most two
// distinct values.
#include <string>

#include "gen/grid.hpp"
#include "gen/row_builder.hpp"
#include "spmv/gen.hpp"

namespace spmv {
namespace {

using gen_detail::Grid;
using gen_detail::Neighbourhood;

Csr<double> laplacian(const char* generator, const Grid& grid, Neighbourhood hood,
                      double diagonal) {
  check_index_range(grid.points(), grid.points(), grid.neighbourhood_entries(hood), generator);
  return gen_detail::build_by_rows(
      generator, grid.points(), grid.points(),
      [&](index_t p) { return grid.neighbourhood_size(p, hood); },
      [&](index_t p, index_t* col, double* value) {
        index_t k = 0;
        grid.for_each_neighbour(p, hood, [&](index_t q) {
          col[k] = q;
          value[k] = q == p ? diagonal : -1.0;
          ++k;
        });
      });
}

}  // namespace

Csr<double> gen_stencil_2d_5pt(index_t nx, index_t ny) {
  // The 7-point star on a grid one point thick is the 5-point star.
  return laplacian("stencil5", Grid("stencil5", nx, ny, 1), Neighbourhood::star7, 4.0);
}

Csr<double> gen_stencil_3d(index_t nx, index_t ny, index_t nz, int points) {
  if (points == 7)
    return laplacian("stencil7", Grid("stencil7", nx, ny, nz), Neighbourhood::star7, 6.0);
  if (points == 27)
    return laplacian("stencil27", Grid("stencil27", nx, ny, nz), Neighbourhood::box27, 26.0);
  throw InvalidArgument("3-D stencil: points must be 7 or 27, got " + std::to_string(points));
}

}  // namespace spmv
