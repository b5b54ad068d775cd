// The ELLR-T configuration model against a search (issue 4): for each
// generated matrix, times the ellr-t kernel for every threads_per_row T in
// {1, 2, ..., 32} and block size BS in {64, 128, 256, 512}, then compares the
// model's (T, BS) with the fastest one found.
//
// Each configuration is planned on device operands, verified once against
// the reference (output poisoned with NaN), then timed with CUDA events:
// 5 warm-up runs, the median of 20 runs, the L2 overwritten before each
// timed run. Prints one line per matrix and exits non-zero when the model's
// time is more than 10% above the best (the target) or a result is
// wrong. Configurations whose padding the format refuses are skipped.
//
// Usage: bench_ellrt_model [f32|f64] [SPEC...]   (default: f64 and the specs below)
#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "spmv/error.hpp"
#include "spmv/formats/ellpack_r.hpp"
#include "spmv/gen.hpp"
#include "spmv/operator.hpp"
#include "spmv/reference.hpp"
#include "spmv/verify.hpp"

#ifdef SPMV_HAVE_CUDA
#include <cuda_runtime.h>

namespace {

constexpr double target_ratio = 1.10;  // model within 10% of the best
constexpr int warmup_runs = 5;
constexpr int timed_runs = 20;

// Sizes that fill an 80 GB GPU many times beyond its 50 MB L2 (0.3-1 GB in fp64)
// with the row-length distributions ELLR-T is meant for.
const std::vector<std::string> default_specs = {
    "stencil27:n=120",         "stencil7:n=200",         "uniform:rows=4000000,cols=4000000,per_row=16",
    "blockfem:n=60,block=4",   "banded:rows=8000000,lower=2,upper=2",
    "uniform:rows=200000,cols=200000,per_row=200",  // few rows per SM: larger T wins
};

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    fmt::print(stderr, "bench_ellrt_model: {}: {}\n", what, cudaGetErrorString(status));
    std::exit(2);
  }
}

// Non-periodic values in [-1, -0.1] U [0.1, 1].
template <class T>
std::vector<T> random_vector(std::size_t n) {
  std::mt19937_64 rng(42);
  std::vector<T> v(n);
  for (T& value : v) {
    const double magnitude = 0.1 + 0.9 * static_cast<double>(rng() >> 11) / 9007199254740992.0;
    value = static_cast<T>((rng() & 1) ? magnitude : -magnitude);
  }
  return v;
}

template <class T>
struct DeviceVector {
  T* data = nullptr;
  explicit DeviceVector(std::size_t n) { check(cudaMalloc(&data, std::max<std::size_t>(1, n) * sizeof(T)), "cudaMalloc"); }
  ~DeviceVector() { cudaFree(data); }
};

struct Timing {
  bool ok = false;  // planned, verified and timed
  double ms = 0;
};

template <class T>
class Search {
 public:
  explicit Search(const spmv::Csr<T>& a)
      : a_(a), x_(random_vector<T>(a.cols)), d_x_(a.cols), d_y_(a.rows), reference_(a.rows), scale_(a.rows) {
    check(cudaMemcpy(d_x_.data, x_.data(), x_.size() * sizeof(T), cudaMemcpyHostToDevice), "copy x");
    spmv::reference_spmv(a, x_.data(), static_cast<const T*>(nullptr), T(1), T(0), reference_.data(), scale_.data());
    int device = 0, l2 = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), "L2 size");
    flush_bytes_ = 2 * static_cast<std::size_t>(l2);
    check(cudaMalloc(&flush_, flush_bytes_), "cudaMalloc flush");
    check(cudaEventCreate(&start_), "event");
    check(cudaEventCreate(&stop_), "event");
  }
  ~Search() {
    cudaFree(flush_);
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }

  Timing time(int threads_per_row, int block_size) {
    spmv::PlanOptions options;
    options.backend = spmv::Backend::cuda;
    options.kernel = "ellr-t";
    options.params = {{"threads_per_row", threads_per_row}, {"block_size", block_size}};
    options.spmv_only = true;
    std::unique_ptr<spmv::Operator<T>> op;
    try {
      op = spmv::plan(a_, options);
    } catch (const spmv::FormatLimitError&) {
      return {};
    }
    std::vector<T> y(a_.rows, std::numeric_limits<T>::quiet_NaN());
    check(cudaMemcpy(d_y_.data, y.data(), y.size() * sizeof(T), cudaMemcpyHostToDevice), "poison y");
    op->apply(d_x_.data, d_y_.data, T(1), T(0));
    check(cudaMemcpy(y.data(), d_y_.data, y.size() * sizeof(T), cudaMemcpyDeviceToHost), "copy y");
    const spmv::VerifyResult v = spmv::verify(y.data(), reference_.data(), scale_.data(), y.size(),
                                              spmv::default_tolerance_factor(longest_row()));
    if (!v.ok) {
      fmt::print("WRONG RESULT T={} BS={}: {}\n", threads_per_row, block_size, v.message);
      wrong_ = true;
      return {};
    }
    for (int i = 0; i < warmup_runs; ++i) op->apply(d_x_.data, d_y_.data, T(1), T(0));
    std::vector<double> ms;
    for (int i = 0; i < timed_runs; ++i) {
      check(cudaMemsetAsync(flush_, i, flush_bytes_), "flush L2");
      check(cudaEventRecord(start_), "record");
      op->apply(d_x_.data, d_y_.data, T(1), T(0));
      check(cudaEventRecord(stop_), "record");
      check(cudaEventSynchronize(stop_), "synchronize");
      float elapsed = 0;
      check(cudaEventElapsedTime(&elapsed, start_, stop_), "elapsed");
      ms.push_back(elapsed);
    }
    std::sort(ms.begin(), ms.end());
    return {true, ms[ms.size() / 2]};
  }
  bool wrong() const { return wrong_; }

 private:
  std::size_t longest_row() const {
    spmv::index_t longest = 0;
    for (spmv::index_t r = 0; r < a_.rows; ++r) longest = std::max(longest, a_.row_length(r));
    return longest;
  }

  const spmv::Csr<T>& a_;
  std::vector<T> x_;
  DeviceVector<T> d_x_;
  DeviceVector<T> d_y_;
  std::vector<double> reference_;
  std::vector<double> scale_;
  void* flush_ = nullptr;
  std::size_t flush_bytes_ = 0;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
  bool wrong_ = false;
};

spmv::GpuShape device_shape() {
  int device = 0;
  spmv::GpuShape shape;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&shape.multiprocessors, cudaDevAttrMultiProcessorCount, device), "SM count");
  check(cudaDeviceGetAttribute(&shape.threads_per_multiprocessor, cudaDevAttrMaxThreadsPerMultiProcessor, device),
        "threads per SM");
  return shape;
}

// One matrix: returns false when the target is missed or a result is wrong.
template <class T>
bool compare(const std::string& spec) {
  const spmv::Csr<T> a = spmv::cast<T>(spmv::generate(spmv::parse_generator_spec(spec)));
  std::vector<spmv::index_t> lengths(a.rows);
  for (spmv::index_t r = 0; r < a.rows; ++r) lengths[r] = a.row_length(r);
  const spmv::EllrtConfiguration model = spmv::ellrt_configuration(lengths, device_shape());
  Search<T> search(a);
  Timing best, chosen;
  int best_t = 0, best_bs = 0;
  for (int t = 1; t <= 32; t *= 2)
    for (int bs : {64, 128, 256, 512}) {
      const Timing timing = search.time(t, bs);
      if (timing.ok && (!best.ok || timing.ms < best.ms)) {
        best = timing;
        best_t = t;
        best_bs = bs;
      }
      if (t == model.threads_per_row && bs == model.block_size) chosen = timing;
    }
  if (!chosen.ok) chosen = search.time(model.threads_per_row, model.block_size);  // a BS outside the grid
  const bool within = best.ok && chosen.ok && chosen.ms <= target_ratio * best.ms;
  fmt::print("{:<48} rows {:>9} nnz {:>10}  best T={:<2} BS={:<4} {:8.4f} ms  model T={:<2} BS={:<4} {:8.4f} ms  {:5.2f}x {}\n",
             spec, a.rows, a.nnz(), best_t, best_bs, best.ms, model.threads_per_row, model.block_size, chosen.ms,
             best.ok && chosen.ok ? chosen.ms / best.ms : 0.0, within ? "ok" : "MISSED");
  return within && !search.wrong();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const bool single = !args.empty() && args.front() == "f32";
  if (!args.empty() && (args.front() == "f32" || args.front() == "f64")) args.erase(args.begin());
  const std::vector<std::string> specs = args.empty() ? default_specs : args;
  cudaDeviceProp props{};
  check(cudaGetDeviceProperties(&props, 0), "device properties");
  fmt::print("ELLR-T model vs search on {} ({}), {} runs median, target: model within {:.0f}% of the best\n",
             props.name, single ? "f32" : "f64", timed_runs, (target_ratio - 1) * 100);
  bool ok = true;
  for (const std::string& spec : specs) ok = (single ? compare<float>(spec) : compare<double>(spec)) && ok;
  return ok ? 0 : 1;
}

#else
int main() {
  fmt::print(stderr, "bench_ellrt_model needs a CUDA build\n");
  return 2;
}
#endif
