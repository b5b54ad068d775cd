#include "cuda/spmm_planning.hpp"

#include "cuda/cuda_check.hpp"

namespace spmv::detail {

template <class T>
Plan plan_operator_spmm(const DeviceCsrView<T>& csr, PlanOptions built_with, index_t k, Layout layout) {
  built_with.backend = Backend::cuda;
  built_with.kernel.clear();
  built_with.params.clear();
  built_with.explicit_transpose = false;
  built_with.reordering = Reordering::none;
  built_with.target_device.reset();
  built_with.tuning = Tuning::model;
  built_with.spmm_columns = k;
  built_with.spmm_layout = layout;
  return make_plan(csr, built_with);
}
template Plan plan_operator_spmm(const DeviceCsrView<float>&, PlanOptions, index_t, Layout);
template Plan plan_operator_spmm(const DeviceCsrView<double>&, PlanOptions, index_t, Layout);

bool capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  SPMV_CUDA_CHECK(cudaStreamIsCapturing(stream, &status));
  return status != cudaStreamCaptureStatusNone;
}

}  // namespace spmv::detail
