// build_row_blocks on the device (csr_row_blocks.hpp): the same pieces as
// the host's, from the row pointers where they are.
//
// The host groups rows greedily: a piece starts where the last one ended.
// Here every row r works out where a piece starting at r would end (its
// successor: r + 1 for a long row), which makes the pieces' starts the chain
// of successors from row 0. Pointer doubling marks that chain in log2(rows)
// passes: in pass k every marked row marks the row 2^k successors on, and
// every row's jump doubles. Scans then give each start its place among the
// pieces and among the cut rows' partial sums.
#include <algorithm>

#include "cuda/csr_row_blocks.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_build.hpp"

namespace spmv::detail {

namespace {

constexpr int row_block = 256;

// long_before[r] counts the long rows before row r (an exclusive scan of
// these flags).
__global__ void long_row_flags_kernel(const index_t* row_ptr, index_t rows, index_t longest_grouped,
                                      index_t* is_long) {
  const std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < rows) is_long[r] = row_ptr[r + 1] - row_ptr[r] > longest_grouped;
}

// The end of the piece that starts at row r (the host's loop): before the
// first long row after r, at most `capacity` rows, at most `capacity`
// entries; a long row is a piece of its own. jump[rows] = rows.
__global__ void successor_kernel(const index_t* row_ptr, const index_t* long_before, index_t rows, index_t capacity,
                                 index_t longest_grouped, index_t* jump) {
  const std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r > rows) return;
  if (r == rows || row_ptr[r + 1] - row_ptr[r] > longest_grouped) {
    jump[r] = static_cast<index_t>(std::min<std::int64_t>(r + 1, rows));
    return;
  }
  // Every row in (r, limit) fits by count and is short; the piece ends at
  // the first row e in (r, limit] that does not fit by its entries, or at limit.
  std::int64_t limit = std::min<std::int64_t>(rows, r + capacity);
  if (long_before[limit] > long_before[r + 1]) {  // a long row in (r, limit): the first one ends the piece
    std::int64_t low = r + 1, high = limit;       // long_before[low] == long_before[r + 1] < long_before[high]
    while (high - low > 1) {
      const std::int64_t middle = (low + high) / 2;
      if (long_before[middle] > long_before[r + 1])
        high = middle;
      else
        low = middle;
    }
    limit = low;  // rows (r, low) are short, row low is long
  }
  const std::int64_t most = std::int64_t{row_ptr[r]} + capacity;  // entries up to row_ptr[r] + capacity fit
  std::int64_t low = r + 1, high = limit + 1;  // the first e in [r + 1, limit] with row_ptr[e + 1] > most, else limit
  while (low < high) {
    const std::int64_t middle = (low + high) / 2;
    if (middle < limit && row_ptr[middle + 1] <= most)
      low = middle + 1;
    else
      high = middle;
  }
  jump[r] = static_cast<index_t>(std::min(low, limit));
}

// One pass of pointer doubling: marks what the marked rows jump to, and
// doubles every jump.
__global__ void double_jumps_kernel(const index_t* jump, index_t rows, index_t* marked, index_t* doubled) {
  const std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r > rows) return;
  const index_t next = jump[r];
  if (marked[r]) marked[next] = 1;
  doubled[r] = jump[next];
}

// For each piece start: its pieces (the chunks of a cut row, else one) and
// partial sums (a cut row's chunks, else none).
__global__ void piece_counts_kernel(const index_t* row_ptr, const index_t* marked, index_t rows,
                                    index_t longest_grouped, std::int64_t max_chunk, index_t* pieces,
                                    index_t* partials) {
  const std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const std::int64_t length = row_ptr[r + 1] - row_ptr[r];
  const std::int64_t chunks = length > longest_grouped ? (length + max_chunk - 1) / max_chunk : 1;
  pieces[r] = marked[r] ? static_cast<index_t>(std::max<std::int64_t>(chunks, 1)) : 0;
  partials[r] = marked[r] && chunks > 1 ? static_cast<index_t>(chunks) : 0;
}

__global__ void write_pieces_kernel(const index_t* row_ptr, const index_t* jump, const index_t* marked,
                                    const index_t* piece_at, const index_t* partial_at, const index_t* cut_at,
                                    index_t rows, RowBlock* blocks, SplitRow* cut_rows) {
  const std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows || !marked[r]) return;
  const index_t begin = row_ptr[r], end_row = jump[r];
  const index_t chunks = partial_at[r + 1] - partial_at[r];
  if (chunks == 0) {
    blocks[piece_at[r]] = {static_cast<index_t>(r), end_row, begin, row_ptr[end_row], -1};
    return;
  }
  const std::int64_t length = row_ptr[r + 1] - begin;
  cut_rows[cut_at[r]] = {static_cast<index_t>(r), partial_at[r], chunks};
  for (index_t c = 0; c < chunks; ++c)
    blocks[piece_at[r] + c] = {static_cast<index_t>(r), static_cast<index_t>(r + 1),
                               static_cast<index_t>(begin + length * c / chunks),
                               static_cast<index_t>(begin + length * (c + 1) / chunks), partial_at[r] + c};
}

__global__ void cut_flags_kernel(const index_t* partials, index_t rows, index_t* is_cut) {
  const std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < rows) is_cut[r] = partials[r] > 0;
}

unsigned grid_for(std::int64_t items) { return blocks_for(static_cast<std::size_t>(items), row_block); }

}  // namespace

DeviceRowBlocks build_row_blocks_on_device(const index_t* row_ptr, index_t rows, index_t capacity,
                                           index_t longest_grouped, std::int64_t max_chunk, cudaStream_t stream) {
  DeviceRowBlocks out;
  if (rows == 0) return out;
  const auto n = static_cast<std::size_t>(rows);
  const ScratchOn scratch{stream};
  DeviceBuffer<index_t> flags(n, "row blocks: long rows", scratch);
  DeviceBuffer<index_t> long_before(n + 1, "row blocks: long rows", scratch);
  long_row_flags_kernel<<<grid_for(rows), row_block, 0, stream>>>(row_ptr, rows, longest_grouped, flags.data());
  SPMV_LAUNCH_CHECK();
  device_offsets(flags.data(), n, long_before.data(), "row blocks: long rows", stream);

  DeviceBuffer<index_t> jump(n + 1, "row blocks: successors", scratch);
  DeviceBuffer<index_t> doubled(n + 1, "row blocks: successors", scratch);
  successor_kernel<<<grid_for(rows + 1), row_block, 0, stream>>>(row_ptr, long_before.data(), rows, capacity,
                                                                  longest_grouped, jump.data());
  SPMV_LAUNCH_CHECK();
  const DeviceBuffer<index_t> successor = device_copy(jump.data(), n + 1, "row blocks: successors", stream);
  DeviceBuffer<index_t> marked(n + 1, "row blocks: piece starts", scratch);
  device_fill(marked.data(), n + 1, index_t{0}, stream);
  device_fill(marked.data(), 1, index_t{1}, stream);
  // After pass k the rows up to 2^(k+1) - 1 successors from row 0 are marked:
  // passes until 2^passes exceeds the rows, the longest chain.
  for (std::int64_t reach = 1; reach <= rows; reach *= 2) {
    double_jumps_kernel<<<grid_for(rows + 1), row_block, 0, stream>>>(jump.data(), rows, marked.data(),
                                                                       doubled.data());
    SPMV_LAUNCH_CHECK();
    std::swap(jump, doubled);
  }

  DeviceBuffer<index_t> pieces(n, "row blocks: pieces", scratch);
  DeviceBuffer<index_t> partials(n, "row blocks: partials", scratch);
  piece_counts_kernel<<<grid_for(rows), row_block, 0, stream>>>(row_ptr, marked.data(), rows, longest_grouped,
                                                                max_chunk, pieces.data(), partials.data());
  SPMV_LAUNCH_CHECK();
  DeviceBuffer<index_t> piece_at(n + 1, "row blocks: pieces", scratch);
  DeviceBuffer<index_t> partial_at(n + 1, "row blocks: partials", scratch);
  const index_t piece_count = device_offsets(pieces.data(), n, piece_at.data(), "row blocks", stream);
  out.partial_count = device_offsets(partials.data(), n, partial_at.data(), "row blocks: partials", stream);
  cut_flags_kernel<<<grid_for(rows), row_block, 0, stream>>>(partials.data(), rows, flags.data());
  SPMV_LAUNCH_CHECK();
  DeviceBuffer<index_t> cut_at(n + 1, "row blocks: cut rows", scratch);
  const index_t cut_count = device_offsets(flags.data(), n, cut_at.data(), "row blocks: cut rows", stream);

  out.blocks = DeviceBuffer<RowBlock>(static_cast<std::size_t>(piece_count), "row blocks");
  DeviceBuffer<SplitRow> cut_rows(static_cast<std::size_t>(cut_count), "row blocks: cut rows", scratch);
  write_pieces_kernel<<<grid_for(rows), row_block, 0, stream>>>(row_ptr, successor.data(), marked.data(),
                                                                piece_at.data(), partial_at.data(), cut_at.data(),
                                                                rows, out.blocks.data(), cut_rows.data());
  SPMV_LAUNCH_CHECK();
  SPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  out.cut_rows = cut_rows.to_host();
  return out;
}

}  // namespace spmv::detail
