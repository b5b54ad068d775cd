// Baskaran's blocked format on the device: the arrays of Blocked<T>
// (spmv/formats/blocked.hpp) in device memory, found by the run-time
// inspection and built from the uploaded CSR by blocked_device_build.cu,
// run by blocked_shared_x.cu.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/csr_algorithm.hpp"
#include "cuda/device_buffer.hpp"
#include "spmv/formats/blocked.hpp"

namespace spmv::detail {

// The device build takes b_r up to the kernel's largest (the host builder any).
inline constexpr index_t blocked_device_max_block_rows = 8;

template <class T>
struct DeviceBlocked {
  index_t rows = 0;
  index_t cols = 0;
  index_t block_rows = 0;
  index_t block_cols = 0;
  index_t nnz = 0;
  DeviceBuffer<index_t> row_block_ptr;
  DeviceBuffer<index_t> block_col;
  DeviceBuffer<index_t> block_entry_ptr;
  DeviceBuffer<std::uint8_t> row_units;
  DeviceBuffer<std::uint16_t> col_offset;
  DeviceBuffer<T> values;

  index_t row_blocks() const { return static_cast<index_t>(row_block_ptr.size()) - 1; }
};

// The run-time inspection: how many blocks each row block opens and how many
// half-warp units their padded segments hold, and the totals (what
// blocked_footprint needs).
struct DeviceBlockedInspection {
  DeviceBuffer<index_t> blocks_per_row_block;
  DeviceBuffer<index_t> units_per_row_block;  // saturated at max_index: refused then anyway
  index_t blocks = 0;
  std::int64_t stored_entries = 0;  // units * blocked_alignment
};

// Throws InvalidArgument as blocked_footprint does, and for block_rows
// beyond blocked_device_max_block_rows. Synchronises.
template <class T>
DeviceBlockedInspection inspect_blocked_on_device(const CsrView<T>& a, const BlockedOptions& options,
                                                  cudaStream_t stream);

// The arrays blocked_from_csr(a, options) makes, built on `stream` (the last
// kernels may still run when it returns). Throws what blocked_from_csr
// throws, deciding the refusal right after the inspection, before the
// entries are allocated.
template <class T>
DeviceBlocked<T> build_blocked_on_device(const CsrView<T>& a, const BlockedOptions& options, cudaStream_t stream);

// The same arrays on the host (after the build's stream has finished).
template <class T>
Blocked<T> download(const DeviceBlocked<T>& blocked) {
  return {blocked.rows,
          blocked.cols,
          blocked.block_rows,
          blocked.block_cols,
          blocked.nnz,
          blocked.row_block_ptr.to_host(),
          blocked.block_col.to_host(),
          blocked.block_entry_ptr.to_host(),
          blocked.row_units.to_host(),
          blocked.col_offset.to_host(),
          blocked.values.to_host()};
}

}  // namespace spmv::detail
