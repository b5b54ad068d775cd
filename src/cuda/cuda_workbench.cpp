// The device workbench: operands in device memory, CUDA-event timing, and an
// L2 flush (a memset larger than the L2) before each timed run.
#include <algorithm>

#include "core/workbench.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"

namespace spmv::detail {

namespace {

template <class T>
class CudaWorkbench final : public Workbench<T> {
 public:
  CudaWorkbench(std::size_t input_size, std::size_t output_size)
      : input_(std::max<std::size_t>(input_size, 1), "benchmark input"),
        output_(std::max<std::size_t>(output_size, 1), "benchmark output"),
        output_size_(output_size) {
    const std::size_t l2 = cuda_device_info().l2_bytes;
    flush_ = DeviceBuffer<char>(std::max<std::size_t>(2 * l2, 64u << 20), "L2 flush buffer");
    SPMV_CUDA_CHECK(cudaEventCreate(&start_));
    SPMV_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~CudaWorkbench() override {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }

  void set_input(const std::vector<T>& x) override { input_.upload(x.data(), x.size()); }
  void set_output(const std::vector<T>& y) override { output_.upload(y.data(), y.size()); }
  std::vector<T> output() override {
    std::vector<T> y(output_size_);
    output_.download(y.data(), output_size_);
    return y;
  }
  const T* input() override { return input_.data(); }
  T* output_pointer() override { return output_.data(); }

  std::vector<double> time(const std::function<void()>& product, int warmup, int runs,
                           bool flush_caches) override {
    for (int i = 0; i < warmup; ++i) product();
    SPMV_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> ms;
    ms.reserve(runs);
    for (int i = 0; i < runs; ++i) {
      if (flush_caches) SPMV_CUDA_CHECK(cudaMemsetAsync(flush_.data(), i & 0xff, flush_.bytes()));
      SPMV_CUDA_CHECK(cudaEventRecord(start_));
      product();
      SPMV_CUDA_CHECK(cudaEventRecord(stop_));
      SPMV_CUDA_CHECK(cudaEventSynchronize(stop_));
      float t = 0;
      SPMV_CUDA_CHECK(cudaEventElapsedTime(&t, start_, stop_));
      ms.push_back(t);
    }
    return ms;
  }

 private:
  DeviceBuffer<T> input_;
  DeviceBuffer<T> output_;
  std::size_t output_size_;
  DeviceBuffer<char> flush_;
  cudaEvent_t start_{};
  cudaEvent_t stop_{};
};

}  // namespace

template <class T>
std::unique_ptr<Workbench<T>> make_cuda_workbench(std::size_t input_size, std::size_t output_size) {
  return std::make_unique<CudaWorkbench<T>>(input_size, output_size);
}
template std::unique_ptr<Workbench<float>> make_cuda_workbench(std::size_t, std::size_t);
template std::unique_ptr<Workbench<double>> make_cuda_workbench(std::size_t, std::size_t);

}  // namespace spmv::detail
