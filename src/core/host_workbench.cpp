// The host workbench: operands in host vectors, std::chrono::steady_clock
// timing, and a cache flush (writing and reading a buffer larger than the
// last-level cache) before each timed run.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <string>

#include "core/workbench.hpp"

namespace spmv::detail {

namespace {

// Bytes of the last-level cache of CPU 0 as sysfs lists it (0 if unknown).
// sysfs rather than sysconf(_SC_LEVEL3_CACHE_SIZE): on the development VM
// the latter reports 384 MiB, the host's, where sysfs and lscpu say 32 MiB.
std::size_t last_level_cache_bytes() {
  int best_level = 0;
  std::size_t best_bytes = 0;
  for (int index = 0; index < 16; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    std::ifstream level_file(dir + "/level"), size_file(dir + "/size");
    int level = 0;
    std::size_t kib = 0;
    if (!(level_file >> level) || !(size_file >> kib)) continue;  // size reads as e.g. "32768K"
    if (level > best_level) {
      best_level = level;
      best_bytes = kib * 1024;
    }
  }
  return best_bytes;
}

// Twice the last-level cache, at least 64 MiB when the size is unknown or small.
std::size_t flush_buffer_bytes() {
  return std::max(std::size_t{64} << 20, 2 * last_level_cache_bytes());
}

template <class T>
class HostWorkbench final : public Workbench<T> {
 public:
  HostWorkbench(std::size_t input_size, std::size_t output_size)
      : input_(input_size), output_(output_size) {}

  void set_input(const std::vector<T>& x) override { input_ = x; }
  void set_output(const std::vector<T>& y) override { output_ = y; }
  std::vector<T> output() override { return output_; }
  const T* input() override { return input_.data(); }
  T* output_pointer() override { return output_.data(); }

  std::vector<double> time(const std::function<void()>& product, int warmup, int runs,
                           bool flush_caches) override {
    for (int i = 0; i < warmup; ++i) product();
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(std::max(runs, 0)));
    for (int i = 0; i < runs; ++i) {
      if (flush_caches) flush(static_cast<std::uint8_t>(i));
      const auto start = std::chrono::steady_clock::now();
      product();
      const auto stop = std::chrono::steady_clock::now();
      ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
    }
    return ms;
  }

 private:
  void flush(std::uint8_t value) {
    if (flush_buffer_.empty()) flush_buffer_.resize(flush_buffer_bytes());
    // Written by all OpenMP threads, so every core's caches are evicted.
    const std::ptrdiff_t bytes = static_cast<std::ptrdiff_t>(flush_buffer_.size());
    std::uint8_t* data = flush_buffer_.data();
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < bytes; ++i) data[i] = value;
    // Reading a line of the buffer back through a volatile keeps the stores.
    volatile std::uint8_t sink = flush_buffer_[flush_buffer_.size() / 2];
    (void)sink;
  }

  std::vector<T> input_;
  std::vector<T> output_;
  std::vector<std::uint8_t> flush_buffer_;  // made on the first flushed run
};

}  // namespace

template <class T>
std::unique_ptr<Workbench<T>> make_host_workbench(std::size_t input_size, std::size_t output_size) {
  return std::make_unique<HostWorkbench<T>>(input_size, output_size);
}

template std::unique_ptr<Workbench<float>> make_host_workbench(std::size_t, std::size_t);
template std::unique_ptr<Workbench<double>> make_host_workbench(std::size_t, std::size_t);

}  // namespace spmv::detail
