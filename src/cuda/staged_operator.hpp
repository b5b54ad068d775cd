// Base of the GPU operators: accepts device or host pointers.
//
// Everything runs on the operator's bound stream (Operator::stream()).
// Device pointers (cudaMalloc'd or managed) are used in place and the call is
// asynchronous: no synchronisation, no allocation (capturable in a CUDA
// Graph). Host operands are copied into staging buffers made at plan time on
// that stream, and the result is copied back before the call returns, which
// waits for that stream only; the copy time is reported by
// last_transfer_seconds(). The allocations after plan: SpMM on host
// operands grows its staging buffers to the largest k seen, and a cuda
// operator's first SpMM of each k and layout outside a graph capture plans
// that SpMM and builds what the plan names (cuda_operator.cpp).
//
// Device: the operator belongs to the device current when it was built
// (build_operator makes PlanOptions::device current for the build), and every
// product makes that device current for its duration (DeviceScope), so the
// caller's current device does not matter.
#pragma once

#include "cuda/device_buffer.hpp"
#include "spmv/operator.hpp"

namespace spmv::detail {

bool is_device_pointer(const void* p);

template <class T>
class StagedOperator : public Operator<T> {
 public:
  double last_transfer_seconds() const final { return transfer_seconds_; }

 protected:
  StagedOperator(index_t rows, index_t cols);
  void run_apply(const T* x, T* y, T alpha, T beta) final;
  void run_apply_transposed(const T* x, T* y, T alpha, T beta) final;
  void run_spmm(const T* b, T* c, index_t k, Layout layout, T alpha, T beta) final;
  cudaStream_t cuda_stream() const { return static_cast<cudaStream_t>(this->stream()); }
  int device() const { return device_; }
  // The products on device operands, queued on cuda_stream().
  virtual void device_apply(const T* x, T* y, T alpha, T beta) = 0;
  virtual void device_apply_transposed(const T* x, T* y, T alpha, T beta) = 0;
  virtual void device_spmm(const T* b, T* c, index_t k, Layout layout, T alpha, T beta) = 0;

 private:
  // Runs `product(in, out)` with device operands, staging host ones.
  template <class Product>
  void staged(const T* in, std::size_t in_size, T* out, std::size_t out_size, bool read_out,
              DeviceBuffer<T>& in_stage, DeviceBuffer<T>& out_stage, Product product);

  int device_;
  DeviceBuffer<T> input_stage_;
  DeviceBuffer<T> output_stage_;
  DeviceBuffer<T> spmm_input_stage_;
  DeviceBuffer<T> spmm_output_stage_;
  double transfer_seconds_ = 0;
};

}  // namespace spmv::detail
