// Internal: a host Csr uploaded once, for the measure mode to build every
// candidate it times from that one copy (make_plan, src/core/plan.cpp), or
// the A^T of a matrix on the device, built there for the plan and the
// operator of A^T (PlanOptions::explicit_transpose). No CUDA types here: core
// code uses it in CUDA builds.
#pragma once

#include <memory>

#include "spmv/matrix.hpp"

namespace spmv::detail {

template <class T>
class UploadedCsr {
 public:
  // Uploads `a` to the current device and checks its columns there, as an
  // operator's upload does; throws OutOfMemory (naming the bytes) without room.
  explicit UploadedCsr(const Csr<T>& a);
  ~UploadedCsr();
  UploadedCsr(UploadedCsr&&) noexcept;
  UploadedCsr& operator=(UploadedCsr&&) noexcept;

  // A^T of `a` (checked, on the current device), built on that device.
  static UploadedCsr transpose_of(const DeviceCsrView<T>& a);

  DeviceCsrView<T> view() const;
  // The upload and its check (or the transpose), waited for.
  double seconds() const { return seconds_; }

 private:
  UploadedCsr() = default;

  struct Arrays;
  std::unique_ptr<Arrays> arrays_;
  double seconds_ = 0;
};

}  // namespace spmv::detail
