// KernelWarmUp (kernel_warm_up.hpp).
#include "cuda/kernel_warm_up.hpp"

#include <algorithm>
#include <mutex>
#include <set>
#include <tuple>

#include "cuda/cuda_check.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/non_blocking_stream.hpp"

namespace spmv::detail {

namespace {

// Enough rows to meet the kernel's usual shapes, few enough entries to upload
// and build in well under a millisecond.
constexpr index_t sample_rows = 4096;
constexpr index_t sample_entries = index_t(1) << 16;
// No warm-up where the sample's x would take more (32 MiB in f64): the helper
// must not hold much memory while the upload allocates.
constexpr index_t max_sample_cols = index_t(1) << 22;

// The first rows of `a`, at most sample_entries entries (the last row cut
// short to fit), as wide as its largest column needs.
template <class T>
Csr<T> first_rows(const Csr<T>& a) {
  Csr<T> sample;
  sample.rows = std::min(a.rows, sample_rows);
  sample.row_ptr.resize(static_cast<std::size_t>(sample.rows) + 1);
  for (index_t r = 0; r <= sample.rows; ++r) sample.row_ptr[r] = std::min(a.row_ptr[r], sample_entries);
  const auto entries = static_cast<std::ptrdiff_t>(sample.row_ptr.back());
  sample.col_idx.assign(a.col_idx.begin(), a.col_idx.begin() + entries);
  sample.values.assign(a.values.begin(), a.values.begin() + entries);
  sample.cols = sample.col_idx.empty() ? 1 : *std::max_element(sample.col_idx.begin(), sample.col_idx.end()) + 1;
  return sample;
}

template <class X>
void copy_to(DeviceBuffer<X>& to, const std::vector<X>& from, cudaStream_t stream) {
  SPMV_CUDA_CHECK(cudaMemcpyAsync(to.data(), from.data(), to.bytes(), cudaMemcpyHostToDevice, stream));
}

// True the first time `kernel` is asked for in `value_bytes` on `device`.
bool first_time(const std::string& kernel, std::size_t value_bytes, int device) {
  static std::mutex mutex;
  static std::set<std::tuple<std::string, std::size_t, int>> seen;
  const std::lock_guard<std::mutex> lock(mutex);
  return seen.emplace(kernel, value_bytes, device).second;
}

}  // namespace

template <class T>
KernelWarmUp<T>::KernelWarmUp(const Csr<T>& a, const std::string& kernel, Run run) {
  int device = 0;
  SPMV_CUDA_CHECK(cudaGetDevice(&device));
  if (a.nnz() == 0 || !first_time(kernel, sizeof(T), device)) return;
  Csr<T> sample = first_rows(a);
  if (sample.cols > max_sample_cols) return;
  helper_ = std::thread([sample = std::move(sample), device, run = std::move(run)] {
    try {
      SPMV_CUDA_CHECK(cudaSetDevice(device));
      const NonBlockingStream stream;
      // Copied on the helper's stream, not through the upload path, whose
      // staging and default stream the real upload is using.
      DeviceCsr<T> on_device(sample.rows, sample.cols, sample.nnz());
      copy_to(on_device.row_ptr, sample.row_ptr, stream.get());
      copy_to(on_device.col_idx, sample.col_idx, stream.get());
      copy_to(on_device.values, sample.values, stream.get());
      run(on_device.view(), stream.get());
      SPMV_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    } catch (...) {  // the real build reports what goes wrong
    }
  });
}

template class KernelWarmUp<float>;
template class KernelWarmUp<double>;

}  // namespace spmv::detail
