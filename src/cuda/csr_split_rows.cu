// The second pass over split rows (see csr_split_rows.hpp), and the tables
// of the in-kernel completion.
//
// Rows of few pieces (the common case: a merge-path tile boundary falling in
// the middle of a short row) take one thread each, which reads its partials
// in order; rows of many pieces (a row of millions of entries) take a whole
// block, whose threads read the partials coalesced and combine them with a
// fixed-order block reduction. One launch serves both kinds.
#include <algorithm>

#include "cuda/block_reduce.cuh"
#include "cuda/csr_split_rows.hpp"
#include "cuda/dependent_launch.cuh"

namespace spmv::detail {

namespace {

constexpr int fixup_block_size = 256;
// A row of more pieces than this is summed by a block (a thread would read
// them one after another). First choice, not yet measured.
constexpr index_t thread_pieces_limit = 8;

template <class T>
__global__ void __launch_bounds__(fixup_block_size)
    finish_split_rows_kernel(const SplitRow* __restrict__ few_pieces, index_t few_count,
                             const SplitRow* __restrict__ many_pieces,
                             const T* __restrict__ partials, T* __restrict__ y, T alpha, T beta) {
  __shared__ T warp_sums[fixup_block_size / warp_size];
  wait_for_previous_kernel();  // for the partials
  const index_t few_blocks = (few_count + fixup_block_size - 1) / fixup_block_size;
  if (static_cast<index_t>(blockIdx.x) < few_blocks) {
    const index_t i = blockIdx.x * fixup_block_size + threadIdx.x;
    if (i >= few_count) return;
    const SplitRow split = few_pieces[i];
    T sum = 0;
    for (index_t k = 0; k < split.count; ++k) sum += partials[split.first + k];
    store_result(y + split.row, sum, alpha, beta);
    return;
  }
  // The branch is uniform over the block, so every thread reaches block_sum.
  const SplitRow split = many_pieces[blockIdx.x - few_blocks];
  T sum = 0;
  for (index_t k = threadIdx.x; k < split.count; k += fixup_block_size)
    sum += partials[split.first + k];
  sum = block_sum<fixup_block_size>(sum, warp_sums);
  if (threadIdx.x == 0) store_result(y + split.row, sum, alpha, beta);
}

std::vector<SplitRow> select_rows(const std::vector<SplitRow>& rows, bool many) {
  std::vector<SplitRow> selected;
  for (const SplitRow& split : rows)
    if ((split.count > thread_pieces_limit) == many) selected.push_back(split);
  return selected;
}

std::vector<index_t> split_row_of_partials(const std::vector<SplitRow>& rows, index_t partial_count) {
  std::vector<index_t> row_of(static_cast<std::size_t>(partial_count), -1);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto first = static_cast<std::size_t>(rows[i].first);
    std::fill_n(row_of.begin() + first, rows[i].count, static_cast<index_t>(i));
  }
  return row_of;
}

}  // namespace

SplitRowFixup::SplitRowFixup(const std::vector<SplitRow>& rows)
    : few_pieces_(select_rows(rows, false), "split rows (few pieces)"),
      many_pieces_(select_rows(rows, true), "split rows (many pieces)"),
      overlap_(device_overlaps_launches()) {}

SplitRowCompletion::SplitRowCompletion(const std::vector<SplitRow>& rows, index_t partial_count)
    : rows_(rows, "split rows"),
      row_of_partial_(split_row_of_partials(rows, partial_count), "split row of each partial"),
      arrivals_(rows.size(), "split rows' arrived pieces") {
  arrivals_.set_zero();
}

template <class T>
void SplitRowFixup::launch(const T* partials, T* y, T alpha, T beta, cudaStream_t stream) const {
  const index_t few_count = static_cast<index_t>(few_pieces_.size());
  const unsigned blocks = blocks_for(few_pieces_.size(), fixup_block_size) +
                          static_cast<unsigned>(many_pieces_.size());
  if (blocks == 0) return;
  launch_kernel(overlap_, blocks, fixup_block_size, 0, stream, finish_split_rows_kernel<T>,
                few_pieces_.data(), few_count, many_pieces_.data(), partials, y, alpha, beta);
}
template void SplitRowFixup::launch(const float*, float*, float, float, cudaStream_t) const;
template void SplitRowFixup::launch(const double*, double*, double, double, cudaStream_t) const;

}  // namespace spmv::detail
