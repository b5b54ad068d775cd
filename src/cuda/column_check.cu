// The columns of an uploaded CSR checked on the device (device_csr.hpp):
// a plan for the GPU checks only the row pointers on the host, as a host
// pass over every entry costs about as much as the upload itself.
#include <algorithm>

#include "core/csr_checks.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_build.hpp"
#include "cuda/device_csr.hpp"

namespace spmv::detail {

namespace {

constexpr int check_block = 256;
// Enough groups to fill the GPU; each strides over the rows after that.
constexpr std::size_t max_check_blocks = 8192;

// Groups of `lanes` threads (a power of two up to 32) read a row each, its
// entries side by side; an entry is bad outside [0, cols) or not after the
// one before it in its row. first_bad_row ends as the least bad row.
template <class T>
__global__ void first_bad_row_kernel(CsrView<T> a, int lanes, index_t* first_bad_row) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t groups = static_cast<std::int64_t>(gridDim.x) * blockDim.x / lanes;
  const int lane = static_cast<int>(thread % lanes);
  for (std::int64_t r = thread / lanes; r < a.rows; r += groups) {
    const index_t begin = a.row_ptr[r], end = a.row_ptr[r + 1];
    for (index_t k = begin + lane; k < end; k += lanes) {
      const index_t c = __ldg(a.col_idx + k);
      if (c < 0 || c >= a.cols || (k > begin && __ldg(a.col_idx + k - 1) >= c)) {
        atomicMin(first_bad_row, static_cast<index_t>(r));
        break;
      }
    }
  }
}

}  // namespace

template <class T>
void check_columns_on_device(const Csr<T>& host, const CsrView<T>& device) {
  if (device.nnz == 0) return;
  int lanes = 1;
  while (lanes < 32 && static_cast<std::int64_t>(lanes) * host.rows < device.nnz) lanes *= 2;
  DeviceBuffer<index_t> first_bad_row(1, "CSR column check");
  device_fill(first_bad_row.data(), 1, host.rows, nullptr);
  const std::size_t threads = static_cast<std::size_t>(host.rows) * lanes;
  first_bad_row_kernel<<<std::min<std::size_t>(blocks_for(threads, check_block), max_check_blocks), check_block>>>(
      device, lanes, first_bad_row.data());
  SPMV_LAUNCH_CHECK();
  const index_t row = device_value(first_bad_row.data(), nullptr);
  if (row < host.rows) throw_bad_entry(host, row);
}

template void check_columns_on_device(const Csr<float>&, const CsrView<float>&);
template void check_columns_on_device(const Csr<double>&, const CsrView<double>&);

}  // namespace spmv::detail
