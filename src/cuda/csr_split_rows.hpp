// Rows summed in pieces by the load-balanced kernels (merge-path tiles,
// adaptive chunks of a long row), and the two ways of completing them.
//
// Each piece writes its partial sum to a workspace slot; the row is complete
// when y[row] = alpha * (sum of the row's partials) + beta * y[row]. Partials
// are added in a fixed order, so the result is deterministic:
// - SplitRowFixup: a second pass after the kernel that wrote the partials;
// - SplitRowCompletion: within that kernel, by the piece's block that arrives
//   last (a count per row; split_row_completion.cuh), which saves the second
//   launch and its wait for the kernel's end: a few microseconds, much of a
//   product that fits the GPU in one wave of blocks.
#pragma once

#include <vector>

#include "cuda/csr_algorithm.hpp"
#include "cuda/device_buffer.hpp"

namespace spmv::detail {

// A row whose partial sums lie at partials[first .. first + count).
struct SplitRow {
  index_t row = 0;
  index_t first = 0;
  index_t count = 0;
};

class SplitRowFixup {
 public:
  SplitRowFixup() = default;
  // Plan time: uploads the split rows (sorted by how they are summed).
  explicit SplitRowFixup(const std::vector<SplitRow>& rows);

  // One launch on `stream` (none when there are no split rows), right after
  // the kernel that wrote the partials: where the device supports it, the
  // launch overlaps that kernel and waits for its end (dependent_launch.cuh).
  template <class T>
  void launch(const T* partials, T* y, T alpha, T beta, cudaStream_t stream) const;

  std::size_t bytes() const { return few_pieces_.bytes() + many_pieces_.bytes(); }

 private:
  DeviceBuffer<SplitRow> few_pieces_;   // summed by one thread each
  DeviceBuffer<SplitRow> many_pieces_;  // summed by one block each
  bool overlap_ = false;
};

// What a kernel's blocks need to complete split rows themselves
// (split_row_completion.cuh).
struct SplitRowsInKernel {
  const SplitRow* rows = nullptr;
  const index_t* row_of_partial = nullptr;  // the split row each partial slot belongs to
  unsigned* arrivals = nullptr;             // per split row: its pieces done in this product; 0 between products
};

class SplitRowCompletion {
 public:
  SplitRowCompletion() = default;
  // Plan time: `rows` own partial slots [0, partial_count), each row's consecutive.
  SplitRowCompletion(const std::vector<SplitRow>& rows, index_t partial_count);

  SplitRowsInKernel view() const { return {rows_.data(), row_of_partial_.data(), arrivals_.data()}; }
  std::size_t bytes() const { return rows_.bytes() + row_of_partial_.bytes() + arrivals_.bytes(); }

 private:
  DeviceBuffer<SplitRow> rows_;
  DeviceBuffer<index_t> row_of_partial_;
  mutable DeviceBuffer<unsigned> arrivals_;  // counted by every product
};

}  // namespace spmv::detail
