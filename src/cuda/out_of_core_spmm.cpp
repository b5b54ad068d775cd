// Out-of-core SpMM: B and C through the device in chunks of L_GPU columns
// (Ortega et al. 2013, Algorithms 2 and 3); see include/spmv/spmm.hpp.
//
// Each chunk in flight owns a slot: a non-blocking stream, device buffers
// for its columns of B and C (packed: rows x L_GPU in the operands' layout),
// page-locked staging buffers when the operands are pageable, and events
// that time its copy in, kernel and copy out. Chunk i uses slot i mod S
// (S = 1 in the sequential schedule); before reusing a slot the host waits
// for its previous chunk, adds up that chunk's times and, for pageable C,
// copies its result out of the staging buffer.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <vector>

#include "core/backends.hpp"
#include "core/kernel_params.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_csr.hpp"
#include "cuda/non_blocking_stream.hpp"
#include "cuda/spmm_algorithm.hpp"
#include "spmv/error.hpp"
#include "spmv/spmm.hpp"

namespace spmv {

const char* to_string(ChunkSchedule schedule) {
  return schedule == ChunkSchedule::sequential ? "sequential" : "overlapped";
}

void PinnedDeleter::operator()(void* p) const noexcept { cudaFreeHost(p); }

void* allocate_pinned(std::size_t bytes) {
  return detail::pinned_allocate(bytes, "a pinned host array");
}

namespace {

using clock_type = std::chrono::steady_clock;
double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

bool is_pinned(const void* p) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return attributes.type == cudaMemoryTypeHost;
}

// Where columns [first, first + columns) of a rows x k operand lie, in
// values: `height` runs of `width` values, `pitch` apart, from `offset`. A
// column-major chunk is one run; a row-major chunk is one run per row.
struct Region {
  std::size_t offset;
  std::size_t width;
  std::size_t height;
  std::size_t pitch;
};
Region chunk_region(index_t rows, index_t k, Layout layout, index_t first, index_t columns) {
  if (layout == Layout::col_major) {
    const std::size_t values = static_cast<std::size_t>(rows) * columns;
    return {static_cast<std::size_t>(first) * rows, values, 1, values};
  }
  return {static_cast<std::size_t>(first), static_cast<std::size_t>(columns),
          static_cast<std::size_t>(rows), static_cast<std::size_t>(k)};
}

// Copies `region`'s runs between an operand (`pitch` apart) and a packed
// buffer (`width` apart), on the device's copy engines.
template <class T>
void copy_async(T* to, std::size_t to_pitch, const T* from, std::size_t from_pitch,
                const Region& region, cudaMemcpyKind kind, cudaStream_t stream) {
  if (region.width == 0 || region.height == 0) return;
  if (region.height == 1)
    SPMV_CUDA_CHECK(cudaMemcpyAsync(to, from, region.width * sizeof(T), kind, stream));
  else
    SPMV_CUDA_CHECK(cudaMemcpy2DAsync(to, to_pitch * sizeof(T), from, from_pitch * sizeof(T),
                                      region.width * sizeof(T), region.height, kind, stream));
}

// The same copy between host buffers, spread over the OpenMP threads.
template <class T>
void copy_on_host(T* to, std::size_t to_pitch, const T* from, std::size_t from_pitch,
                  const Region& region) {
  const std::int64_t height = static_cast<std::int64_t>(region.height);
  if (height == 1) {
    detail::parallel_copy(to, from, region.width * sizeof(T));
    return;
  }
#pragma omp parallel for
  for (std::int64_t r = 0; r < height; ++r)
    std::memcpy(to + r * to_pitch, from + r * from_pitch, region.width * sizeof(T));
}

class Event {
 public:
  Event() { SPMV_CUDA_CHECK(cudaEventCreate(&event_)); }
  ~Event() { cudaEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record(cudaStream_t stream) { SPMV_CUDA_CHECK(cudaEventRecord(event_, stream)); }
  // Seconds from `earlier` to this event; both must have completed.
  double seconds_after(const Event& earlier) const {
    float ms = 0;
    SPMV_CUDA_CHECK(cudaEventElapsedTime(&ms, earlier.event_, event_));
    return ms * 1e-3;
  }
  void wait() const { SPMV_CUDA_CHECK(cudaEventSynchronize(event_)); }

 private:
  cudaEvent_t event_{};
};

// One chunk in flight.
template <class T>
struct Slot {
  detail::NonBlockingStream stream;
  detail::DeviceBuffer<T> b;
  detail::DeviceBuffer<T> c;
  detail::PinnedBuffer<T> b_stage;  // pageable operands only
  detail::PinnedBuffer<T> c_stage;
  Event copy_in_start, kernel_start, kernel_end, copy_out_end;
  std::optional<index_t> chunk;  // the chunk in flight, if any
};

}  // namespace

template <class T>
class OutOfCoreSpmm<T>::Impl {
 public:
  Impl(const Csr<T>& a, index_t k, Layout layout, const OutOfCoreOptions& options)
      : rows_(a.rows), cols_(a.cols), k_(k), layout_(layout) {
    if (k < 0)
      throw InvalidArgument("out-of-core SpMM: k must not be negative (got " + std::to_string(k) +
                            ")");
    if (options.streams < 2)
      throw InvalidArgument("out-of-core SpMM: streams must be at least 2 (got " +
                            std::to_string(options.streams) + ")");
    if (options.chunk_columns < 0)
      throw InvalidArgument("out-of-core SpMM: chunk_columns must not be negative (got " +
                            std::to_string(options.chunk_columns) + ")");
    if (!detail::cuda_device_present())
      throw Unavailable("out-of-core SpMM needs a CUDA device and none was found");
    const std::string name = options.kernel.empty() ? detail::default_spmm_kernel : options.kernel;
    const detail::SpmmKernelEntry<T>* entry = detail::find_spmm_kernel<T>(name);
    if (!entry) {
      std::string list;
      for (const auto& e : detail::spmm_kernel_registry<T>())
        list += (list.empty() ? "" : ", ") + e.info.name;
      throw InvalidArgument("out-of-core SpMM: unknown SpMM kernel '" + name +
                            "' (SpMM kernels: " + list + ")");
    }
    detail::check_kernel_params(name, options.params, entry->info.params);
    csr_.emplace(a);
    algorithm_ = entry->make({csr_->view()}, options.params);
    description_.backend = Backend::cuda;
    description_.kernel = entry->info.name;
    description_.format = entry->info.format;
    description_.params = algorithm_->params();
    description_.matrix_bytes = algorithm_->matrix_bytes();
    description_.build_seconds = algorithm_->build_seconds();
    choose_chunks(options);
    for (int s = 0; s < options.streams; ++s) {
      auto& slot = slots_.emplace_back(std::make_unique<Slot<T>>());
      slot->b = detail::DeviceBuffer<T>(static_cast<std::size_t>(cols_) * chunk_columns_,
                                        "out-of-core chunk of B");
      slot->c = detail::DeviceBuffer<T>(static_cast<std::size_t>(rows_) * chunk_columns_,
                                        "out-of-core chunk of C");
    }
    description_.device_bytes = device_bytes();
  }

  OutOfCoreTimes multiply(const T* b, T* c, T alpha, T beta, ChunkSchedule schedule) {
    const auto start = clock_type::now();
    OutOfCoreTimes times;
    times.chunk_columns = chunk_columns_;
    times.chunks = chunks_;
    if (rows_ == 0 || chunks_ == 0) return times;
    const bool b_pinned = cols_ == 0 || is_pinned(b);
    const bool c_pinned = is_pinned(c);
    if (!b_pinned || !c_pinned) allocate_staging(times);
    const index_t in_flight =
        schedule == ChunkSchedule::overlapped ? static_cast<index_t>(slots_.size()) : 1;
    for (index_t chunk = 0; chunk < chunks_; ++chunk) {
      Slot<T>& slot = *slots_[chunk % in_flight];
      finish(slot, c, c_pinned, times);
      start_chunk(slot, chunk, b, c, b_pinned, c_pinned, alpha, beta, times);
    }
    for (auto& slot : slots_) finish(*slot, c, c_pinned, times);
    times.total_seconds = seconds_since(start);
    return times;
  }

  index_t chunk_columns() const { return chunk_columns_; }
  index_t chunks() const { return chunks_; }
  std::size_t device_bytes() const {
    std::size_t bytes = csr_->bytes() + algorithm_->device_bytes();
    for (const auto& slot : slots_) bytes += slot->b.bytes() + slot->c.bytes();
    return bytes;
  }
  OperatorDescription describe() const { return description_; }

 private:
  // L_GPU: the most columns whose buffers, one set per stream, fit in the
  // cap beside A, or the caller's choice if it fits.
  void choose_chunks(const OutOfCoreOptions& options) {
    const std::size_t matrix = csr_->bytes() + algorithm_->device_bytes();
    std::size_t cap = options.device_memory_cap;
    if (cap == 0) {
      std::size_t free_bytes = 0, total_bytes = 0;
      SPMV_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
      cap = matrix + free_bytes;  // A is already on the device
    }
    if (k_ == 0) return;
    // Device bytes of one column of B and C for every stream.
    const std::size_t per_column =
        (static_cast<std::size_t>(rows_) + cols_) * sizeof(T) * options.streams;
    const index_t wanted = options.chunk_columns;
    const index_t least = std::max<index_t>(1, wanted);
    const std::size_t needed = matrix + per_column * static_cast<std::size_t>(least);
    if (needed > cap)
      throw OutOfMemory(needed, cap,
                        "out-of-core SpMM within a device-memory cap of " + std::to_string(cap) +
                            " bytes (A: " + std::to_string(matrix) + " bytes, plus " +
                            std::to_string(least) + " column(s) of B and C for each of " +
                            std::to_string(options.streams) + " streams)");
    if (wanted > 0) {
      chunk_columns_ = std::min(wanted, k_);
    } else {
      const std::size_t fitting = (cap - matrix) / std::max<std::size_t>(per_column, 1);
      chunk_columns_ =
          static_cast<index_t>(std::min<std::size_t>(fitting, static_cast<std::size_t>(k_)));
      if (chunk_columns_ > 8 && chunk_columns_ < k_) chunk_columns_ -= chunk_columns_ % 8;
    }
    chunks_ = (k_ + chunk_columns_ - 1) / chunk_columns_;
  }

  void allocate_staging(OutOfCoreTimes& times) {
    if (slots_.front()->b_stage.size() > 0 || slots_.front()->c_stage.size() > 0) return;
    const auto start = clock_type::now();
    for (auto& slot : slots_) {
      slot->b_stage = detail::PinnedBuffer<T>(slot->b.size(), "out-of-core staging of B");
      slot->c_stage = detail::PinnedBuffer<T>(slot->c.size(), "out-of-core staging of C");
    }
    times.staging_seconds += seconds_since(start);
  }

  // Sends chunk `chunk` through `slot`: copy in, kernel, copy out.
  void start_chunk(Slot<T>& slot, index_t chunk, const T* b, T* c, bool b_pinned, bool c_pinned,
                   T alpha, T beta, OutOfCoreTimes& times) {
    const index_t first = chunk * chunk_columns_;
    const index_t columns = std::min(chunk_columns_, k_ - first);
    const Region b_region = chunk_region(cols_, k_, layout_, first, columns);
    const Region c_region = chunk_region(rows_, k_, layout_, first, columns);
    const cudaStream_t stream = slot.stream.get();
    slot.copy_in_start.record(stream);
    copy_in(slot.b.data(), b, b_region, b_pinned, slot.b_stage, stream, times);
    if (beta != T(0)) copy_in(slot.c.data(), c, c_region, c_pinned, slot.c_stage, stream, times);
    slot.kernel_start.record(stream);
    algorithm_->spmm(slot.b.data(), slot.c.data(), columns, layout_, alpha, beta, stream);
    slot.kernel_end.record(stream);
    if (c_pinned)
      copy_async(c + c_region.offset, c_region.pitch, slot.c.data(), c_region.width, c_region,
                 cudaMemcpyDeviceToHost, stream);
    else
      copy_async(slot.c_stage.data(), c_region.width, slot.c.data(), c_region.width, c_region,
                 cudaMemcpyDeviceToHost, stream);
    slot.copy_out_end.record(stream);
    slot.chunk = chunk;
  }

  // Copies a chunk of a host operand into `device`, through `stage` when
  // the operand is pageable.
  void copy_in(T* device, const T* host, const Region& region, bool pinned,
               detail::PinnedBuffer<T>& stage, cudaStream_t stream, OutOfCoreTimes& times) {
    if (pinned) {
      copy_async(device, region.width, host + region.offset, region.pitch, region,
                 cudaMemcpyHostToDevice, stream);
      return;
    }
    const auto start = clock_type::now();
    copy_on_host(stage.data(), region.width, host + region.offset, region.pitch, region);
    times.staging_seconds += seconds_since(start);
    copy_async(device, region.width, stage.data(), region.width, region, cudaMemcpyHostToDevice,
               stream);
  }

  // Waits for the slot's chunk in flight, if any, and adds up its times.
  void finish(Slot<T>& slot, T* c, bool c_pinned, OutOfCoreTimes& times) {
    if (!slot.chunk) return;
    slot.copy_out_end.wait();
    times.copy_in_seconds += slot.kernel_start.seconds_after(slot.copy_in_start);
    times.processing_seconds += slot.kernel_end.seconds_after(slot.kernel_start);
    times.copy_out_seconds += slot.copy_out_end.seconds_after(slot.kernel_end);
    if (!c_pinned) {
      const index_t first = *slot.chunk * chunk_columns_;
      const Region region =
          chunk_region(rows_, k_, layout_, first, std::min(chunk_columns_, k_ - first));
      const auto start = clock_type::now();
      copy_on_host(c + region.offset, region.pitch, slot.c_stage.data(), region.width, region);
      times.staging_seconds += seconds_since(start);
    }
    slot.chunk.reset();
  }

  index_t rows_;
  index_t cols_;
  index_t k_;
  Layout layout_;
  std::optional<detail::DeviceCsr<T>> csr_;
  std::unique_ptr<detail::SpmmAlgorithm<T>> algorithm_;
  index_t chunk_columns_ = 0;
  index_t chunks_ = 0;
  std::vector<std::unique_ptr<Slot<T>>> slots_;
  OperatorDescription description_;
};

template <class T>
OutOfCoreSpmm<T>::OutOfCoreSpmm(const Csr<T>& a, index_t k, Layout layout,
                                const OutOfCoreOptions& options)
    : impl_(std::make_unique<Impl>(a, k, layout, options)) {}
template <class T>
OutOfCoreSpmm<T>::~OutOfCoreSpmm() = default;
template <class T>
OutOfCoreTimes OutOfCoreSpmm<T>::multiply(const T* b, T* c, T alpha, T beta,
                                          ChunkSchedule schedule) {
  return impl_->multiply(b, c, alpha, beta, schedule);
}
template <class T>
index_t OutOfCoreSpmm<T>::chunk_columns() const {
  return impl_->chunk_columns();
}
template <class T>
index_t OutOfCoreSpmm<T>::chunks() const {
  return impl_->chunks();
}
template <class T>
std::size_t OutOfCoreSpmm<T>::device_bytes() const {
  return impl_->device_bytes();
}
template <class T>
OperatorDescription OutOfCoreSpmm<T>::describe() const {
  return impl_->describe();
}

template class OutOfCoreSpmm<float>;
template class OutOfCoreSpmm<double>;

}  // namespace spmv
