// Internal: operands kept where a backend computes, and timing with that
// backend's clock. `spmv bench` uses it so that one loop measures every
// backend the same way: poison the output, run once, verify, then time.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace spmv::detail {

struct DeviceInfo {
  std::string name;
  int multiprocessors = 0;
  std::size_t l2_bytes = 0;
  std::size_t memory_bytes = 0;
  int runtime_version = 0;   // CUDA runtime, e.g. 13000
  int driver_version = 0;
  int cusparse_version = 0;  // e.g. 12600 for 12.6.0
};

template <class T>
class Workbench {
 public:
  virtual ~Workbench() = default;
  // Copies values into the input / output operand (where the backend computes).
  virtual void set_input(const std::vector<T>& x) = 0;
  virtual void set_output(const std::vector<T>& y) = 0;
  // Copies the output operand back to the host.
  virtual std::vector<T> output() = 0;
  virtual const T* input() = 0;
  virtual T* output_pointer() = 0;
  // Runs `product` `warmup` times untimed, then `runs` times, each timed on
  // its own (device events on a GPU). With `flush_caches`, the last-level
  // cache is overwritten before each timed run, outside the timed region.
  // Returns the milliseconds of each timed run.
  virtual std::vector<double> time(const std::function<void()>& product, int warmup, int runs,
                                   bool flush_caches) = 0;
};

// Host memory, std::chrono timing (reference and cpu backends).
template <class T>
std::unique_ptr<Workbench<T>> make_host_workbench(std::size_t input_size, std::size_t output_size);

#ifdef SPMV_HAVE_CUDA
// Device memory, CUDA-event timing (cuda and cusparse backends).
template <class T>
std::unique_ptr<Workbench<T>> make_cuda_workbench(std::size_t input_size, std::size_t output_size);
DeviceInfo cuda_device_info();
// Device-to-device copy of `bytes`, median of several runs, counting bytes
// read plus bytes written: the practical ceiling for a memory-bound kernel.
double measure_copy_bandwidth_gbs(std::size_t bytes);
#endif

}  // namespace spmv::detail
