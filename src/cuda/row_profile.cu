// The default CSR kernel's row profile (csr_algorithm.hpp) of a matrix on the
// device, computed there: a matrix handed over on the device is not copied
// back to be profiled.
#include <algorithm>

#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_build.hpp"
#include "cuda/device_loads.cuh"

namespace spmv::detail {

namespace {

constexpr int profile_block = 256;
constexpr unsigned max_profile_blocks = 4096;

// Each thread's rows summed, then each warp's: the longest row, the empty
// rows and the column spans of the others (integers: the same sum however
// the rows are shared out).
template <class T>
__global__ void row_profile_kernel(CsrView<T> a, index_t* longest, unsigned long long* empty,
                                   unsigned long long* span_sum) {
  index_t my_longest = 0;
  unsigned long long my_empty = 0, my_spans = 0;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; r < a.rows; r += stride) {
    const index_t begin = a.row_ptr[r], end = a.row_ptr[r + 1];
    my_longest = max(my_longest, end - begin);
    if (begin == end)
      ++my_empty;
    else
      my_spans += static_cast<unsigned long long>(a.col_idx[end - 1] - a.col_idx[begin]);
  }
  for (int offset = warp_size / 2; offset > 0; offset /= 2) {
    my_longest = max(my_longest, __shfl_down_sync(0xffffffffu, my_longest, offset));
    my_empty += __shfl_down_sync(0xffffffffu, my_empty, offset);
    my_spans += __shfl_down_sync(0xffffffffu, my_spans, offset);
  }
  if (threadIdx.x % warp_size == 0) {
    atomicMax(longest, my_longest);
    atomicAdd(empty, my_empty);
    atomicAdd(span_sum, my_spans);
  }
}

}  // namespace

template <class T>
RowProfile row_profile_on_device(const CsrView<T>& a) {
  RowProfile p;
  if (a.rows == 0) return p;
  DeviceBuffer<index_t> longest(1, "row profile", ScratchOn{nullptr});
  DeviceBuffer<unsigned long long> sums(2, "row profile", ScratchOn{nullptr});
  longest.set_zero();
  sums.set_zero();
  row_profile_kernel<<<std::min(blocks_for(a.rows, profile_block), max_profile_blocks), profile_block>>>(
      a, longest.data(), sums.data(), sums.data() + 1);
  SPMV_LAUNCH_CHECK();
  const std::vector<unsigned long long> totals = sums.to_host();
  const auto empty = static_cast<double>(totals[0]);
  p.longest = device_value(longest.data(), nullptr);
  p.mean_length = static_cast<double>(a.nnz) / a.rows;
  p.empty_fraction = empty / a.rows;
  p.mean_span = empty < a.rows ? static_cast<double>(totals[1]) / (a.rows - empty) : 0.0;
  return p;
}

template RowProfile row_profile_on_device(const CsrView<float>&);
template RowProfile row_profile_on_device(const CsrView<double>&);

}  // namespace spmv::detail
