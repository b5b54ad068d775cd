// A 3-D grid of points, numbered x fastest, then y, then z, and the 7-point
// (star) and 27-point (box) neighbourhoods of a point. Used by the stencil
// and block-FEM generators.
#pragma once

#include <cstdint>

#include "spmv/types.hpp"

namespace spmv::gen_detail {

enum class Neighbourhood { star7, box27 };

class Grid {
 public:
  // Throws InvalidArgument on a negative extent and SizeError when the point
  // count does not fit int32.
  Grid(const char* generator, index_t nx, index_t ny, index_t nz);

  index_t points() const { return points_; }

  // Points of the neighbourhood of p (p included) that lie inside the grid.
  index_t neighbourhood_size(index_t p, Neighbourhood hood) const {
    const index_t ex = extent(p % nx_, nx_), ey = extent((p / nx_) % ny_, ny_),
                  ez = extent(p / nxy_, nz_);
    return hood == Neighbourhood::box27 ? ex * ey * ez : ex + ey + ez - 2;
  }

  // Total neighbourhood size over all points: the non-zeros of the stencil.
  std::int64_t neighbourhood_entries(Neighbourhood hood) const {
    if (points_ == 0) return 0;
    const std::int64_t x = nx_, y = ny_, z = nz_;
    // Box: per axis, 3n - 2 (point, neighbour) pairs. Star: the points plus
    // two entries for each of the (n - 1) links along each axis.
    return hood == Neighbourhood::box27 ? (3 * x - 2) * (3 * y - 2) * (3 * z - 2)
                                        : 7 * x * y * z - 2 * (y * z + x * z + x * y);
  }

  // Calls visit(q) for each point q of the neighbourhood of p inside the grid,
  // p included, in increasing q (z offset outermost, x innermost).
  template <class Visit>
  void for_each_neighbour(index_t p, Neighbourhood hood, const Visit& visit) const {
    const index_t x = p % nx_, y = (p / nx_) % ny_, z = p / nxy_;
    for (index_t dz = -1; dz <= 1; ++dz) {
      if (z + dz < 0 || z + dz >= nz_) continue;
      for (index_t dy = -1; dy <= 1; ++dy) {
        if (y + dy < 0 || y + dy >= ny_) continue;
        for (index_t dx = -1; dx <= 1; ++dx) {
          if (x + dx < 0 || x + dx >= nx_) continue;
          const bool on_star = (dx != 0) + (dy != 0) + (dz != 0) <= 1;
          if (hood == Neighbourhood::star7 && !on_star) continue;
          visit(p + dx + nx_ * dy + nxy_ * dz);
        }
      }
    }
  }

 private:
  // Neighbour positions along one axis at coordinate c of n: c-1, c, c+1 clipped.
  static index_t extent(index_t c, index_t n) { return 1 + (c > 0) + (c < n - 1); }

  index_t nx_ = 0, ny_ = 0, nz_ = 0, nxy_ = 0, points_ = 0;
};

}  // namespace spmv::gen_detail
