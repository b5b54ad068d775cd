// SELL-C-sigma built on the device from the uploaded CSR.
//
// Work decomposition: CUB sorts the row lengths by decreasing length within
// each window of sigma rows, stably (DeviceSegmentedSort: ties keep row
// order, as the host's std::stable_sort), which gives row_length and the
// permutation row_of at once; a CUB segmented reduction takes each chunk's
// longest row. The slot count (64-bit) decides the refusal before the
// entries are allocated; a scan of the chunks' slots gives chunk_ptr. Then
// tiles of up to 64 positions of a chunk are staged in shared memory and
// written to slots chunk_ptr + j * C + position % C (slot_tiles.cuh): every
// slot, padding included, is written once by coalesced stores.
#include "cuda/device_build.hpp"
#include "cuda/sell_device.hpp"
#include "cuda/slot_tiles.cuh"
#include "formats/sell_limits.hpp"

namespace spmv::detail {

namespace {

constexpr int sell_build_block = 256;

// Each chunk's longest row times C: its slots.
__global__ void chunk_slots_kernel(index_t* widths, std::size_t chunks, index_t chunk_rows) {
  const std::size_t c = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c < chunks) widths[c] *= chunk_rows;
}

// The SELL layout for write_slot_tiles: chunk c's position p (row row_of[p])
// puts its entry j at chunk_ptr[c] + j * C + p % C; a tile is up to 64
// positions of one chunk, the positions past the matrix padding.
struct SellSlotLayout {
  struct Tile {
    index_t first_position;
    index_t rows;
    index_t groups;
    index_t first_slot;
  };
  static constexpr index_t entries_per_row = max_index;  // every entry
  static constexpr index_t threads_per_row = 1;
  index_t rows;
  index_t chunk_rows;
  index_t tiles_per_chunk;
  const index_t* chunk_ptr;
  const index_t* row_of;
  __device__ Tile tile(unsigned block) const {
    const index_t chunk = static_cast<index_t>(block / tiles_per_chunk);
    const index_t offset = static_cast<index_t>(block % tiles_per_chunk) * slot_tile_rows;
    return {chunk * chunk_rows + offset, min(static_cast<index_t>(slot_tile_rows), chunk_rows - offset),
            (chunk_ptr[chunk + 1] - chunk_ptr[chunk]) / chunk_rows, chunk_ptr[chunk] + offset};
  }
  __device__ index_t row(const Tile& t, int i) const {
    return t.first_position + i < rows ? row_of[t.first_position + i] : -1;
  }
  __device__ std::size_t slot(const Tile& t, index_t group, int i, index_t) const {
    return static_cast<std::size_t>(t.first_slot) + static_cast<std::size_t>(group) * chunk_rows + i;
  }
};

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
  DeviceBuffer<index_t> chunk_slots(chunks, "SELL chunk widths", ScratchOn{stream});
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
  const index_t tiles_per_chunk = (options.chunk_rows + slot_tile_rows - 1) / slot_tile_rows;
  const SellSlotLayout layout{a.rows, options.chunk_rows, tiles_per_chunk, sell.chunk_ptr.data(), sell.row_of.data()};
  write_slot_tiles(a, layout, chunks * tiles_per_chunk, sell.col_idx.data(), sell.values.data(), stream);
  return sell;
}

template DeviceSell<float> build_sell_on_device(const CsrView<float>&, const SellOptions&, cudaStream_t);
template DeviceSell<double> build_sell_on_device(const CsrView<double>&, const SellOptions&, cudaStream_t);

}  // namespace spmv::detail
