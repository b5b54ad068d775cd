#include "cuda/staged_operator.hpp"

#include <algorithm>
#include <chrono>
#include <string>

#include "cuda/device_scope.hpp"
#include "spmv/error.hpp"

namespace spmv::detail {

bool is_device_pointer(const void* p) {
  if (p == nullptr) return false;
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged;
}

template <class T>
StagedOperator<T>::StagedOperator(index_t rows, index_t cols)
    : Operator<T>(rows, cols),
      device_(current_device()),
      input_stage_(std::max(rows, cols), "host-operand staging (input)"),
      output_stage_(std::max(rows, cols), "host-operand staging (output)") {}

template <class T>
template <class Product>
void StagedOperator<T>::staged(const T* in, std::size_t in_size, T* out, std::size_t out_size,
                               bool read_out, DeviceBuffer<T>& in_stage,
                               DeviceBuffer<T>& out_stage, Product product) {
  const bool in_on_device = is_device_pointer(in) || in_size == 0;
  const bool out_on_device = is_device_pointer(out) || out_size == 0;
  if (in_on_device && out_on_device) {
    transfer_seconds_ = 0;
    product(in, out);
    return;
  }
  // Each group of copies is timed to the end of the stream's work so far, as
  // the synchronous copies of the legacy stream would be.
  using clock = std::chrono::steady_clock;
  const cudaStream_t stream = cuda_stream();
  auto copy = [&](void* to, const void* from, std::size_t count, cudaMemcpyKind kind) {
    SPMV_CUDA_CHECK(cudaMemcpyAsync(to, from, count * sizeof(T), kind, stream));
  };
  auto seconds_to_drain = [&](clock::time_point start) {
    SPMV_CUDA_CHECK(cudaStreamSynchronize(stream));
    return std::chrono::duration<double>(clock::now() - start).count();
  };
  double seconds = 0;
  const T* device_in = in;
  T* device_out = out;
  const auto copy_in_start = clock::now();
  if (!in_on_device) {
    copy(in_stage.data(), in, in_size, cudaMemcpyHostToDevice);
    device_in = in_stage.data();
  }
  if (!out_on_device) {
    if (read_out) copy(out_stage.data(), out, out_size, cudaMemcpyHostToDevice);
    device_out = out_stage.data();
  }
  seconds += seconds_to_drain(copy_in_start);
  product(device_in, device_out);
  SPMV_CUDA_CHECK(cudaStreamSynchronize(stream));  // the product: not a transfer
  if (!out_on_device) {
    const auto copy_out_start = clock::now();
    copy(out, out_stage.data(), out_size, cudaMemcpyDeviceToHost);
    seconds += seconds_to_drain(copy_out_start);
  }
  transfer_seconds_ = seconds;
}

template <class T>
void StagedOperator<T>::run_apply(const T* x, T* y, T alpha, T beta) {
  const DeviceScope on_device(device_);
  staged(x, this->cols(), y, this->rows(), beta != T(0), input_stage_, output_stage_,
         [&](const T* dx, T* dy) { device_apply(dx, dy, alpha, beta); });
}

template <class T>
void StagedOperator<T>::run_apply_transposed(const T* x, T* y, T alpha, T beta) {
  const DeviceScope on_device(device_);
  staged(x, this->rows(), y, this->cols(), beta != T(0), input_stage_, output_stage_,
         [&](const T* dx, T* dy) { device_apply_transposed(dx, dy, alpha, beta); });
}

template <class T>
void StagedOperator<T>::run_spmm(const T* b, T* c, index_t k, Layout layout, T alpha, T beta) {
  if (k < 0) throw InvalidArgument("spmm: k must not be negative (got " + std::to_string(k) + ")");
  const DeviceScope on_device(device_);
  const std::size_t b_size = static_cast<std::size_t>(this->cols()) * k;
  const std::size_t c_size = static_cast<std::size_t>(this->rows()) * k;
  if (!is_device_pointer(b) && spmm_input_stage_.size() < b_size)
    spmm_input_stage_ = DeviceBuffer<T>(b_size, "host-operand staging (SpMM B)");
  if (!is_device_pointer(c) && spmm_output_stage_.size() < c_size)
    spmm_output_stage_ = DeviceBuffer<T>(c_size, "host-operand staging (SpMM C)");
  staged(b, b_size, c, c_size, beta != T(0), spmm_input_stage_, spmm_output_stage_,
         [&](const T* db, T* dc) { device_spmm(db, dc, k, layout, alpha, beta); });
}

template class StagedOperator<float>;
template class StagedOperator<double>;

}  // namespace spmv::detail
