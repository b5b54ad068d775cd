// SELL-C-sigma built on the device from the uploaded CSR.
//
// Work decomposition: CUB sorts the row lengths by decreasing length within
// each window of sigma rows, stably (DeviceSegmentedSort: ties keep row
// order, as the host's std::stable_sort), which gives row_length and the
// permutation row_of at once; a CUB segmented reduction takes each chunk's
// longest row. The slot count (64-bit) decides the refusal before the
// entries are allocated; a scan of the chunks' slots gives chunk_ptr. Then
// one thread per sorted position (lanes of a warp: adjacent positions of a
// chunk) copies its row's entries to slots chunk_ptr + j * C + lane and
// fills the rest of the chunk's width with padding: every slot is written
// once, by coalesced stores, and no separate fill is needed.
#include "cuda/device_build.hpp"
#include "cuda/sell_device.hpp"
#include "formats/sell_limits.hpp"

namespace spmv::detail {

namespace {

constexpr int sell_build_block = 256;

// Each chunk's longest row times C: its slots.
__global__ void chunk_slots_kernel(index_t* widths, std::size_t chunks, index_t chunk_rows) {
  const std::size_t c = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c < chunks) widths[c] *= chunk_rows;
}

template <class T>
__global__ void fill_chunks_kernel(CsrView<T> a, index_t chunk_rows, const index_t* chunk_ptr, const index_t* row_of,
                                   const index_t* row_length, std::size_t positions, index_t* col_idx, T* values) {
  const std::size_t position = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (position >= positions) return;
  const std::size_t chunk = position / chunk_rows;
  const index_t width = (chunk_ptr[chunk + 1] - chunk_ptr[chunk]) / chunk_rows;
  // Positions past the last row (in the last chunk) hold padding only.
  const bool has_row = position < static_cast<std::size_t>(a.rows);
  const index_t length = has_row ? row_length[position] : 0;
  const index_t first = has_row ? a.row_ptr[row_of[position]] : 0;
  std::size_t slot = static_cast<std::size_t>(chunk_ptr[chunk]) + position % chunk_rows;
  for (index_t j = 0; j < width; ++j, slot += chunk_rows) {
    col_idx[slot] = j < length ? a.col_idx[first + j] : padding_column;
    values[slot] = j < length ? a.values[first + j] : T(0);
  }
}

}  // namespace

template <class T>
DeviceSell<T> build_sell_on_device(const CsrView<T>& a, const SellOptions& options, cudaStream_t stream) {
  check_sell_options(options);
  DeviceSell<T> sell;
  sell.rows = a.rows;
  sell.cols = a.cols;
  sell.chunk_rows = options.chunk_rows;
  sell.sigma = options.sigma;
  sell.nnz = a.nnz;
  const auto rows = static_cast<std::size_t>(a.rows);
  const DeviceBuffer<index_t> lengths = device_row_lengths(a, stream);
  sell.row_length = DeviceBuffer<index_t>(rows, "SELL row lengths");
  sell.row_of = DeviceBuffer<index_t>(rows, "SELL row permutation");
  device_sort_descending_in_groups(lengths.data(), rows, options.sigma, sell.row_length.data(), sell.row_of.data(),
                                   stream);

  const std::size_t chunks = (rows + options.chunk_rows - 1) / options.chunk_rows;
  DeviceBuffer<index_t> chunk_slots(chunks, "SELL chunk widths");
  device_max_in_groups(sell.row_length.data(), rows, options.chunk_rows, chunk_slots.data(), stream);
  const std::int64_t slots = options.chunk_rows * device_sum(chunk_slots.data(), chunks, stream);
  check_sell_limit(options, a.rows, a.nnz, sizeof(T), slots, chunks, device_max(chunk_slots.data(), chunks, stream));

  if (chunks) {
    chunk_slots_kernel<<<blocks_for(chunks, sell_build_block), sell_build_block, 0, stream>>>(
        chunk_slots.data(), chunks, options.chunk_rows);
    SPMV_LAUNCH_CHECK();
  }
  sell.chunk_ptr = DeviceBuffer<index_t>(chunks + 1, "SELL chunk pointers");
  device_offsets(chunk_slots.data(), chunks, sell.chunk_ptr.data(), "SELL slots", stream);
  sell.col_idx = DeviceBuffer<index_t>(static_cast<std::size_t>(slots), "SELL column indices");
  sell.values = DeviceBuffer<T>(static_cast<std::size_t>(slots), "SELL values");
  const std::size_t positions = chunks * options.chunk_rows;
  if (positions) {
    fill_chunks_kernel<<<blocks_for(positions, sell_build_block), sell_build_block, 0, stream>>>(
        a, options.chunk_rows, sell.chunk_ptr.data(), sell.row_of.data(), sell.row_length.data(), positions,
        sell.col_idx.data(), sell.values.data());
    SPMV_LAUNCH_CHECK();
  }
  return sell;
}

template DeviceSell<float> build_sell_on_device(const CsrView<float>&, const SellOptions&, cudaStream_t);
template DeviceSell<double> build_sell_on_device(const CsrView<double>&, const SellOptions&, cudaStream_t);

}  // namespace spmv::detail
