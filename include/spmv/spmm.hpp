// Out-of-core SpMM (Ortega et al. 2013, Algorithms 2 and 3): C = alpha*A*B +
// beta*C with B (cols x k) and C (rows x k) in host memory, when they do not
// fit in device memory, or in the share of it the caller allows.
//
//   spmv::OutOfCoreOptions options;
//   options.device_memory_cap = 2ull << 30;               // 2 GiB for A and the chunks
//   spmv::OutOfCoreSpmm<double> spmm(a, k, spmv::Layout::col_major, options);
//   auto times = spmm.multiply(b, c, 1.0, 0.0, spmv::ChunkSchedule::overlapped);
//
// A stays on the device; B and C travel in chunks of L_GPU columns
// (chunk_columns()). The sequential schedule (Algorithm 2) copies a chunk
// of B in, runs the SpMM kernel on it and copies the chunk of C out, one
// after another. The overlapped schedule (Algorithm 3) gives each of
// `streams` chunks in flight its own CUDA stream and device buffers, so that
// the copy of chunk i+1 in, the kernel on chunk i and the copy of chunk i-1
// out run at the same time. A column-major chunk is one contiguous copy; a
// row-major chunk is a strided (2D) copy of L_GPU values per row.
//
// Operands in page-locked memory (make_pinned) are copied directly and
// asynchronously; other host memory goes through page-locked staging
// buffers, filled and emptied by the calling thread while the device works.
//
// Present in CUDA builds only (SPMV_HAVE_CUDA).
#pragma once

#ifdef SPMV_HAVE_CUDA

#include <cstddef>
#include <memory>
#include <string>

#include "spmv/matrix.hpp"
#include "spmv/operator.hpp"

namespace spmv {

enum class ChunkSchedule {
  sequential,  // Algorithm 2 (FastSpMM*): copy in, kernel, copy out, chunk after chunk
  overlapped,  // Algorithm 3 (FastSpMM): chunks in flight on their own streams
};
const char* to_string(ChunkSchedule schedule);

struct OutOfCoreOptions {
  // Device bytes the SpMM may hold: A (its device CSR and the SpMM kernel's
  // own format, if any) plus the chunk buffers of B and C. 0: the device's
  // free memory at construction.
  std::size_t device_memory_cap = 0;
  // L_GPU, columns of B and C per chunk; 0: the most that the cap allows
  // (a multiple of 8 when more than 8).
  index_t chunk_columns = 0;
  int streams = 2;      // chunks in flight in the overlapped schedule, >= 2
  std::string kernel;   // SpMM kernel of the cuda backend; empty: the default
  KernelParams params;  // its parameters
};

// One product's times, in the paper's Table 4 terms.
struct OutOfCoreTimes {
  index_t chunk_columns = 0;  // L_GPU
  index_t chunks = 0;
  double copy_in_seconds = 0;     // B chunks (and C chunks when beta != 0) to the device
  double copy_out_seconds = 0;    // C chunks to the host
  double processing_seconds = 0;  // PT: the SpMM kernels
  double staging_seconds = 0;     // host copies through the pinned buffers (0 for pinned operands)
  double total_seconds = 0;       // the whole product, wall clock
  // CT: time spent in copies. In the overlapped schedule copies may also
  // wait for a busy copy engine, which this includes.
  double communication_seconds() const { return copy_in_seconds + copy_out_seconds; }
};

template <class T>
class OutOfCoreSpmm {
 public:
  // Builds A for the SpMM kernel, uploads it and allocates the chunk
  // buffers. Throws OutOfMemory when the cap cannot hold A and one column
  // of B and C per stream (the message gives both figures), InvalidArgument
  // for bad options, Unavailable without a CUDA device.
  OutOfCoreSpmm(const Csr<T>& a, index_t k, Layout layout, const OutOfCoreOptions& options = {});
  ~OutOfCoreSpmm();
  OutOfCoreSpmm(const OutOfCoreSpmm&) = delete;
  OutOfCoreSpmm& operator=(const OutOfCoreSpmm&) = delete;

  // C = alpha * A * B + beta * C with host pointers b (cols x k) and c
  // (rows x k) in the layout given at construction. With beta == 0, C is
  // not read. Returns when C is complete. The first call with pageable
  // operands allocates the pinned staging buffers.
  OutOfCoreTimes multiply(const T* b, T* c, T alpha, T beta, ChunkSchedule schedule);

  index_t chunk_columns() const;
  index_t chunks() const;
  std::size_t device_bytes() const;      // held on the device: A and the chunk buffers
  OperatorDescription describe() const;  // the SpMM kernel, its format and parameters

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Page-locked host memory, for operands whose copies should overlap.
struct PinnedDeleter {
  void operator()(void* p) const noexcept;
};
template <class T>
using PinnedArray = std::unique_ptr<T[], PinnedDeleter>;
// Throws DeviceError when the memory cannot be had.
void* allocate_pinned(std::size_t bytes);
template <class T>
PinnedArray<T> make_pinned(std::size_t count) {
  return PinnedArray<T>(static_cast<T*>(allocate_pinned(count * sizeof(T))));
}

}  // namespace spmv

#endif  // SPMV_HAVE_CUDA
