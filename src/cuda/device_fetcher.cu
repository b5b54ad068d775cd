#include "cuda/device_fetcher.hpp"

#include <algorithm>
#include <type_traits>
#include <utility>

#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_build.hpp"

namespace spmv::detail {

namespace {

constexpr int gather_block = 256;

// One block per piece (striding over pieces when there are more).
template <class X>
__global__ void gather_pieces_kernel(const X* source, const GatherPiece* pieces, int piece_count, X* out) {
  for (int p = blockIdx.x; p < piece_count; p += gridDim.x) {
    const GatherPiece piece = pieces[p];
    for (std::int64_t i = threadIdx.x; i < piece.count; i += blockDim.x) out[piece.at + i] = source[piece.first + i];
  }
}

template <class X>
__global__ void strided_kernel(const X* source, std::int64_t stride, std::int64_t count, X* out) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) out[i] = source[i * stride];
}

constexpr std::size_t scratch_alignment = 256;
// The least scratch allocated: the selector's analysis reads up to 2^18
// entries (3 MiB in f64), so one allocation serves all its reads.
constexpr std::size_t min_scratch_bytes = std::size_t{4} << 20;

std::size_t aligned(std::size_t bytes) {
  return (bytes + scratch_alignment - 1) / scratch_alignment * scratch_alignment;
}

}  // namespace

template <class T>
void* DeviceCsrFetcher<T>::scratch(std::size_t bytes) {
  if (scratch_.size() < bytes) {
    const std::size_t size = std::max({bytes, 2 * scratch_.size(), min_scratch_bytes});
    scratch_ = DeviceBuffer<unsigned char>();  // freed before the larger one is allocated
    scratch_ = DeviceBuffer<unsigned char>(size, "analysis sample");
  }
  return scratch_.data();
}

// The pieces of each source one after another, each source's copied back:
// the pieces' list (uploaded once) and the gathered items share the
// fetcher's scratch.
template <class T>
template <class... X>
void DeviceCsrFetcher<T>::gather(const std::vector<GatherPiece>& pieces, std::int64_t total,
                                 std::pair<const X*, std::vector<X>*>... sources) {
  const auto items = static_cast<std::size_t>(total);
  if (items == 0) {
    (sources.second->clear(), ...);
    return;
  }
  const std::size_t list_bytes = aligned(pieces.size() * sizeof(GatherPiece));
  auto* base = static_cast<unsigned char*>(scratch(list_bytes + (aligned(items * sizeof(X)) + ...)));
  auto* list = reinterpret_cast<GatherPiece*>(base);
  SPMV_CUDA_CHECK(cudaMemcpy(list, pieces.data(), pieces.size() * sizeof(GatherPiece), cudaMemcpyHostToDevice));
  const int count = static_cast<int>(pieces.size());
  std::size_t offset = list_bytes;
  const auto gather_one = [&](auto source) {
    using Item = std::remove_const_t<std::remove_pointer_t<decltype(source.first)>>;
    auto* out = reinterpret_cast<Item*>(base + offset);
    offset += aligned(items * sizeof(Item));
    gather_pieces_kernel<<<std::min(count, 65535), gather_block>>>(source.first, list, count, out);
    SPMV_LAUNCH_CHECK();
    *source.second = device_values(out, items, nullptr);
  };
  (gather_one(sources), ...);
}

// FNV-1a over pairs of indices (a byte at a time cost milliseconds on a sample).
template <class T>
void DeviceCsrFetcher<T>::mix(const std::vector<index_t>& indices) {
  for (std::size_t i = 0; i < indices.size(); i += 2) {
    const std::uint64_t low = static_cast<std::uint32_t>(indices[i]);
    const std::uint64_t high = i + 1 < indices.size() ? static_cast<std::uint32_t>(indices[i + 1]) : 0;
    hash_ = (hash_ ^ (low | high << 32)) * 0x100000001b3ull;
  }
}

template <class T>
std::vector<index_t> DeviceCsrFetcher<T>::row_pointers_every(index_t stride) {
  const std::int64_t strided = (std::int64_t{a_.rows} + stride - 1) / stride;
  auto* out = static_cast<index_t*>(scratch(static_cast<std::size_t>(strided + 1) * sizeof(index_t)));
  if (strided > 0) {
    strided_kernel<<<blocks_for(static_cast<std::size_t>(strided), gather_block), gather_block>>>(
        a_.row_ptr, stride, strided, out);
    SPMV_LAUNCH_CHECK();
  }
  SPMV_CUDA_CHECK(
      cudaMemcpyAsync(out + strided, a_.row_ptr + a_.rows, sizeof(index_t), cudaMemcpyDeviceToDevice, nullptr));
  std::vector<index_t> starts = device_values(out, static_cast<std::size_t>(strided) + 1, nullptr);
  mix(starts);
  return starts;
}

template <class T>
std::vector<index_t> DeviceCsrFetcher<T>::row_pointers(const std::vector<RowRange>& ranges) {
  std::vector<GatherPiece> pieces;
  std::int64_t total = 0;
  for (const RowRange& range : ranges) {
    const std::int64_t count = std::int64_t{range.end} - range.begin + 1;
    pieces.push_back({range.begin, count, total});
    total += count;
  }
  std::vector<index_t> read;
  gather(pieces, total, std::pair<const index_t*, std::vector<index_t>*>{a_.row_ptr, &read});
  mix(read);
  return read;
}

template <class T>
void DeviceCsrFetcher<T>::entries(const std::vector<typename CsrFetcher<T>::EntryRange>& ranges,
                                  std::vector<index_t>& col_idx, std::vector<T>& values) {
  std::vector<GatherPiece> pieces;
  std::int64_t total = 0;
  for (const auto& range : ranges) {
    pieces.push_back({range.first, std::int64_t{range.end} - range.first, total});
    total += pieces.back().count;
  }
  gather(pieces, total, std::pair<const index_t*, std::vector<index_t>*>{a_.col_idx, &col_idx},
         std::pair<const T*, std::vector<T>*>{a_.values, &values});
  mix(col_idx);
}

template class DeviceCsrFetcher<float>;
template class DeviceCsrFetcher<double>;

}  // namespace spmv::detail
