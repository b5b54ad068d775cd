// Grid construction: extents checked against the 32-bit index limit.
#include "gen/grid.hpp"

#include <string>

#include "gen/row_builder.hpp"

namespace spmv::gen_detail {

Grid::Grid(const char* generator, index_t nx, index_t ny, index_t nz) {
  require_non_negative(generator, "nx", nx);
  require_non_negative(generator, "ny", ny);
  require_non_negative(generator, "nz", nz);
  const std::int64_t nxy = static_cast<std::int64_t>(nx) * ny;  // < 2^62: no overflow
  if (nz > 0 && (nxy > max_index || nxy * nz > max_index))
    throw SizeError(std::string(generator) + ": a " + std::to_string(nx) + " x " +
                    std::to_string(ny) + " x " + std::to_string(nz) +
                    " grid has more points than the 32-bit index limit " +
                    std::to_string(max_index));
  nx_ = nx;
  ny_ = ny;
  nz_ = nz;
  nxy_ = nz > 0 ? static_cast<index_t>(nxy) : 0;
  points_ = static_cast<index_t>(nxy_ * static_cast<std::int64_t>(nz));
}

}  // namespace spmv::gen_detail
