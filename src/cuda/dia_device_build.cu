// DIA built on the device from the uploaded CSR.
//
// Work decomposition: each row is spread over L lanes (the power of two at
// or above the mean row length, up to a warp), which read its entries with
// coalesced loads. Pass 1 collects the diagonals the entries occupy (column
// - row + rows - 1) in a hash set of about twice the most diagonals the
// padding limit accepts (open addressing, linear probing, slots claimed by
// compare-and-swap); each block gathers its own rows' diagonals in shared
// memory first and adds them to the device's set at its end. A flag per
// possible diagonal (rows + cols of them, zeroed, summed, scanned and read
// again) had cost five passes over 72 MB on the 5-point stencil 3000^2. The
// host numbers the diagonals in increasing offset order, as its builder
// does, and hands each slot of the set its key's number. A matrix with more
// diagonals than the limit accepts makes the set give up once its count
// passes the limit; its diagonals are then counted exactly, by the flags,
// for the refusal to name them as the host's does.
// Only then, the refusal decided, are the values allocated. Pass 2 gives a
// block 64 rows: their entries go to a tile of every diagonal's 64 values
// in shared memory (zeros where a row has no entry), and the tile is written
// out a diagonal at a time, 64 consecutive values, padding rows included:
// every value written once by coalesced stores. (Entries stored straight to
// values[number * stride + row] after a zero fill took 1.7 ms on the
// 27-point stencil 150^3 in f32, 12 products.) Where the tile would not fit
// in 48 KB (more than 94 diagonals in f64, 189 in f32), the values are
// zero-filled and each entry stored straight to its place.
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "cuda/device_build.hpp"
#include "cuda/dia_device.hpp"
#include "formats/dia_limits.hpp"
#include "formats/format_common.hpp"

namespace spmv::detail {

namespace {

constexpr int dia_build_block = 256;

// The slot of diagonal column - row, shifted to be non-negative: its key in
// the set, or its flag.
__device__ __forceinline__ std::size_t diagonal_slot(index_t rows, index_t row, index_t col) {
  return static_cast<std::size_t>(static_cast<std::int64_t>(col) - row + rows - 1);
}

// The set of occupied diagonals: keys[slot] is a diagonal's slot
// (diagonal_slot) or empty_key, for 2^slot_bits slots; keys[2^slot_bits]
// counts the keys claimed, so that one read-back brings both.
constexpr std::uint32_t empty_key = 0xffffffffu;

struct DiagonalSet {
  std::uint32_t* keys;
  int slot_bits;
  std::uint32_t most;  // a count above it refuses the matrix: stop collecting

  __host__ __device__ std::size_t capacity() const { return std::size_t(1) << slot_bits; }
  __device__ std::uint32_t* count() const { return keys + capacity(); }
};

__device__ __forceinline__ std::uint32_t first_probe(std::uint32_t key, int slot_bits) {
  return static_cast<std::uint32_t>((key * 2654435769u) >> (32 - slot_bits));  // Fibonacci hashing
}

// Inserts `key` into the set keys[0, 2^slot_bits) (shared or global
// memory), counting the slots it claims in *count. Returns false, the key
// left out, when a probe meets another key while *count exceeds `most`: a
// set that full has given up.
__device__ bool insert_key(std::uint32_t* keys, int slot_bits, std::uint32_t* count, std::uint32_t most,
                           std::uint32_t key) {
  const std::uint32_t mask = (1u << slot_bits) - 1;
  std::uint32_t slot = first_probe(key, slot_bits);
  for (std::uint32_t probes = 0; probes <= mask; ++probes, slot = (slot + 1) & mask) {
    const std::uint32_t seen = *static_cast<volatile std::uint32_t*>(keys + slot);
    if (seen == key) return true;
    if (seen == empty_key) {
      const std::uint32_t before = atomicCAS(keys + slot, empty_key, key);
      if (before == empty_key) {
        atomicAdd(count, 1u);
        return true;
      }
      if (before == key) return true;
    } else if (*static_cast<volatile std::uint32_t*>(count) > most) {
      return false;
    }
  }
  return false;
}

// Each block first gathers its rows' diagonals in a set of its own in
// shared memory, and adds them to the device's set at its end: the device's
// set sees a few keys per block, not every entry (every entry reading the
// few hot slots of a banded matrix from L2 took 8 ms on the 27-point stencil
// 150^3, against 1.3 ms for the flags). A block that meets more diagonals
// than its set holds adds the rest straight to the device's set.
constexpr int block_slot_bits = 9;
constexpr std::uint32_t block_most = 256;
constexpr unsigned most_collecting_blocks = 2048;

template <int LanesPerRow, class T>
__global__ void __launch_bounds__(dia_build_block) collect_diagonals_kernel(CsrView<T> a, DiagonalSet set) {
  constexpr int block_slots = 1 << block_slot_bits;
  __shared__ std::uint32_t block_keys[block_slots + 1];  // the last: the block's count
  for (int i = threadIdx.x; i <= block_slots; i += blockDim.x) block_keys[i] = i < block_slots ? empty_key : 0u;
  __syncthreads();
  constexpr int rows_per_block = dia_build_block / LanesPerRow;
  const std::int64_t rows_per_pass = static_cast<std::int64_t>(gridDim.x) * rows_per_block;
  bool given_up = false;  // by the device's set: the matrix is refused, the rest need not be read
  for (std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * rows_per_block + threadIdx.x / LanesPerRow;
       row < a.rows && !given_up; row += rows_per_pass)
    for (index_t k = a.row_ptr[row] + threadIdx.x % LanesPerRow; k < a.row_ptr[row + 1] && !given_up;
         k += LanesPerRow) {
      const auto key = static_cast<std::uint32_t>(diagonal_slot(a.rows, static_cast<index_t>(row), a.col_idx[k]));
      if (!insert_key(block_keys, block_slot_bits, block_keys + block_slots, block_most, key))
        given_up = !insert_key(set.keys, set.slot_bits, set.count(), set.most, key);
    }
  __syncthreads();
  if (__ldcg(set.count()) > set.most) return;
  for (int i = threadIdx.x; i < block_slots; i += blockDim.x)
    if (block_keys[i] != empty_key) insert_key(set.keys, set.slot_bits, set.count(), set.most, block_keys[i]);
}

// The number of the diagonal of `key`, which the set holds.
__device__ __forceinline__ index_t diagonal_number(const std::uint32_t* keys, const index_t* numbers, int slot_bits,
                                                   std::uint32_t key) {
  const std::uint32_t mask = (1u << slot_bits) - 1;
  std::uint32_t slot = first_probe(key, slot_bits);
  while (__ldg(keys + slot) != key) slot = (slot + 1) & mask;
  return __ldg(numbers + slot);
}

// The set's keys with their numbers, as the pass-2 kernels read them. A
// thread keeps the last diagonal it looked up: the rows it visits in turn
// mostly have their k-th entry on the same diagonal.
struct NumberedDiagonals {
  const std::uint32_t* keys;
  const index_t* numbers;
  int slot_bits;

  struct Lookup {
    const NumberedDiagonals& set;
    std::uint32_t last_key = empty_key;
    index_t last_number = 0;

    __device__ index_t operator()(index_t rows, index_t row, index_t col) {
      const auto key = static_cast<std::uint32_t>(diagonal_slot(rows, row, col));
      if (key != last_key) {
        last_key = key;
        last_number = diagonal_number(set.keys, set.numbers, set.slot_bits, key);
      }
      return last_number;
    }
  };
};

// Flags every occupied diagonal (one flag per possible one): the exact count
// of a matrix the set gave up on.
template <int LanesPerRow, class T>
__global__ void flag_occupied_diagonals_kernel(CsrView<T> a, index_t* occupied) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t row = thread / LanesPerRow;
  if (row >= a.rows) return;
  for (index_t k = a.row_ptr[row] + thread % LanesPerRow; k < a.row_ptr[row + 1]; k += LanesPerRow) {
    index_t* flag = occupied + diagonal_slot(a.rows, static_cast<index_t>(row), a.col_idx[k]);
    if (*flag == 0) *flag = 1;
  }
}

constexpr int tile_rows = 64;
constexpr int tile_stride = tile_rows + 1;  // a row's diagonals in different banks
constexpr std::size_t max_tile_bytes = 48 << 10;

// Rows [64 b, 64 b + 64) of the stride: their entries into the shared tile
// (diagonal d's value of tile row i at d * 65 + i), then the tile out.
template <int LanesPerRow, class T>
__global__ void __launch_bounds__(dia_build_block) write_diagonal_tiles_kernel(CsrView<T> a,
                                                                              NumberedDiagonals numbered,
                                                                              index_t diagonals, index_t stride,
                                                                              T* values) {
  extern __shared__ unsigned char tile_bytes[];
  T* tile = reinterpret_cast<T*>(tile_bytes);
  const index_t first_row = static_cast<index_t>(blockIdx.x) * tile_rows;
  const index_t rows = min(static_cast<index_t>(tile_rows), stride - first_row);
  for (int f = threadIdx.x; f < diagonals * tile_stride; f += blockDim.x) tile[f] = T(0);
  __syncthreads();
  constexpr int rows_at_once = dia_build_block / LanesPerRow;
  NumberedDiagonals::Lookup number_of{numbered};
  for (int i = threadIdx.x / LanesPerRow; i < rows; i += rows_at_once) {
    const index_t row = first_row + i;
    if (row >= a.rows) continue;
    for (index_t k = a.row_ptr[row] + threadIdx.x % LanesPerRow; k < a.row_ptr[row + 1]; k += LanesPerRow)
      tile[number_of(a.rows, row, a.col_idx[k]) * tile_stride + i] = a.values[k];
  }
  __syncthreads();
  for (int f = threadIdx.x; f < diagonals * rows; f += blockDim.x) {
    const int d = f / rows, i = f % rows;
    values[static_cast<std::size_t>(d) * stride + first_row + i] = tile[d * tile_stride + i];
  }
}

template <int LanesPerRow, class T>
__global__ void scatter_diagonals_kernel(CsrView<T> a, NumberedDiagonals numbered, index_t stride, T* values) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t row = thread / LanesPerRow;
  if (row >= a.rows) return;
  NumberedDiagonals::Lookup number_of{numbered};
  for (index_t k = a.row_ptr[row] + thread % LanesPerRow; k < a.row_ptr[row + 1]; k += LanesPerRow) {
    const index_t d = number_of(a.rows, static_cast<index_t>(row), a.col_idx[k]);
    values[static_cast<std::size_t>(d) * stride + row] = a.values[k];
  }
}

// Calls f(std::integral_constant<int, L>{}) for L lanes per row: the power
// of two at or above the mean row length of `a`, up to a warp.
template <class T, class F>
void with_lanes_per_row(const CsrView<T>& a, F&& f) {
  const std::int64_t mean = a.rows ? (static_cast<std::int64_t>(a.nnz) + a.rows - 1) / a.rows : 0;
  if (mean <= 1)
    f(std::integral_constant<int, 1>{});
  else if (mean <= 2)
    f(std::integral_constant<int, 2>{});
  else if (mean <= 4)
    f(std::integral_constant<int, 4>{});
  else if (mean <= 8)
    f(std::integral_constant<int, 8>{});
  else if (mean <= 16)
    f(std::integral_constant<int, 16>{});
  else
    f(std::integral_constant<int, warp_size>{});
}

// Calls f(lanes) with the lanes per row of `a` and launches over its rows.
template <class T, class Launch>
void for_rows(const CsrView<T>& a, Launch&& launch) {
  with_lanes_per_row(a, [&](auto lanes) {
    launch(lanes, blocks_for(std::size_t(a.rows) * lanes, dia_build_block));
    SPMV_LAUNCH_CHECK();
  });
}

// The exact number of occupied diagonals, for a matrix with too many for
// the set: a flag per possible diagonal, and their sum.
template <class T>
std::size_t count_every_diagonal(const CsrView<T>& a, cudaStream_t stream) {
  const std::size_t possible = static_cast<std::size_t>(a.rows) + a.cols - 1;
  DeviceBuffer<index_t> occupied(possible, "DIA diagonal flags", ScratchOn{stream});
  device_fill(occupied.data(), possible, index_t{0}, stream);
  for_rows(a, [&](auto lanes, unsigned blocks) {
    flag_occupied_diagonals_kernel<lanes()><<<blocks, dia_build_block, 0, stream>>>(a, occupied.data());
  });
  return static_cast<std::size_t>(device_sum(occupied.data(), possible, stream));
}

}  // namespace

template <class T>
DeviceDia<T> build_dia_on_device(const CsrView<T>& a, const DiaOptions& options, cudaStream_t stream) {
  DeviceDia<T> dia;
  dia.rows = a.rows;
  dia.cols = a.cols;
  dia.stride = aligned_stride(a.rows, dia_row_alignment);
  dia.nnz = a.nnz;
  if (a.nnz == 0) {  // no diagonal, whatever the shape (rows + cols - 1 may be -1)
    check_dia_limit(a.rows, a.nnz, sizeof(T), 0, options.max_padding);
    return dia;
  }
  const std::size_t possible = static_cast<std::size_t>(a.rows) + a.cols - 1;
  const std::size_t most = dia_most_diagonals(a.rows, a.cols, a.nnz, sizeof(T), options.max_padding);
  // Slots for twice the diagonals there can be (at most 2^26: `most` times
  // the stride of 32 or more fits 32-bit indices), so probes stay short.
  DiagonalSet set{nullptr, 5, static_cast<std::uint32_t>(most)};
  while (set.capacity() < 2 * std::min(most + 1, possible)) ++set.slot_bits;
  DeviceBuffer<std::uint32_t> keys(set.capacity() + 1, "DIA diagonal set", ScratchOn{stream});
  set.keys = keys.data();
  device_fill(keys.data(), set.capacity(), empty_key, stream);
  device_fill(set.keys + set.capacity(), 1, 0u, stream);
  for_rows(a, [&](auto lanes, unsigned blocks) {
    collect_diagonals_kernel<lanes()>
        <<<std::min(blocks, most_collecting_blocks), dia_build_block, 0, stream>>>(a, set);
  });
  const std::vector<std::uint32_t> collected = device_values(keys.data(), keys.size(), stream);
  const std::size_t claimed = collected.back();
  // More than `most` is refused: check_dia_limit throws, naming the count.
  check_dia_limit(a.rows, a.nnz, sizeof(T), claimed > most ? count_every_diagonal(a, stream) : claimed,
                  options.max_padding);

  // The diagonals numbered in increasing offset order, as the host builder
  // has them; each slot of the set gets its key's number.
  std::vector<std::uint32_t> sorted;
  sorted.reserve(claimed);
  for (std::size_t slot = 0; slot < set.capacity(); ++slot)
    if (collected[slot] != empty_key) sorted.push_back(collected[slot]);
  std::sort(sorted.begin(), sorted.end());
  // numbers[slot] for every slot, then the offsets: one upload.
  std::vector<index_t> numbers_and_offsets(set.capacity() + claimed, -1);
  for (std::size_t slot = 0; slot < set.capacity(); ++slot)
    if (collected[slot] != empty_key)
      numbers_and_offsets[slot] =
          static_cast<index_t>(std::lower_bound(sorted.begin(), sorted.end(), collected[slot]) - sorted.begin());
  for (std::size_t d = 0; d < claimed; ++d)
    numbers_and_offsets[set.capacity() + d] = static_cast<index_t>(static_cast<std::int64_t>(sorted[d]) - (a.rows - 1));
  DeviceBuffer<index_t> numbers(numbers_and_offsets.size(), "DIA diagonal numbers", ScratchOn{stream});
  upload_staged(numbers.data(), numbers_and_offsets.data(), numbers.bytes(), stream);
  dia.offsets = device_copy(numbers.data() + set.capacity(), claimed, "DIA offsets", stream);

  const NumberedDiagonals numbered{keys.data(), numbers.data(), set.slot_bits};
  const auto diagonals = static_cast<index_t>(claimed);
  const std::size_t value_count = claimed * dia.stride;
  dia.values = DeviceBuffer<T>(value_count, "DIA values");
  const std::size_t tile_bytes = claimed * tile_stride * sizeof(T);
  if (tile_bytes <= max_tile_bytes) {
    with_lanes_per_row(a, [&](auto lanes) {
      write_diagonal_tiles_kernel<lanes()><<<blocks_for(dia.stride, tile_rows), dia_build_block, tile_bytes, stream>>>(
          a, numbered, diagonals, dia.stride, dia.values.data());
      SPMV_LAUNCH_CHECK();
    });
  } else {
    device_fill(dia.values.data(), value_count, T(0), stream);
    for_rows(a, [&](auto lanes, unsigned blocks) {
      scatter_diagonals_kernel<lanes()>
          <<<blocks, dia_build_block, 0, stream>>>(a, numbered, dia.stride, dia.values.data());
    });
  }
  // The set and numbers go back to the scratch cache on return while the
  // kernels may still read them: a block is taken again only once the work
  // queued on its stream before its return has run.
  return dia;
}

template DeviceDia<float> build_dia_on_device(const CsrView<float>&, const DiaOptions&, cudaStream_t);
template DeviceDia<double> build_dia_on_device(const CsrView<double>&, const DiaOptions&, cudaStream_t);

}  // namespace spmv::detail
