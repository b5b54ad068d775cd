// csr-hub: the x values of the most referenced columns kept in shared memory.
//
// In power-law graphs a few columns take a large share of the entries (R-MAT
// scale 20, edge factor 16: the 6,144 most referenced columns hold 43% of
// them), and every other kernel pays each entry's x gather with a 32-byte L2
// sector (docs/perf-notes.md, "R-MAT scale 20: where the time goes").
// - Plan time: count each column's entries (on the device). The hubs are
//   the columns with more entries than it costs to copy their x into every
//   resident block (resident blocks x sizeof(T) / 32 sectors), the most
//   referenced first, as many as hub_kib of shared memory holds: those
//   candidates are found on the device, only they come back to be ranked.
//   The pieces of rows are built on the device too (csr_row_blocks.hpp).
//   Where the hubs would hold under hub_min_share percent of the entries
//   (the selector asks for 20), csr-adaptive gets the matrix instead.
//   The column indices are recoded once on the device: an entry of a hub
//   stores ~slot (negative), any other its column.
// - Product: a first launch gathers the hubs' x into a contiguous array.
//   Then persistent blocks (as many as are resident at once) each copy it
//   into shared memory, and each warp multiplies pieces of
//   consecutive rows of up to 32 x items_per_thread entries
//   (csr_row_blocks.hpp), the pieces dealt round robin over the grid's warps.
//   Entries are loaded coalesced (evict-first), x comes from shared memory
//   for a hub and through the read-only cache otherwise. Rows of at most 32
//   entries share a piece: the products are staged in the warp's shared
//   memory and summed per row by sub-warps. A longer row is a piece alone,
//   summed by the warp in registers; one longer than 4 rounds is cut into
//   chunks whose partials SplitRowFixup adds, so sums have a fixed order.
// - On Hopper the three launches overlap (programmatic dependent launch):
//   the main kernel's blocks start and load their first pieces while the
//   gather runs, and the fix-up is launched while the main kernel runs.
//   R-MAT scale 16-22 (H100, device call 52): 1-18% faster; finishing the
//   cut rows in the main kernel instead (the last chunk adding the partials,
//   counted by an atomic) was 12-18% slower than that at scale 20-22.
// x and y stay in the caller's order: nothing is permuted per product.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cuda/csr_kernels.hpp"
#include "cuda/csr_row_blocks.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/dependent_launch.cuh"
#include "cuda/device_build.hpp"
#include "cuda/device_loads.cuh"

namespace spmv::detail {

namespace {

// A row longer than this many rounds of a warp's capacity is cut into chunks
// (as in csr-adaptive).
constexpr index_t max_rounds_per_piece = 4;

template <class T>
struct HubMatrix {
  const index_t* row_ptr;
  const index_t* codes;  // per entry: its column, or ~slot for a hub
  const T* values;
  const RowBlock* pieces;
  index_t piece_count;
  const T* hub_values;  // per slot: x of the hub's column (gather_hubs_kernel)
  index_t hubs;
};

// Loads entries begin + item * 32 + lane (below count) of one round.
template <int Items, class T>
__device__ __forceinline__ void load_round(const HubMatrix<T>& m, index_t begin, index_t count, index_t lane,
                                           index_t (&codes)[Items], T (&vals)[Items]) {
#pragma unroll
  for (int item = 0; item < Items; ++item) {
    const index_t k = item * warp_size + lane;
    if (k < count) {
      codes[item] = load_streaming(m.codes + begin + k);
      vals[item] = load_streaming(m.values + begin + k);
    }
  }
}

template <class T>
__device__ __forceinline__ T x_at(index_t code, const T* hub_x, const T* __restrict__ x) {
  return code < 0 ? hub_x[~code] : load_cached(x + code);
}

// Every product first gathers the hubs' x into one contiguous array, which
// the blocks then copy with coalesced loads: each block gathering from x
// itself cost a 32-byte sector per hub and block (R-MAT 20, f64: 0.197 ms
// against 0.154 with 8,192 hubs in 264 blocks against 132).
template <class T>
__global__ void gather_hubs_kernel(const index_t* __restrict__ hub_cols, index_t hubs, const T* __restrict__ x,
                                   T* __restrict__ hub_values) {
  let_next_kernel_start();  // the main kernel
  const index_t h = blockIdx.x * blockDim.x + threadIdx.x;
  if (h < hubs) hub_values[h] = load_cached(x + hub_cols[h]);
}

// No minimum of blocks per SM in __launch_bounds__: asking for full
// occupancy (32 registers) made f64 spill and run 25% slower (R-MAT 20:
// 0.194 ms against 0.156).
template <class T, int BlockSize, int Items>
__global__ void __launch_bounds__(BlockSize)
    spmv_csr_hub_kernel(HubMatrix<T> m, const T* __restrict__ x, T* __restrict__ y, T alpha, T beta,
                        T* __restrict__ partials) {
  constexpr int warps = BlockSize / warp_size;
  constexpr index_t capacity = warp_size * Items;
  // Shared memory: each warp's products and row starts, then the hubs' x.
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* const staged = reinterpret_cast<T*>(shared_bytes);
  index_t* const staged_starts = reinterpret_cast<index_t*>(staged + warps * capacity);
  T* const hub_x = reinterpret_cast<T*>(staged_starts + warps * (capacity + 1));

  const index_t warp = threadIdx.x / warp_size;
  const index_t lane = threadIdx.x % warp_size;
  T* const products = staged + warp * capacity;
  index_t* const row_starts = staged_starts + warp * (capacity + 1);
  const index_t stride = gridDim.x * warps;
  index_t p = blockIdx.x * warps + warp;
  // Software pipeline: while a piece's x is gathered, the first round of the
  // warp's next piece is already loading, and the descriptor after that.
  RowBlock next{};
  index_t codes[Items], next_codes[Items];
  T vals[Items], next_vals[Items];
  if (p < m.piece_count) {
    next = m.pieces[p];
    load_round(m, next.entry_begin, next.entry_end - next.entry_begin, lane, next_codes, next_vals);
  }
  RowBlock after = p + stride < m.piece_count ? m.pieces[p + stride] : RowBlock{};
  // Only the matrix was read so far: x, y and the hubs' values only once the
  // hub gather, which may still be running, has finished.
  wait_for_previous_kernel();
  for (index_t h = threadIdx.x; h < m.hubs; h += BlockSize) hub_x[h] = load_cached(m.hub_values + h);
  __syncthreads();
  let_next_kernel_start();  // the fix-up of cut rows

  for (; p < m.piece_count; p += stride) {
    const RowBlock piece = next;
#pragma unroll
    for (int item = 0; item < Items; ++item) {
      codes[item] = next_codes[item];
      vals[item] = next_vals[item];
    }
    if (p + stride < m.piece_count) {
      next = after;
      load_round(m, next.entry_begin, next.entry_end - next.entry_begin, lane, next_codes, next_vals);
      if (p + 2 * stride < m.piece_count) after = m.pieces[p + 2 * stride];
    }
    const index_t rows = piece.row_end - piece.row_begin;
    const index_t entries = piece.entry_end - piece.entry_begin;
    if (rows == 1) {
      T sum = 0;
      for (index_t done = 0; done < entries; done += capacity) {
        if (done > 0) load_round(m, piece.entry_begin + done, entries - done, lane, codes, vals);
#pragma unroll
        for (int item = 0; item < Items; ++item)
          if (item * warp_size + lane < entries - done) sum += vals[item] * x_at(codes[item], hub_x, x);
      }
      sum = subwarp_sum<warp_size>(sum, 0xffffffffu);
      if (lane == 0) {
        if (piece.partial < 0)
          store_result(y + piece.row_begin, sum, alpha, beta);
        else
          partials[piece.partial] = sum;
      }
      continue;
    }

    // Short rows: stage the products and the rows' starts (relative to the
    // piece), then sub-warps of `lanes` sum a row each.
#pragma unroll
    for (int item = 0; item <= Items; ++item) {
      const index_t i = item * warp_size + lane;
      if (i <= rows) row_starts[i] = load_streaming(m.row_ptr + piece.row_begin + i) - piece.entry_begin;
    }
#pragma unroll
    for (int item = 0; item < Items; ++item) {
      const index_t k = item * warp_size + lane;
      if (k < entries) products[k] = vals[item] * x_at(codes[item], hub_x, x);
    }
    __syncwarp();
    int lanes = 1;  // per row; the same in the whole warp
    while (lanes < warp_size && 2 * lanes * rows <= warp_size) lanes *= 2;
    const index_t sublane = lane % lanes;
    for (index_t first = 0; first < rows; first += warp_size / lanes) {
      const index_t r = first + lane / lanes;
      T sum = 0;
      if (r < rows)
        for (index_t k = row_starts[r] + sublane; k < row_starts[r + 1]; k += lanes) sum += products[k];
      for (int offset = lanes / 2; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
      if (sublane == 0 && r < rows) store_result(y + piece.row_begin + r, sum, alpha, beta);
    }
    __syncwarp();  // the next piece overwrites the products and starts
  }
}

// Entries per column, counted on the device: a host pass over the column
// indices, its increments landing all over a cols-long array, took most of
// the plan (175 ms on R-MAT 22, edge factor 8).
__global__ void count_columns_kernel(const index_t* __restrict__ col_idx, index_t nnz, index_t* __restrict__ counts) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < nnz) atomicAdd(counts + col_idx[k], 1);
}

// The column table: each column's code, the column itself ...
__global__ void plain_codes_kernel(index_t cols, index_t* __restrict__ table) {
  const std::int64_t c = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c < cols) table[c] = static_cast<index_t>(c);
}

// ... or ~slot for a hub.
__global__ void hub_codes_kernel(const index_t* __restrict__ hub_cols, index_t hubs, index_t* __restrict__ table) {
  const index_t slot = blockIdx.x * blockDim.x + threadIdx.x;
  if (slot < hubs) table[hub_cols[slot]] = ~slot;
}

__global__ void recode_columns_kernel(const index_t* __restrict__ col_idx, const index_t* __restrict__ table,
                                      index_t nnz, index_t* __restrict__ codes) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < nnz) codes[k] = table[col_idx[k]];
}

__global__ void candidate_flags_kernel(const index_t* __restrict__ counts, index_t cols, index_t min_entries,
                                       index_t* __restrict__ flags) {
  const std::int64_t c = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c < cols) flags[c] = counts[c] > min_entries;
}

__global__ void gather_candidates_kernel(const index_t* __restrict__ counts, const index_t* __restrict__ at,
                                         index_t cols, index_t min_entries, index_t* __restrict__ columns,
                                         index_t* __restrict__ entries) {
  const std::int64_t c = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= cols || counts[c] <= min_entries) return;
  columns[at[c]] = static_cast<index_t>(c);
  entries[at[c]] = counts[c];
}

// The columns with more than `min_entries` entries (`counts`, on the device),
// in column order, with their entries: only these come back to the host.
struct HubCandidates {
  std::vector<index_t> columns;
  std::vector<index_t> entries;
};
HubCandidates hub_candidates(const index_t* counts, index_t cols, index_t min_entries) {
  if (cols == 0) return {};
  const auto n = static_cast<std::size_t>(cols);
  DeviceBuffer<index_t> flags(n, "csr-hub candidates"), at(n + 1, "csr-hub candidates");
  candidate_flags_kernel<<<blocks_for(n, default_block_size), default_block_size>>>(counts, cols, min_entries,
                                                                                   flags.data());
  SPMV_LAUNCH_CHECK();
  const index_t found = device_offsets(flags.data(), n, at.data(), "csr-hub candidates", nullptr);
  DeviceBuffer<index_t> columns(static_cast<std::size_t>(found), "csr-hub candidates"),
      entries(static_cast<std::size_t>(found), "csr-hub candidates");
  gather_candidates_kernel<<<blocks_for(n, default_block_size), default_block_size>>>(
      counts, at.data(), cols, min_entries, columns.data(), entries.data());
  SPMV_LAUNCH_CHECK();
  return {columns.to_host(), entries.to_host()};
}

// The hubs, in column order, and the entries they hold.
struct Hubs {
  std::vector<index_t> columns;
  std::int64_t entries = 0;
};

// Of the candidates, the most referenced first (ties: lower column), at most `most`.
Hubs pick_hubs(const HubCandidates& candidates, std::size_t most) {
  Hubs hubs;
  if (candidates.columns.size() <= most) {
    hubs.columns = candidates.columns;
    for (index_t entries : candidates.entries) hubs.entries += entries;
    return hubs;
  }
  std::vector<std::size_t> order(candidates.columns.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto more_entries = [&](std::size_t p, std::size_t q) {  // positions in column order: p < q is lower column
    return candidates.entries[p] != candidates.entries[q] ? candidates.entries[p] > candidates.entries[q] : p < q;
  };
  std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(most), order.end(), more_entries);
  order.resize(most);
  std::sort(order.begin(), order.end());
  for (std::size_t i : order) {
    hubs.columns.push_back(candidates.columns[i]);
    hubs.entries += candidates.entries[i];
  }
  return hubs;
}

template <class T>
class CsrHub final : public CsrAlgorithm<T> {
 public:
  CsrHub(int block_size, int items_per_thread, int hub_kib, int hub_min_entries, int hub_min_share)
      : block_size_(block_size),
        items_per_thread_(items_per_thread),
        hub_kib_(hub_kib),
        hub_min_entries_(hub_min_entries),
        hub_min_share_(hub_min_share) {}

  void prepare(const CsrView<T>& device) override {
    const index_t capacity = warp_size * items_per_thread_;
    int device_id = 0, multiprocessors = 0, shared_limit = 0;
    SPMV_CUDA_CHECK(cudaGetDevice(&device_id));
    overlap_launches_ = device_overlaps_launches();
    SPMV_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device_id));
    SPMV_CUDA_CHECK(cudaDeviceGetAttribute(&shared_limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device_id));
    const std::size_t staging = static_cast<std::size_t>(block_size_) * items_per_thread_ * sizeof(T) +
                                static_cast<std::size_t>(block_size_ / warp_size) * (capacity + 1) * sizeof(index_t);
    const std::size_t hub_bytes =
        std::min<std::size_t>(static_cast<std::size_t>(hub_kib_) * 1024, shared_limit - staging);
    // The limit is an attribute of the kernel, not of this operator: set to
    // the device's most, so that another operator's plan never lowers it
    // below what this one launches with (R-MAT 20 and 22 ran as fast as with
    // the limit at this operator's need: device call 49).
    with_kernel([&](auto kernel) {
      SPMV_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_limit));
    });
    const index_t resident_at_most = resident_blocks(staging + hub_bytes, multiprocessors);

    // Each resident block copies a hub's x once per product: sizeof(T) / 32
    // of an L2 sector, against a sector per entry of a plain column.
    const index_t worth_a_hub = std::max<index_t>(1, resident_at_most * static_cast<index_t>(sizeof(T)) / 32);
    DeviceBuffer<index_t> column_table(static_cast<std::size_t>(device.cols), "csr-hub column table");
    column_table.set_zero();
    if (device.nnz > 0) {
      count_columns_kernel<<<blocks_for(device.nnz, default_block_size), default_block_size>>>(
          device.col_idx, device.nnz, column_table.data());
      SPMV_LAUNCH_CHECK();
    }
    const index_t min_entries = hub_min_entries_ > 0 ? hub_min_entries_ : worth_a_hub;
    const Hubs picked = pick_hubs(hub_candidates(column_table.data(), device.cols, min_entries), hub_bytes / sizeof(T));
    if (below_min_share(picked, device.nnz)) {
      adaptive_ = make_csr_adaptive<T>({});
      adaptive_->prepare(device);
      return;
    }
    DeviceRowBlocks pieces = build_row_blocks_on_device(device.row_ptr, device.rows, capacity, warp_size,
                                                        static_cast<std::int64_t>(max_rounds_per_piece) * capacity,
                                                        nullptr);
    pieces_ = std::move(pieces.blocks);
    partials_ = DeviceBuffer<T>(pieces.partial_count, "csr-hub chunk partials");
    fixup_ = SplitRowFixup(pieces.cut_rows);
    const std::vector<index_t>& hubs = picked.columns;
    hub_cols_ = DeviceBuffer<index_t>(hubs, "csr-hub hub columns");
    hub_values_ = DeviceBuffer<T>(hubs.size(), "csr-hub hub values");
    shared_bytes_ = staging + hubs.size() * sizeof(T);
    const index_t warps = block_size_ / warp_size;
    grid_ = std::min(resident_blocks(shared_bytes_, multiprocessors),
                     static_cast<index_t>((pieces_.size() + warps - 1) / warps));
    if (!hubs.empty()) recode(device, column_table);
  }

  void spmv(const CsrView<T>& a, const T* x, T* y, T alpha, T beta, cudaStream_t stream) const override {
    if (adaptive_) return adaptive_->spmv(a, x, y, alpha, beta, stream);
    if (pieces_.size() == 0) return;
    const HubMatrix<T> m{a.row_ptr,
                         codes_.size() > 0 ? codes_.data() : a.col_idx,
                         a.values,
                         pieces_.data(),
                         static_cast<index_t>(pieces_.size()),
                         hub_values_.data(),
                         static_cast<index_t>(hub_cols_.size())};
    const bool gather = hub_cols_.size() > 0;
    if (gather) {
      gather_hubs_kernel<<<blocks_for(hub_cols_.size(), default_block_size), default_block_size, 0, stream>>>(
          hub_cols_.data(), static_cast<index_t>(hub_cols_.size()), x, hub_values_.data());
      SPMV_LAUNCH_CHECK();
    }
    // Programmatic dependent launch: the main kernel's blocks start, and
    // load their first pieces, while the gather runs (it waits for the
    // gather before it reads x).
    with_kernel([&](auto kernel) {
      launch_kernel(gather && overlap_launches_, static_cast<unsigned>(grid_), static_cast<unsigned>(block_size_),
                    shared_bytes_, stream, kernel, m, x, y, alpha, beta, partials_.data());
    });
    fixup_.launch(partials_.data(), y, alpha, beta, stream);
  }

  KernelParams params() const override {
    if (adaptive_) return adaptive_->params();
    return {{"block_size", block_size_},
            {"items_per_thread", items_per_thread_},
            {"hub_kib", hub_kib_},
            {"hub_min_entries", hub_min_entries_},
            {"hub_min_share", hub_min_share_}};
  }
  std::string handed_to() const override { return adaptive_ ? "csr-adaptive" : ""; }
  std::size_t workspace_bytes() const override {
    if (adaptive_) return adaptive_->workspace_bytes();
    return pieces_.bytes() + partials_.bytes() + fixup_.bytes() + hub_cols_.bytes() + hub_values_.bytes() +
           codes_.bytes();
  }

 private:
  int block_size_;
  int items_per_thread_;
  int hub_kib_;
  int hub_min_entries_;  // 0: from the copy cost (prepare)
  int hub_min_share_;    // percent of the entries the hubs must hold, else csr-adaptive multiplies; 0: always hubs
  std::unique_ptr<CsrAlgorithm<T>> adaptive_;  // below hub_min_share: csr-adaptive, which runs every product
  DeviceBuffer<RowBlock> pieces_;
  mutable DeviceBuffer<T> partials_;  // written by every product
  SplitRowFixup fixup_;
  DeviceBuffer<index_t> hub_cols_;
  mutable DeviceBuffer<T> hub_values_;  // written by every product
  DeviceBuffer<index_t> codes_;         // empty when there are no hubs: the CSR's columns serve
  std::size_t shared_bytes_ = 0;
  index_t grid_ = 0;
  bool overlap_launches_ = false;  // programmatic dependent launch (compute capability 9.0 and later)

  template <class Launch>
  void with_kernel(const Launch& launch) const {
    const auto by_items = [&](auto block_size) {
      constexpr int bs = decltype(block_size)::value;
      if (items_per_thread_ == 2)
        launch(spmv_csr_hub_kernel<T, bs, 2>);
      else if (items_per_thread_ == 4)
        launch(spmv_csr_hub_kernel<T, bs, 4>);
      else
        launch(spmv_csr_hub_kernel<T, bs, 8>);
    };
    if (block_size_ == 256)
      by_items(std::integral_constant<int, 256>{});
    else if (block_size_ == 512)
      by_items(std::integral_constant<int, 512>{});
    else
      by_items(std::integral_constant<int, 1024>{});
  }

  // Blocks resident on the whole GPU with `shared_bytes` of shared memory each.
  index_t resident_blocks(std::size_t shared_bytes, int multiprocessors) const {
    int per_multiprocessor = 0;
    with_kernel([&](auto kernel) {
      SPMV_CUDA_CHECK(
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, block_size_, shared_bytes));
    });
    return std::max<index_t>(1, static_cast<index_t>(per_multiprocessor) * multiprocessors);
  }

  // Without hubs that hold a good share of the entries, csr-hub is a warp per
  // piece of rows in blocks that leave L1 small, and csr-adaptive, tuned for
  // such pieces, is mostly faster: 5-9% on matrices of few huge rows whose
  // hubs hold under 5% of the entries (H200, docs/perf-notes.md, "csr-hub
  // hands a matrix of few hub entries to csr-adaptive"). The selector builds
  // it with the model's hub_min_share; prepare() then hands such a matrix to
  // csr-adaptive, and the operator's description names csr-adaptive.
  bool below_min_share(const Hubs& hubs, index_t nnz) const {
    return hub_min_share_ > 0 && nnz > 0 &&
           100.0 * static_cast<double>(hubs.entries) < static_cast<double>(hub_min_share_) * static_cast<double>(nnz);
  }

  // Turns `table` (a column count per column) into the column codes and
  // recodes the entries with it.
  void recode(const CsrView<T>& device, DeviceBuffer<index_t>& table) {
    const auto hubs = static_cast<index_t>(hub_cols_.size());
    plain_codes_kernel<<<blocks_for(device.cols, default_block_size), default_block_size>>>(device.cols, table.data());
    SPMV_LAUNCH_CHECK();
    hub_codes_kernel<<<blocks_for(hubs, default_block_size), default_block_size>>>(hub_cols_.data(), hubs,
                                                                                   table.data());
    SPMV_LAUNCH_CHECK();
    codes_ = DeviceBuffer<index_t>(static_cast<std::size_t>(device.nnz), "csr-hub entry codes");
    recode_columns_kernel<<<blocks_for(device.nnz, default_block_size), default_block_size>>>(
        device.col_idx, table.data(), device.nnz, codes_.data());
    SPMV_LAUNCH_CHECK();
    SPMV_CUDA_CHECK(cudaDeviceSynchronize());  // before `table` is freed
  }
};

}  // namespace

template <class T>
std::unique_ptr<CsrAlgorithm<T>> make_csr_hub(const KernelParams& params) {
  // Measured on an H100 (2026-11-26, R-MAT scale 20 and 22, edge factors 8 and
  // 16, f64 and f32): 1024 x 4 with 128 KiB of hubs was the fastest or within
  // 2% of it. One block per SM (the registers allow no more); 256- and
  // 512-thread blocks were up to 40% slower, each block's copy of the hubs
  // taking shared memory from L1; 176 KiB of hubs was 8-30% slower (L1
  // squeezed).
  return std::make_unique<CsrHub<T>>(param_or(params, "block_size", 1024), param_or(params, "items_per_thread", 4),
                                     param_or(params, "hub_kib", 128), param_or(params, "hub_min_entries", 0),
                                     param_or(params, "hub_min_share", 0));
}
template std::unique_ptr<CsrAlgorithm<float>> make_csr_hub(const KernelParams&);
template std::unique_ptr<CsrAlgorithm<double>> make_csr_hub(const KernelParams&);

}  // namespace spmv::detail
