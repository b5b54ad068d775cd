// What the analysis of a plan reads of a CSR on the device (core/row_source.hpp),
// copied back in one transfer per read: the pieces are gathered into one
// device buffer first, so that a read of many short runs of rows costs one
// copy and one synchronisation.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/row_source.hpp"
#include "cuda/csr_algorithm.hpp"
#include "cuda/device_buffer.hpp"

namespace spmv::detail {

// Piece p of a gather: `count` items from source[first], to out[at].
struct GatherPiece {
  std::int64_t first;
  std::int64_t count;
  std::int64_t at;
};

template <class T>
class DeviceCsrFetcher final : public CsrFetcher<T> {
 public:
  explicit DeviceCsrFetcher(const CsrView<T>& a) : a_(a) {}
  index_t rows() const override { return a_.rows; }
  index_t cols() const override { return a_.cols; }
  index_t nnz() const override { return a_.nnz; }
  std::vector<index_t> row_pointers_every(index_t stride) override;
  std::vector<index_t> row_pointers(const std::vector<RowRange>& ranges) override;
  void entries(const std::vector<typename CsrFetcher<T>::EntryRange>& ranges, std::vector<index_t>& col_idx,
               std::vector<T>& values) override;
  // A hash of the row pointers and columns read so far, in order: a
  // fingerprint of the matrix (what is read depends on the matrix alone), for
  // the plan cache's key.
  std::uint64_t fingerprint() const { return hash_; }

 private:
  void mix(const std::vector<index_t>& indices);
  // Device memory of at least `bytes`, kept for the next read (one
  // allocation serves an analysis's reads, not two a read).
  void* scratch(std::size_t bytes);
  // Each source's `pieces` (of `total` items) gathered and copied back into its vector.
  template <class... X>
  void gather(const std::vector<GatherPiece>& pieces, std::int64_t total,
              std::pair<const X*, std::vector<X>*>... sources);

  CsrView<T> a_;
  DeviceBuffer<unsigned char> scratch_;
  std::uint64_t hash_ = 0xcbf29ce484222325ull;  // FNV-1a's offset basis
};

}  // namespace spmv::detail
