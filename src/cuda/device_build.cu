// The device-build primitives: row lengths, CUB reductions and scans, fills.
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <limits>
#include <string>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "cuda/cub_call.cuh"
#include "cuda/cuda_check.hpp"
#include "cuda/device_build.hpp"
#include "spmv/error.hpp"

namespace spmv::detail {

namespace {

constexpr int build_block = 256;

template <class T>
__global__ void row_lengths_kernel(CsrView<T> a, index_t* lengths) {
  const std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < a.rows) lengths[r] = a.row_ptr[r + 1] - a.row_ptr[r];
}

template <class X>
__global__ void fill_kernel(X* data, std::size_t n, X value) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) data[i] = value;
}

template <class T>
__global__ void row_slice_lengths_kernel(CsrView<T> a, index_t first, index_t limit, index_t* lengths) {
  const std::int64_t r = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= a.rows) return;
  const index_t beyond_first = a.row_ptr[r + 1] - a.row_ptr[r] - first;
  lengths[r] = beyond_first <= 0 ? 0 : (beyond_first < limit ? beyond_first : limit);
}

// Each warp copies 32 * slice_entries_per_lane consecutive slots, lane t
// those at t, t + 32, ...: every load and store of the warp goes to adjacent
// slots. A lane finds its first slot's row by binary search and each next
// one's by a search forward from there (a row or two on, for rows of a few
// dozen entries), where a search per slot cost 22 dependent loads on the
// 3.4M rows of the 27-point stencil 150^3 (1.85 ms for its 90M entries).
constexpr int slice_entries_per_lane = 8;

// The r >= from with offsets[r] <= i < offsets[r + 1], for offsets[from] <= i:
// steps of 1, 2, 4, ... rows until past i, then row_of_slot between.
__device__ index_t row_of_slot_after(const index_t* offsets, index_t rows, index_t from, index_t i) {
  index_t low = from, step = 1;  // offsets[low] <= i
  while (low + step < rows && offsets[low + step] <= i) {
    low += step;
    step *= 2;
  }
  const index_t high = low + step < rows ? low + step : rows;  // offsets[high] > i (or the end)
  return low + row_of_slot(offsets + low, high - low, i);
}

template <class T>
__global__ void gather_row_slice_kernel(CsrView<T> a, const index_t* slice_row_ptr, index_t first, index_t nnz,
                                        index_t* row_idx, index_t* col_idx, T* values) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t lane = thread % warp_size;
  std::int64_t i = (thread - lane) * slice_entries_per_lane + lane;
  if (i >= nnz) return;
  index_t r = row_of_slot(slice_row_ptr, a.rows, static_cast<index_t>(i));
  for (int k = 0; k < slice_entries_per_lane && i < nnz; ++k, i += warp_size) {
    r = row_of_slot_after(slice_row_ptr, a.rows, r, static_cast<index_t>(i));
    const index_t source = a.row_ptr[r] + first + (static_cast<index_t>(i) - slice_row_ptr[r]);
    if (row_idx) row_idx[i] = r;
    col_idx[i] = a.col_idx[source];
    values[i] = a.values[source];
  }
}

struct RowLengthAt {
  const index_t* row_ptr;
  __host__ __device__ index_t operator()(index_t row) const { return row_ptr[row + 1] - row_ptr[row]; }
};

struct CapAt {
  index_t cap;
  __host__ __device__ index_t operator()(index_t v) const { return v < cap ? v : cap; }
};

__global__ void sequence_kernel(index_t* data, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) data[i] = static_cast<index_t>(i);
}

// First position of group g of `group` positions in [0, n).
struct GroupStart {
  index_t group;
  std::size_t n;
  __host__ __device__ std::int64_t operator()(std::int64_t g) const {
    const std::int64_t start = g * group;
    return start < static_cast<std::int64_t>(n) ? start : static_cast<std::int64_t>(n);
  }
};

// The first positions of groups first, first + 1, ...
auto group_starts(index_t group, std::size_t n, std::int64_t first) {
  return thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(first), GroupStart{group, n});
}

// One block sorts a group of up to block_sort_threads * Items keys by
// decreasing value, stably (CUB's block radix sort keeps equal keys in the
// order of its blocked input), on no more bits than the group's largest key
// needs: one pass of 4 bits for a stencil's lengths. CUB's segmented sort
// took 3.2 ms over the 35,000 windows of 256 rows of the 5-point stencil
// 3000^2 (Nsight Compute, device call 89), most of SELL's build. Keys are
// stored + 1, so that the padding of a short last group (0) sorts last.
constexpr int block_sort_threads = 256;

template <int Items>
__global__ void __launch_bounds__(block_sort_threads)
    sort_group_descending_kernel(const index_t* keys, std::size_t n, index_t group, index_t* sorted_keys,
                                 index_t* order) {
  using Sort = cub::BlockRadixSort<unsigned, block_sort_threads, Items, index_t>;
  using Max = cub::BlockReduce<unsigned, block_sort_threads>;
  __shared__ union {
    typename Sort::TempStorage sort;
    typename Max::TempStorage max;
  } storage;
  __shared__ int key_bits;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * group;
  const auto count = static_cast<int>(min(static_cast<std::size_t>(group), n - first));
  unsigned stored[Items];
  index_t position[Items];
  unsigned largest = 0;
  for (int i = 0; i < Items; ++i) {
    const int at = threadIdx.x * Items + i;  // blocked: the order ties keep
    stored[i] = at < count ? static_cast<unsigned>(keys[first + at]) + 1u : 0u;
    position[i] = static_cast<index_t>(first + at);
    largest = max(largest, stored[i]);
  }
  largest = Max(storage.max).Reduce(largest, cuda::maximum<unsigned>());
  if (threadIdx.x == 0) key_bits = 32 - __clz(largest);
  __syncthreads();
  Sort(storage.sort).SortDescending(stored, position, 0, max(key_bits, 1));
  for (int i = 0; i < Items; ++i) {
    const int at = threadIdx.x * Items + i;
    if (at < count) {
      sorted_keys[first + at] = static_cast<index_t>(stored[i] - 1u);
      order[first + at] = position[i];
    }
  }
}

template <int Items>
void sort_groups_by_blocks(const index_t* keys, std::size_t n, index_t group, index_t* sorted_keys, index_t* order,
                           cudaStream_t stream) {
  const std::size_t groups = (n + group - 1) / group;
  sort_group_descending_kernel<Items>
      <<<static_cast<unsigned>(groups), block_sort_threads, 0, stream>>>(keys, n, group, sorted_keys, order);
  SPMV_LAUNCH_CHECK();
}

struct WidenToInt64 {
  __host__ __device__ std::int64_t operator()(index_t v) const { return v; }
};

}  // namespace

template <class T>
DeviceBuffer<index_t> device_row_lengths(const CsrView<T>& a, cudaStream_t stream) {
  DeviceBuffer<index_t> lengths(static_cast<std::size_t>(a.rows), "row lengths", ScratchOn{stream});
  if (a.rows > 0) {
    row_lengths_kernel<<<blocks_for(a.rows, build_block), build_block, 0, stream>>>(a, lengths.data());
    SPMV_LAUNCH_CHECK();
  }
  return lengths;
}

template <class T>
RowSliceLayout device_row_slice_layout(const CsrView<T>& a, index_t first, index_t limit, cudaStream_t stream) {
  RowSliceLayout layout;
  layout.first = first;
  DeviceBuffer<index_t> lengths(static_cast<std::size_t>(a.rows), "row slice lengths", ScratchOn{stream});
  if (a.rows > 0) {
    row_slice_lengths_kernel<<<blocks_for(a.rows, build_block), build_block, 0, stream>>>(a, first, limit,
                                                                                           lengths.data());
    SPMV_LAUNCH_CHECK();
  }
  layout.row_ptr = DeviceBuffer<index_t>(static_cast<std::size_t>(a.rows) + 1, "row slice offsets");
  layout.nnz = device_offsets(lengths.data(), lengths.size(), layout.row_ptr.data(), "a row slice", stream);
  return layout;
}

template <class T>
DeviceRowSlice<T> device_gather_row_slice(const CsrView<T>& a, RowSliceLayout&& layout, bool with_row_idx,
                                          cudaStream_t stream) {
  DeviceRowSlice<T> slice;
  slice.nnz = layout.nnz;
  const auto n = static_cast<std::size_t>(layout.nnz);
  if (with_row_idx) slice.row_idx = DeviceBuffer<index_t>(n, "row slice row indices");
  slice.col_idx = DeviceBuffer<index_t>(n, "row slice column indices");
  slice.values = DeviceBuffer<T>(n, "row slice values");
  if (n > 0) {
    gather_row_slice_kernel<<<blocks_for((n + slice_entries_per_lane - 1) / slice_entries_per_lane, build_block),
                              build_block, 0, stream>>>(
        a, layout.row_ptr.data(), layout.first, layout.nnz, with_row_idx ? slice.row_idx.data() : nullptr,
        slice.col_idx.data(), slice.values.data());
    SPMV_LAUNCH_CHECK();
  }
  slice.row_ptr = std::move(layout.row_ptr);
  return slice;
}

namespace {
// The largest of values[0, n) (n > 0).
template <class Iterator>
index_t max_of(Iterator values, std::int64_t n, const char* what, cudaStream_t stream) {
  DeviceBuffer<index_t> result(1, what, ScratchOn{stream});
  cub_call(
      [&](void* workspace, std::size_t& bytes) {
        return cub::DeviceReduce::Max(workspace, bytes, values, result.data(), n, stream);
      },
      what, stream);
  return device_value(result.data(), stream);
}
}  // namespace

index_t device_max(const index_t* values, std::size_t n, cudaStream_t stream) {
  return n == 0 ? 0 : max_of(values, static_cast<std::int64_t>(n), "maximum", stream);
}

template <class T>
index_t device_longest_row(const CsrView<T>& a, cudaStream_t stream) {
  if (a.rows == 0) return 0;
  const auto lengths =
      thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0), RowLengthAt{a.row_ptr});
  return max_of(lengths, a.rows, "longest row", stream);
}

std::vector<std::int64_t> device_capped_histogram(const index_t* values, std::size_t n, index_t cap,
                                                  cudaStream_t stream) {
  std::vector<std::int64_t> counts(static_cast<std::size_t>(cap) + 1, 0);
  if (n == 0) return counts;
  // One bin per value 0..cap (levels 0, 1, ..., cap + 1) over the capped values.
  DeviceBuffer<int> bins(counts.size(), "histogram bins", ScratchOn{stream});
  const auto capped = thrust::make_transform_iterator(values, CapAt{cap});
  cub_call(
      [&](void* workspace, std::size_t& bytes) {
        return cub::DeviceHistogram::HistogramEven(workspace, bytes, capped, bins.data(), cap + 2, index_t{0},
                                                   cap + 1, static_cast<std::int64_t>(n), stream);
      },
      "histogram workspace", stream);
  std::vector<int> host_bins(bins.size());
  SPMV_CUDA_CHECK(
      cudaMemcpyAsync(host_bins.data(), bins.data(), bins.bytes(), cudaMemcpyDeviceToHost, stream));
  SPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  for (std::size_t v = 0; v < counts.size(); ++v) counts[v] = host_bins[v];
  return counts;
}

std::int64_t device_sum(const index_t* values, std::size_t n, cudaStream_t stream) {
  if (n == 0) return 0;
  DeviceBuffer<std::int64_t> result(1, "sum", ScratchOn{stream});
  cub_call(
      [&](void* workspace, std::size_t& bytes) {
        return cub::DeviceReduce::TransformReduce(workspace, bytes, values, result.data(),
                                                  static_cast<std::int64_t>(n), cuda::std::plus<std::int64_t>{},
                                                  WidenToInt64{}, std::int64_t{0}, stream);
      },
      "sum workspace", stream);
  return device_value(result.data(), stream);
}

index_t device_offsets(const index_t* values, std::size_t n, index_t* offsets, const char* what,
                       cudaStream_t stream) {
  const std::int64_t total = device_sum(values, n, stream);
  if (total > max_index)
    throw SizeError(std::string(what) + " would need " + std::to_string(total) +
                    " entries, more than 32-bit indices allow");
  device_fill(offsets, 1, index_t{0}, stream);
  if (n > 0)
    cub_call(
        [&](void* workspace, std::size_t& bytes) {
          return cub::DeviceScan::InclusiveSum(workspace, bytes, values, offsets + 1, static_cast<std::int64_t>(n),
                                               stream);
        },
        "scan workspace", stream);
  return static_cast<index_t>(total);
}

void device_sort_descending_in_groups(const index_t* keys, std::size_t n, index_t group, index_t* sorted_keys,
                                      index_t* order, cudaStream_t stream) {
  if (n == 0) return;
  const std::size_t groups_count = (n + group - 1) / group;
  if (group > 1 && groups_count <= std::numeric_limits<unsigned>::max()) {  // one block per group
    if (group <= block_sort_threads) return sort_groups_by_blocks<1>(keys, n, group, sorted_keys, order, stream);
    if (group <= 2 * block_sort_threads) return sort_groups_by_blocks<2>(keys, n, group, sorted_keys, order, stream);
    if (group <= 4 * block_sort_threads) return sort_groups_by_blocks<4>(keys, n, group, sorted_keys, order, stream);
    if (group <= 8 * block_sort_threads) return sort_groups_by_blocks<8>(keys, n, group, sorted_keys, order, stream);
  }
  DeviceBuffer<index_t> positions(n, "group sort positions", ScratchOn{stream});
  sequence_kernel<<<blocks_for(n, build_block), build_block, 0, stream>>>(positions.data(), n);
  SPMV_LAUNCH_CHECK();
  if (group == 1) {  // groups of one are sorted already
    SPMV_CUDA_CHECK(cudaMemcpyAsync(sorted_keys, keys, n * sizeof(index_t), cudaMemcpyDeviceToDevice, stream));
    SPMV_CUDA_CHECK(
        cudaMemcpyAsync(order, positions.data(), n * sizeof(index_t), cudaMemcpyDeviceToDevice, stream));
    return;
  }
  const auto groups = static_cast<std::int64_t>((n + group - 1) / group);
  const auto begins = group_starts(group, n, 0);
  const auto ends = group_starts(group, n, 1);  // group g ends where g + 1 begins
  cub_call(
      [&](void* workspace, std::size_t& bytes) {
        return cub::DeviceSegmentedSort::StableSortPairsDescending(workspace, bytes, keys, sorted_keys,
                                                                   positions.data(), order,
                                                                   static_cast<std::int64_t>(n), groups, begins,
                                                                   ends, stream);
      },
      "group sort workspace", stream);
}

void device_max_in_groups(const index_t* values, std::size_t n, index_t group, index_t* maxima,
                          cudaStream_t stream) {
  if (n == 0) return;
  const auto groups = static_cast<std::int64_t>((n + group - 1) / group);
  const auto begins = group_starts(group, n, 0);
  const auto ends = group_starts(group, n, 1);  // group g ends where g + 1 begins
  cub_call(
      [&](void* workspace, std::size_t& bytes) {
        return cub::DeviceSegmentedReduce::Max(workspace, bytes, values, maxima, groups, begins, ends, stream);
      },
      "group maxima workspace", stream);
}

template <class X>
void device_fill(X* data, std::size_t n, X value, cudaStream_t stream) {
  if (n == 0) return;
  fill_kernel<<<blocks_for(n, build_block), build_block, 0, stream>>>(data, n, value);
  SPMV_LAUNCH_CHECK();
}

template <class X>
DeviceBuffer<X> device_copy(const X* data, std::size_t n, const char* what, cudaStream_t stream) {
  DeviceBuffer<X> copy(n, what);
  if (n) SPMV_CUDA_CHECK(cudaMemcpyAsync(copy.data(), data, n * sizeof(X), cudaMemcpyDeviceToDevice, stream));
  return copy;
}

template <class X>
X device_value(const X* data, cudaStream_t stream) {
  X value{};
  SPMV_CUDA_CHECK(cudaMemcpyAsync(&value, data, sizeof(X), cudaMemcpyDeviceToHost, stream));
  SPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  return value;
}

template <class X>
std::vector<X> device_values(const X* data, std::size_t n, cudaStream_t stream) {
  std::vector<X> values(n);
  if (n) SPMV_CUDA_CHECK(cudaMemcpyAsync(values.data(), data, n * sizeof(X), cudaMemcpyDeviceToHost, stream));
  SPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
  return values;
}

#define SPMV_INSTANTIATE_ROW_BUILDS(T)                                                                         \
  template DeviceBuffer<index_t> device_row_lengths(const CsrView<T>&, cudaStream_t);                        \
  template index_t device_longest_row(const CsrView<T>&, cudaStream_t);                                      \
  template RowSliceLayout device_row_slice_layout(const CsrView<T>&, index_t, index_t, cudaStream_t);        \
  template DeviceRowSlice<T> device_gather_row_slice(const CsrView<T>&, RowSliceLayout&&, bool, cudaStream_t);
SPMV_INSTANTIATE_ROW_BUILDS(float)
SPMV_INSTANTIATE_ROW_BUILDS(double)
#undef SPMV_INSTANTIATE_ROW_BUILDS
#define SPMV_INSTANTIATE_DEVICE_BUILD(X)                                                  \
  template void device_fill(X*, std::size_t, X, cudaStream_t);                            \
  template DeviceBuffer<X> device_copy(const X*, std::size_t, const char*, cudaStream_t); \
  template X device_value(const X*, cudaStream_t);                                         \
  template std::vector<X> device_values(const X*, std::size_t, cudaStream_t);
SPMV_INSTANTIATE_DEVICE_BUILD(index_t)
SPMV_INSTANTIATE_DEVICE_BUILD(std::int64_t)
SPMV_INSTANTIATE_DEVICE_BUILD(std::uint8_t)
SPMV_INSTANTIATE_DEVICE_BUILD(std::uint32_t)
SPMV_INSTANTIATE_DEVICE_BUILD(std::uint64_t)
SPMV_INSTANTIATE_DEVICE_BUILD(float)
SPMV_INSTANTIATE_DEVICE_BUILD(double)
#undef SPMV_INSTANTIATE_DEVICE_BUILD

}  // namespace spmv::detail
