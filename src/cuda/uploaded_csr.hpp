// Internal: a host Csr uploaded once, for the measure mode to build every
// candidate it times from that one copy (make_plan, src/core/plan.cpp). No
// CUDA types here: core code uses it in CUDA builds.
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

  DeviceCsrView<T> view() const;
  // The upload and its check, waited for.
  double seconds() const { return seconds_; }

 private:
  struct Arrays;
  std::unique_ptr<Arrays> arrays_;
  double seconds_ = 0;
};

}  // namespace spmv::detail
