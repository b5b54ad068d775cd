// The thesis's read-bandwidth kernels (chapter 4.1). The data is a run of
// floats, all 1, viewed as rows:
//   coalesced   block b reads row b of floats_per_thread * blockDim.x floats;
//               in step i its threads read vectors i * blockDim.x + t, side
//               by side, so each warp's loads coalesce;
//   sequential  thread g reads row g, floats_per_thread floats, one vector
//               after the other: the warp's addresses are a row apart.
// Each thread sums what it read and stores the sum only if it equals a
// sentinel that never occurs, so only reads are timed but none can be
// optimised away. Vectors are float, float2 or float4 (4/8/16 bytes).
#include <algorithm>
#include <functional>
#include <vector>

#include "core/workbench.hpp"

#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/micro_bench.hpp"
#include "spmv/error.hpp"

namespace spmv::detail::micro {

const char* to_string(ReadPattern pattern) {
  return pattern == ReadPattern::coalesced ? "coalesced" : "sequential";
}
const char* to_string(LoadPath path) { return path == LoadPath::plain ? "plain" : "read-only"; }

namespace {

template <bool ReadOnly, class V>
__device__ __forceinline__ V load(const V* p) {
  if constexpr (ReadOnly)
    return __ldg(p);
  else
    return __ldca(p);
}

__device__ __forceinline__ float components(float v) { return v; }
__device__ __forceinline__ float components(float2 v) { return v.x + v.y; }
__device__ __forceinline__ float components(float4 v) { return (v.x + v.y) + (v.z + v.w); }

template <bool ReadOnly, class V>
__global__ void read_coalesced_kernel(const V* data, int vectors_per_thread, float sentinel,
                                      float* sink) {
  const V* row = data + static_cast<std::size_t>(blockIdx.x) * vectors_per_thread * blockDim.x;
  float sum = 0;
#pragma unroll 4
  for (int i = 0; i < vectors_per_thread; ++i)
    sum += components(load<ReadOnly>(row + static_cast<std::size_t>(i) * blockDim.x + threadIdx.x));
  if (sum == sentinel) sink[threadIdx.x] = sum;
}

template <bool ReadOnly, class V>
__global__ void read_sequential_kernel(const V* data, int vectors_per_thread, float sentinel,
                                       float* sink) {
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const V* row = data + thread * vectors_per_thread;
  float sum = 0;
#pragma unroll 4
  for (int i = 0; i < vectors_per_thread; ++i) sum += components(load<ReadOnly>(row + i));
  if (sum == sentinel) sink[threadIdx.x] = sum;
}

// Figure 4.2: rows of row_floats floats, one warp per row, lanes strided by 32.
__global__ void read_rows_by_warp_kernel(const float* data, long long rows, int row_floats,
                                         float sentinel, float* sink) {
  const long long warp = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= rows) return;
  const float* row = data + warp * row_floats;
  float sum = 0;
  for (int i = lane; i < row_floats; i += 32) sum += __ldg(row + i);
  if (sum == sentinel) sink[threadIdx.x] = sum;
}

// One thread per row, reading it with vectors V (V divides the row).
template <class V>
__global__ void read_rows_by_thread_kernel(const V* data, long long rows, int row_vectors,
                                           float sentinel, float* sink) {
  const long long row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const V* p = data + row * row_vectors;
  float sum = 0;
  for (int i = 0; i < row_vectors; ++i) sum += components(__ldg(p + i));
  if (sum == sentinel) sink[threadIdx.x] = sum;
}

// Median milliseconds of `runs` launches after one warm-up, timed by the
// device workbench's events (no cache flush: the buffer is 8x the L2).
double time_launches(const std::function<void()>& launch, int runs) {
  std::vector<double> ms = make_cuda_workbench<float>(1, 1)->time(
      [&] {
        launch();
        SPMV_LAUNCH_CHECK();
      },
      1, runs, false);
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}

constexpr float never_a_sum = -1.0f;  // the data is all ones

template <class V>
Timing read_with(const float* data, std::size_t floats, const ReadConfig& c, float* sink,
                 int runs) {
  constexpr int floats_per_vector = sizeof(V) / sizeof(float);
  const int vectors_per_thread = c.floats_per_thread / floats_per_vector;
  const std::size_t floats_per_block =
      static_cast<std::size_t>(c.floats_per_thread) * c.threads_per_block;
  const long long blocks = static_cast<long long>(floats / floats_per_block);
  if (blocks < 1 || blocks > 0x7fffffffLL)
    throw InvalidArgument("micro: a buffer of " + std::to_string(floats) +
                          " floats cannot be read in whole blocks of " +
                          std::to_string(floats_per_block));
  const V* vectors = reinterpret_cast<const V*>(data);
  const bool read_only = c.path == LoadPath::read_only;
  const bool coalesced = c.pattern == ReadPattern::coalesced;
  const auto launch = [&] {
    const dim3 grid(static_cast<unsigned>(blocks)), block(c.threads_per_block);
    if (coalesced && read_only)
      read_coalesced_kernel<true><<<grid, block>>>(vectors, vectors_per_thread, never_a_sum, sink);
    else if (coalesced)
      read_coalesced_kernel<false><<<grid, block>>>(vectors, vectors_per_thread, never_a_sum, sink);
    else if (read_only)
      read_sequential_kernel<true><<<grid, block>>>(vectors, vectors_per_thread, never_a_sum, sink);
    else
      read_sequential_kernel<false>
          <<<grid, block>>>(vectors, vectors_per_thread, never_a_sum, sink);
  };
  Timing t;
  t.median_ms = time_launches(launch, runs);
  t.bytes = static_cast<std::size_t>(blocks) * floats_per_block * sizeof(float);
  t.blocks = blocks;
  return t;
}

template <class V>
Timing read_rows_by_thread(const float* data, long long rows, int row_floats, float* sink,
                           int runs) {
  constexpr int threads = 128;
  const int row_vectors = row_floats / static_cast<int>(sizeof(V) / sizeof(float));
  Timing t;
  t.blocks = (rows + threads - 1) / threads;
  t.median_ms = time_launches(
      [&] {
        read_rows_by_thread_kernel<<<static_cast<unsigned>(t.blocks), threads>>>(
            reinterpret_cast<const V*>(data), rows, row_vectors, never_a_sum, sink);
      },
      runs);
  t.bytes = static_cast<std::size_t>(rows) * row_floats * sizeof(float);
  return t;
}

}  // namespace

struct ReadBench::Buffers {
  DeviceBuffer<float> data;
  DeviceBuffer<float> sink;
};

ReadBench::ReadBench(std::size_t bytes)
    : buffers_(new Buffers{DeviceBuffer<float>(bytes / sizeof(float), "micro-benchmark data"),
                           DeviceBuffer<float>(1024, "micro-benchmark sink")}) {
  const std::vector<float> ones(1 << 20, 1.0f);
  for (std::size_t at = 0; at < buffers_->data.size(); at += ones.size())
    SPMV_CUDA_CHECK(cudaMemcpy(buffers_->data.data() + at, ones.data(),
                               std::min(ones.size(), buffers_->data.size() - at) * sizeof(float),
                               cudaMemcpyHostToDevice));
}

ReadBench::~ReadBench() = default;

Timing ReadBench::read(const ReadConfig& c, int runs) {
  if (c.floats_per_thread < 4 || c.floats_per_thread % 4 != 0)
    throw InvalidArgument("micro: floats per thread must be a positive multiple of 4, got " +
                          std::to_string(c.floats_per_thread));
  const float* data = buffers_->data.data();
  const std::size_t floats = buffers_->data.size();
  float* sink = buffers_->sink.data();
  switch (c.load_bytes) {
    case 4: return read_with<float>(data, floats, c, sink, runs);
    case 8: return read_with<float2>(data, floats, c, sink, runs);
    case 16: return read_with<float4>(data, floats, c, sink, runs);
  }
  throw InvalidArgument("micro: load width must be 4, 8 or 16 bytes, got " +
                        std::to_string(c.load_bytes));
}

Timing ReadBench::read_rows(ReadPattern pattern, int row_floats, int runs) {
  if (row_floats < 1) throw InvalidArgument("micro: rows need at least one float");
  const float* data = buffers_->data.data();
  float* sink = buffers_->sink.data();
  const long long rows = static_cast<long long>(buffers_->data.size() / row_floats);
  if (pattern == ReadPattern::sequential) {
    if (row_floats % 4 == 0) return read_rows_by_thread<float4>(data, rows, row_floats, sink, runs);
    if (row_floats % 2 == 0) return read_rows_by_thread<float2>(data, rows, row_floats, sink, runs);
    return read_rows_by_thread<float>(data, rows, row_floats, sink, runs);
  }
  constexpr int threads = 128;  // four rows per block
  Timing t;
  t.blocks = (rows * 32 + threads - 1) / threads;
  t.median_ms = time_launches(
      [&] {
        read_rows_by_warp_kernel<<<static_cast<unsigned>(t.blocks), threads>>>(
            data, rows, row_floats, never_a_sum, sink);
      },
      runs);
  t.bytes = static_cast<std::size_t>(rows) * row_floats * sizeof(float);
  return t;
}

}  // namespace spmv::detail::micro
