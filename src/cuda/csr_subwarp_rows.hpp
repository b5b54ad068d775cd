// The sub-warp-per-row CSR engine behind csr-aligned and csr-vector-tuned:
// one templated kernel whose load policies are compile-time switches, and a
// launcher that maps a runtime configuration onto its instantiations.
#pragma once

#include "cuda/csr_algorithm.hpp"

namespace spmv::detail {

// Which rows a sub-warp multiplies, one after another (rows_per_subwarp of
// them). The values are csr-vector-tuned's cyclic_rows parameter.
enum class RowOrder {
  blocked = 0,      // consecutive rows
  cyclic = 1,       // strided by the number of sub-warps in the grid
  block_sweep = 2,  // each block owns a contiguous range of rows, which its sub-warps sweep
                    // together: x lines are reused in L1 by the block's following rows
};

struct SubwarpRowsConfig {
  int threads_per_row = 32;  // 1, 2, 4, 8, 16 or 32 lanes per row
  int vector_width = 1;      // entries per lane per load: 1, 2 or 4 (4/8/16-byte index loads)
  bool cached_x = true;      // x through the read-only cache (ld.global.nc) or plain loads
  int alignment = 1;         // a row's first step starts at its start rounded down to this
                             // many entries (a power of two, a multiple of vector_width)
  int rows_per_subwarp = 1;  // rows each sub-warp multiplies
  RowOrder row_order = RowOrder::blocked;  // which rows, see RowOrder
  int block_size = 256;      // threads per block, a multiple of 32
};

// y = alpha * A * x + beta * y on `stream`; checks the launch.
template <class T>
void spmv_csr_subwarp_rows(const SubwarpRowsConfig& config, const CsrView<T>& a, const T* x, T* y,
                           T alpha, T beta, cudaStream_t stream);

}  // namespace spmv::detail
