// CG's vector work on the device (cg_workspace.hpp), three kernels per
// iteration besides the product, none waiting for the host: the step
// lengths and the state live in device memory (CgScalars), and a kernel
// whose solve has stopped returns at once.
// Work decomposition: one thread per entry in grid-stride loops, every
// vector read and written coalesced once per kernel:
//   curvature: p'q summed over the grid; its last block sets alpha or stops
//   update:    x += alpha p, r -= alpha q, sums |r|^2 and r'M^-1 r; its last
//              block records the residual, decides convergence, sets beta
//   direction: p = M^-1 r + beta p
// The grid is fixed by n (DeviceReducer), so the sums are deterministic.
#include <cmath>

#include "cuda/csr_algorithm.hpp"
#include "cuda/device_buffer.hpp"
#include "solvers/cg_workspace.hpp"
#include "solvers/device_reduction.cuh"
#include "solvers/device_vectors.hpp"

namespace spmv::detail {
namespace {

constexpr int block_size = DeviceReducer::block_size;

struct CgScalars {
  CgState state;
  int stop_iteration;
  double b_norm;
  double tolerance;
  double rz;  // r'M^-1 r of the current residual
  double alpha;
  double beta;
};

template <class T>
struct CgVectorsView {
  std::int64_t n;
  T* __restrict__ x;
  T* __restrict__ r;
  T* __restrict__ p;
  const T* __restrict__ q;
  const T* __restrict__ inverse_diagonal;  // null: no preconditioner
  CgScalars* scalars;
  double* history;

  // Entry i of z = M^-1 r, given r_i.
  __device__ T preconditioned(T r_i, std::int64_t i) const {
    return inverse_diagonal ? r_i * inverse_diagonal[i] : r_i;
  }
};

#define SPMV_CG_FOR_EACH_ENTRY(i, n)                                                     \
  for (std::int64_t i = std::int64_t(blockIdx.x) * block_size + threadIdx.x; i < (n); \
       i += std::int64_t(gridDim.x) * block_size)

// Called by thread 0 of the last block: records |r| / |b| and stops on
// convergence or a residual that is not finite.
__device__ void record_residual(CgScalars* s, double* history, double rr, int iteration) {
  const double norm = sqrt(rr);
  history[iteration] = norm / s->b_norm;
  if (!isfinite(norm)) {
    s->state = CgState::not_finite;
    s->stop_iteration = iteration;
  } else if (norm <= s->tolerance * s->b_norm) {
    s->state = CgState::converged;
    s->stop_iteration = iteration;
  }
}

template <class T>
__global__ void cg_start_kernel(CgVectorsView<T> v, ReductionSlots slots) {
  double sums[2] = {0, 0};  // r'r, r'z
  SPMV_CG_FOR_EACH_ENTRY(i, v.n) {
    const T r = v.r[i], z = v.preconditioned(r, i);
    v.p[i] = z;
    sums[0] += double(r) * double(r);
    sums[1] += double(r) * double(z);
  }
  double totals[2];
  if (grid_sums<block_size>(sums, slots, totals) && threadIdx.x == 0) {
    v.scalars->rz = totals[1];
    record_residual(v.scalars, v.history, totals[0], 0);
  }
}

template <class T>
__global__ void cg_curvature_kernel(CgVectorsView<T> v, ReductionSlots slots, int iteration) {
  if (v.scalars->state != CgState::running) return;  // uniform over the grid
  double sums[1] = {0};
  SPMV_CG_FOR_EACH_ENTRY(i, v.n) sums[0] += double(v.p[i]) * double(v.q[i]);
  double totals[1];
  if (grid_sums<block_size>(sums, slots, totals) && threadIdx.x == 0) {
    CgScalars* s = v.scalars;
    if (totals[0] > 0) {
      s->alpha = s->rz / totals[0];
    } else {
      s->state = isnan(totals[0]) ? CgState::not_finite : CgState::breakdown;
      s->stop_iteration = iteration;
    }
  }
}

template <class T>
__global__ void cg_update_kernel(CgVectorsView<T> v, ReductionSlots slots, int iteration) {
  if (v.scalars->state != CgState::running) return;
  const T alpha = T(v.scalars->alpha);
  double sums[2] = {0, 0};  // r'r, r'z
  SPMV_CG_FOR_EACH_ENTRY(i, v.n) {
    v.x[i] += alpha * v.p[i];
    const T r = v.r[i] - alpha * v.q[i];
    v.r[i] = r;
    sums[0] += double(r) * double(r);
    sums[1] += double(r) * double(v.preconditioned(r, i));
  }
  double totals[2];
  if (grid_sums<block_size>(sums, slots, totals) && threadIdx.x == 0) {
    CgScalars* s = v.scalars;
    s->beta = totals[1] / s->rz;
    s->rz = totals[1];
    record_residual(s, v.history, totals[0], iteration);
  }
}

template <class T>
__global__ void cg_direction_kernel(CgVectorsView<T> v) {
  if (v.scalars->state != CgState::running) return;
  const T beta = T(v.scalars->beta);
  SPMV_CG_FOR_EACH_ENTRY(i, v.n) v.p[i] = v.preconditioned(v.r[i], i) + beta * v.p[i];
}

#undef SPMV_CG_FOR_EACH_ENTRY

template <class T>
class DeviceCgWorkspace final : public CgWorkspace<T> {
 public:
  DeviceCgWorkspace(index_t n, const std::vector<T>& inverse_diagonal, double b_norm, double tolerance,
                    int max_iterations, cudaStream_t stream)
      : n_(n), stream_(stream), reducer_(2, stream), x_(n, "CG solution"), r_(n, "CG residual"),
        p_(n, "CG direction"), q_(n, "CG product"), inverse_diagonal_(inverse_diagonal.size(), "Jacobi inverse diagonal"),
        scalars_(1, "CG scalars"), history_(static_cast<std::size_t>(max_iterations) + 1, "CG residual history") {
    if (!inverse_diagonal.empty()) inverse_diagonal_.upload(inverse_diagonal.data(), inverse_diagonal.size());
    CgScalars initial{CgState::running, 0, b_norm, tolerance, 0, 0, 0};
    SPMV_CUDA_CHECK(cudaMemcpyAsync(scalars_.data(), &initial, sizeof initial, cudaMemcpyHostToDevice, stream_));
    SPMV_CUDA_CHECK(cudaStreamSynchronize(stream_));  // `initial` is on this stack
  }

  T* solution() override { return x_.data(); }
  T* residual() override { return r_.data(); }
  T* direction() override { return p_.data(); }
  T* product() override { return q_.data(); }

  void load(const T* b, const T* x0) override {
    r_.upload(b, static_cast<std::size_t>(n_));
    x_.upload(x0, static_cast<std::size_t>(n_));
  }

  void start() override {
    cg_start_kernel<<<grid(), block_size, 0, stream_>>>(view(), reducer_.slots());
    SPMV_LAUNCH_CHECK();
  }

  void step(int iteration) override {
    cg_curvature_kernel<<<grid(), block_size, 0, stream_>>>(view(), reducer_.slots(), iteration);
    SPMV_LAUNCH_CHECK();
    cg_update_kernel<<<grid(), block_size, 0, stream_>>>(view(), reducer_.slots(), iteration);
    SPMV_LAUNCH_CHECK();
  }

  void next_direction() override {
    cg_direction_kernel<<<grid(), block_size, 0, stream_>>>(view());
    SPMV_LAUNCH_CHECK();
  }

  CgStatus status() override {
    const CgScalars s = read_device_value(scalars_.data(), stream_);
    return {s.state, s.stop_iteration};
  }

  std::vector<double> residual_history(int last_iteration) override {
    std::vector<double> history(static_cast<std::size_t>(last_iteration) + 1);
    SPMV_CUDA_CHECK(cudaMemcpyAsync(history.data(), history_.data(), history.size() * sizeof(double),
                                    cudaMemcpyDeviceToHost, stream_));
    SPMV_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return history;
  }

  void store_solution(T* x) override {
    SPMV_CUDA_CHECK(cudaMemcpyAsync(x, x_.data(), n_ * sizeof(T), cudaMemcpyDeviceToHost, stream_));
    SPMV_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

 private:
  unsigned grid() const { return reducer_.grid_for(n_); }
  CgVectorsView<T> view() {
    return {n_, x_.data(), r_.data(), p_.data(), q_.data(),
            inverse_diagonal_.size() ? inverse_diagonal_.data() : nullptr, scalars_.data(), history_.data()};
  }

  index_t n_;
  cudaStream_t stream_;
  DeviceReducer reducer_;
  DeviceBuffer<T> x_, r_, p_, q_, inverse_diagonal_;
  DeviceBuffer<CgScalars> scalars_;
  DeviceBuffer<double> history_;
};

}  // namespace

template <class T>
std::unique_ptr<CgWorkspace<T>> make_device_cg_workspace(index_t n, const std::vector<T>& inverse_diagonal,
                                                         double b_norm, double tolerance, int max_iterations,
                                                         void* stream) {
  return std::make_unique<DeviceCgWorkspace<T>>(n, inverse_diagonal, b_norm, tolerance, max_iterations,
                                                static_cast<cudaStream_t>(stream));
}

template std::unique_ptr<CgWorkspace<float>> make_device_cg_workspace(index_t, const std::vector<float>&, double,
                                                                      double, int, void*);
template std::unique_ptr<CgWorkspace<double>> make_device_cg_workspace(index_t, const std::vector<double>&,
                                                                       double, double, int, void*);

}  // namespace spmv::detail
