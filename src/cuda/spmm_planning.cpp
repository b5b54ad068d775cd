#include "cuda/spmm_planning.hpp"

#include "cuda/cuda_check.hpp"

namespace spmv::detail {

PlanOptions spmm_planning_options(PlanOptions built_with, index_t k, Layout layout) {
  built_with.backend = Backend::cuda;  // the selector's candidates: ours and cuSPARSE's
  built_with.kernel.clear();
  built_with.params.clear();
  built_with.explicit_transpose = false;
  built_with.reordering = Reordering::none;
  built_with.target_device.reset();
  built_with.tuning = Tuning::model;
  built_with.spmm_columns = k;
  built_with.spmm_layout = layout;
  return built_with;
}

bool capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  SPMV_CUDA_CHECK(cudaStreamIsCapturing(stream, &status));
  return status != cudaStreamCaptureStatusNone;
}

}  // namespace spmv::detail
