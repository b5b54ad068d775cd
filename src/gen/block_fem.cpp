// Block-FEM matrices: each node of an nx x ny x nz grid carries `block`
// unknowns and is coupled to itself and its 7-point neighbours by a dense
// block x block block, as in vector-valued finite-element problems (the
// structure the blocked formats are built for). Unknown i of node p is row
// p * block + i; values are random.
#include <string>

#include "gen/grid.hpp"
#include "gen/row_builder.hpp"
#include "spmv/gen.hpp"

namespace spmv {

Csr<double> gen_block_fem(index_t nx, index_t ny, index_t nz, index_t block, std::uint64_t seed) {
  const char* generator = "blockfem";
  gen_detail::require(block >= 1, generator, "block must be >= 1, got " + std::to_string(block));
  const gen_detail::Grid grid(generator, nx, ny, nz);
  const auto hood = gen_detail::Neighbourhood::star7;
  const std::int64_t rows = static_cast<std::int64_t>(grid.points()) * block;
  // Compared as doubles: the exact product may overflow int64.
  const double entries = static_cast<double>(grid.neighbourhood_entries(hood)) * block * block;
  if (entries > static_cast<double>(max_index))
    throw SizeError("blockfem: " + std::to_string(grid.points()) + " nodes with " +
                    std::to_string(block) + " x " + std::to_string(block) +
                    " blocks would hold about " + std::to_string(entries) +
                    " non-zeros, beyond the 32-bit index limit");
  return gen_detail::build_by_rows(
      generator, rows, rows,
      [&](index_t row) { return grid.neighbourhood_size(row / block, hood) * block; },
      [&](index_t row, index_t* col, double* value) {
        index_t k = 0;
        // Neighbour nodes come in increasing order and each block spans
        // contiguous columns, so the row comes out sorted.
        grid.for_each_neighbour(row / block, hood, [&](index_t node) {
          for (index_t j = 0; j < block; ++j, ++k) {
            col[k] = node * block + j;
            value[k] = gen_detail::entry_value(seed, row, col[k]);
          }
        });
      });
}

}  // namespace spmv
