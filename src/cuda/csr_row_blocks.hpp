// Row blocks: consecutive rows grouped into pieces of about equal entries,
// the work units of csr-adaptive (one thread block each) and csr-hub (one
// warp each).
//
// Short rows are grouped while the group's entries and rows fit a capacity;
// a longer row gets a piece of its own, and a row longer than `max_chunk` is
// cut into chunks of about equal size whose partial sums SplitRowFixup adds.
#pragma once

#include <vector>

#include "cuda/csr_split_rows.hpp"

namespace spmv::detail {

// Rows [row_begin, row_end) and entries [entry_begin, entry_end) of one
// piece. A chunk of a cut row has one row and partial >= 0: the slot of its
// partial sum; otherwise partial < 0 and the piece writes y.
struct RowBlock {
  index_t row_begin;
  index_t row_end;
  index_t entry_begin;
  index_t entry_end;
  index_t partial;
};

struct RowBlocks {
  std::vector<RowBlock> blocks;
  std::vector<SplitRow> cut_rows;
  index_t partial_count = 0;
};

// Groups of at most `capacity` entries and rows; rows longer than
// `longest_grouped` (<= capacity) stand alone; rows longer than `max_chunk`
// (>= capacity) are cut. The host's build: the reference of the device's.
RowBlocks build_row_blocks(const std::vector<index_t>& row_ptr, index_t capacity, index_t longest_grouped,
                           std::int64_t max_chunk);

// The same pieces built on `stream` from the row pointers on the device
// (rows + 1 of them; csr_row_blocks_device.cu): the blocks stay there, the
// cut rows (few) come back for SplitRowFixup. Synchronises.
struct DeviceRowBlocks {
  DeviceBuffer<RowBlock> blocks;
  std::vector<SplitRow> cut_rows;
  index_t partial_count = 0;
};
DeviceRowBlocks build_row_blocks_on_device(const index_t* row_ptr, index_t rows, index_t capacity,
                                           index_t longest_grouped, std::int64_t max_chunk, cudaStream_t stream);

}  // namespace spmv::detail
