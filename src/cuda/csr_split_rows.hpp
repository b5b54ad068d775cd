// Rows summed in pieces by the load-balanced kernels (merge-path tiles,
// adaptive chunks of a long row), and the second pass that completes them.
//
// Each piece writes its partial sum to a workspace slot; the pass then sets
// y[row] = alpha * (sum of the row's partials) + beta * y[row]. Partials are
// added in a fixed order, so the result is deterministic (no atomics).
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

}  // namespace spmv::detail
