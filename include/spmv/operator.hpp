// The public operator API: plan once, apply many times.
//
//   auto op = spmv::plan(csr, {Backend::cuda});      // analyse, choose, build, upload
//   op->apply(x, y, 1.0, 0.0);                          // y = 1*A*x + 0*y
//
// An Operator owns its device data and workspace, created in plan(); apply
// never allocates. Pointers passed to a GPU operator may be device pointers or
// host pointers (host data is copied in and out through buffers made in plan();
// the copy time is reported by last_transfer_seconds()).
//
// Streams: a cuda or cusparse operator runs every product on its bound CUDA
// stream (PlanOptions::stream, Operator::set_stream). With device operands,
// apply, apply_transposed and spmm only queue work on that stream: they
// neither synchronise nor allocate, so they can be captured in a CUDA Graph.
// (One exception, outside a capture only: a cuda operator's first spmm() of
// each k and layout plans that SpMM and builds what the plan names; see
// PlanOptions::kernel.)
// With host operands the staging copies go on the same stream and the call
// waits for that stream alone before returning.
//
// Threads: different operators may be used from different threads at once.
// One operator must not be used by two threads at once (its staging buffers
// and workspace are shared): a call that finds the operator busy with another
// call throws InvalidArgument naming its kernel instead of racing.
#pragma once

#include <atomic>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "spmv/formats/bro_metrics.hpp"
#include "spmv/matrix.hpp"
#include "spmv/reorder.hpp"
#include "spmv/types.hpp"

namespace spmv {

// Integer tuning parameters of a kernel, e.g. {"threads_per_row", 8}.
using KernelParams = std::map<std::string, int>;

// One parameter of a kernel: the values plan() accepts for it (anything else
// is refused with InvalidArgument) and what it does.
struct KernelParamSpec {
  std::string name;           // e.g. "threads_per_row"
  std::vector<int> allowed;   // the accepted values; empty: any value in [min, max]
  int min = 1;
  int max = INT_MAX;
  std::string default_value;  // "256", or how it is chosen, e.g. "from the mean row length"
  std::string meaning;        // one line
};

// The accepted values of one parameter: "2|4|8", "64..1024" or "1..".
std::string allowed_text(const KernelParamSpec& spec);
// A kernel's parameters in one line, e.g. "threads_per_row=2|4|8|16|32 block_size=64..1024".
std::string params_text(const std::vector<KernelParamSpec>& params);

struct KernelInfo {
  std::string name;         // unique, e.g. "csr-vector"; what --kernels takes
  std::string format;       // storage format it reads, e.g. "csr"
  Backend backend;
  std::string summary;      // one line
  std::vector<KernelParamSpec> params;  // every parameter it takes
  bool transposed = false;  // implements apply_transposed without building A^T
  bool spmm = false;        // implements spmm natively (see PlanOptions::kernel for the rest)
  // An SpMM kernel (names "spmm-*", "cusparse-spmm-*"): spmm() runs it, and
  // apply() and apply_transposed() run the backend's default SpMV kernel.
  bool spmm_only = false;
  // Planned with PlanOptions::deterministic, its operator gives bitwise
  // identical results run to run (see there). Kernels without it are
  // refused in that mode.
  bool deterministic = false;
};

// Every kernel of this build (CUDA kernels are listed only in CUDA builds).
std::vector<KernelInfo> kernel_catalogue();

// What the selector needs to know of a device (plan.hpp). Read from the
// device at plan time unless PlanOptions::target_device gives it.
struct DeviceProperties {
  std::string name;
  int multiprocessors = 0;
  std::size_t l2_bytes = 0;
  double copy_bandwidth_gbs = 0;  // device-to-device copy, read + write, measured
};

// Products the plan expects a caller to run with one operator when none is
// said: the selector weighs a format's setup against this many products.
inline constexpr double default_expected_products = 100;

// A CUDA stream handed over without CUDA types: a cudaStream_t cast to void*.
// nullptr is the legacy default stream, as in CUDA.
using StreamHandle = void*;

// The calling thread's default stream (cudaStreamPerThread, 0x2 in
// driver_types.h): every operator's stream unless told otherwise. It orders
// with the legacy default stream, so a caller that reads y with a plain
// cudaMemcpy stays correct, and each thread gets a stream of its own.
inline StreamHandle per_thread_stream() { return reinterpret_cast<StreamHandle>(std::uintptr_t{2}); }

// How the plan chooses among candidates (see plan.hpp).
enum class Tuning {
  model,    // the trained model's prediction alone
  measure,  // the model's best few, built and timed on the device; the winner cached
};

struct PlanOptions {
  Backend backend = Backend::cpu;
  // Empty: the backend's choice (for cuda, the selector's: see plan.hpp, which
  // may answer with a cusparse kernel where that is predicted fastest). An SpMV kernel: apply() runs it and
  // spmm() the backend's SpMM (cuda: at the first spmm() of each k and layout
  // not captured in a CUDA graph, the operator plans that SpMM on its own CSR
  // as make_plan with spmm_columns = k would, the SpMM model choosing among
  // ours and cuSPARSE's, and builds and keeps what the plan names: it
  // allocates and waits for the device; a cuSPARSE choice holds a copy of the
  // CSR; spmm-csr-vec runs until then, in a capture, and with spmv_only; other backends
  // compute SpMM with their SpMV kernel's format). An SpMM kernel
  // (KernelInfo::spmm_only): spmm() runs it and apply() the default SpMV
  // kernel; `params` are then the SpMM kernel's. `spmv kernels` lists both.
  std::string kernel;
  KernelParams params;    // overrides of the named kernel's parameters
  // apply_transposed: true builds A^T once (more memory, fastest); false uses
  // the kernel's transposed product without storing A^T. With the cuda
  // backend and no kernel named, A^T gets a kernel of its own: the plan
  // chooses it as it chooses A's, from A^T's structure (Plan::transposed; the
  // rows of A^T are A's columns, so a tall narrow A has a few long rows
  // there), and the operator builds A^T on the device in that format. In
  // deterministic mode, with a kernel named or with a reordering, A^T is
  // stored in A's format and multiplied by A's kernel.
  bool explicit_transpose = false;
  // Operators of non-CSR formats keep a device CSR of A for apply_transposed
  // and spmm. true skips it (saving its memory); those calls then throw
  // Unavailable.
  bool spmv_only = false;
  int device = 0;         // CUDA device ordinal
  // The stream the operator's products run on (Operator::set_stream changes
  // it later). Host backends ignore it.
  StreamHandle stream = per_thread_stream();
  // A reordering computed at plan time (reorder.hpp): the backend's operator
  // is planned on A' = P A Q^T, and apply, apply_transposed and spmm move the
  // operands so that the caller's x, y, B and C stay in the original order.
  // Costs a gather and a scatter per product (none for a side that BAR
  // leaves in place: its columns) and two operand-sized buffers.
  Reordering reordering = Reordering::none;
  // The selector chooses the candidate with the least predicted
  // setup + expected_products * product time.
  double expected_products = default_expected_products;
  // The product the plan is for. 0: apply(), the SpMV. k >= 2: spmm() with k
  // columns of B and C in spmm_layout; with the cuda backend and no kernel
  // named, the candidates are then the SpMM kernels (`spmv kernels`: ours and
  // cuSPARSE's algorithms), ranked by the SpMM model (trained for k and the
  // layout as the SpMV's is for the matrix; Tuning::measure builds and times
  // every one). The chosen SpMM kernel then runs spmm() for any k, and
  // apply() the backend's default SpMV. An operator planned for the SpMV
  // plans its SpMM at the first spmm() of each k and layout (see `kernel`).
  index_t spmm_columns = 0;
  Layout spmm_layout = Layout::row_major;
  // The device to plan for; empty: the device `device`, read at plan time.
  // Lets a plan be made for another GPU, or where none is present.
  std::optional<DeviceProperties> target_device;
  // Tuning::measure (cuda backend, no kernel named): builds and times the
  // model's top measured_candidates and the best cuSPARSE candidate, keeps
  // the one of least measured setup + expected_products * product, and
  // remembers it in the plan cache so that the next plan of the same matrix
  // on the same device costs a look-up.
  Tuning tuning = Tuning::model;
  int measured_candidates = 3;
  // The cache file (JSON lines); empty: $SPMV_PLAN_CACHE, else
  // $XDG_CACHE_HOME/spmv/plans.jsonl, else ~/.cache/spmv/plans.jsonl.
  // A corrupt file is read past (its bad lines ignored, the plan's reason
  // says so); concurrent writers are safe.
  std::string plan_cache;
  // A selector model file (spmv-selector-model/2, as scripts/train-selector.sh
  // writes src/select/models/) to rank the candidates with instead of the
  // model built into the library: one trained on another GPU's
  // measurements, or a retrained model compared with the built-in one in the
  // same process. selector_model ranks the SpMV (and A^T's), spmm_selector_model
  // the SpMM plans (spmm_columns >= 2, and the operator's own at its first
  // spmm() of a k). Empty: $SPMV_SELECTOR_MODEL ($SPMV_SPMM_SELECTOR_MODEL),
  // else the built-in model. make_plan throws IoError for a file it cannot
  // read, ParseError for a malformed one and InvalidArgument for a model of
  // other features than this build computes. Plan::selector_model names the
  // model used.
  std::string selector_model;
  std::string spmm_selector_model;
  // Deterministic mode: apply, apply_transposed and spmm give bitwise
  // identical results from run to run, and on any stream, for the same
  // matrix, operands, alpha, beta, kernel, parameters and device (the cpu
  // backend: and thread count). Not promised across devices, builds or
  // library versions, nor between kernels.
  // - The plan considers only kernels whose KernelInfo::deterministic is set
  //   (`spmv kernels` lists them); a named kernel without it is refused with
  //   InvalidArgument. The cusparse backend's default becomes
  //   cusparse-csr-alg2 (CUSPARSE_SPMV_CSR_ALG2, documented as bitwise
  //   deterministic); its SpMM runs CUSPARSE_SPMM_CSR_ALG3 without its
  //   preprocessing step (with it, measured not bitwise repeatable).
  // - apply_transposed never accumulates with atomics: the operator builds
  //   A^T at plan time (as explicit_transpose does; format kernels multiply
  //   by a CSR copy of A^T) and runs a row-per-output product on it. With
  //   spmv_only, apply_transposed then throws Unavailable.
  // - Every sum of our kernels is formed in an order fixed by the matrix and
  //   the launch configuration alone (no atomics, no order of arrival); the
  //   solvers' dot products (cg.hpp) reduce in a fixed order too.
  bool deterministic = false;
};

struct OperatorDescription {
  Backend backend = Backend::cpu;
  std::string format;
  std::string kernel;
  KernelParams params;
  // When the plan chose A^T's kernel apart from A's
  // (PlanOptions::explicit_transpose): the description of the operator of
  // A^T that apply_transposed runs (its kernel, format, parameters and
  // matrix bytes); the figures below then count it too (its device bytes,
  // and building A^T and its operator in build_seconds). Null otherwise.
  std::shared_ptr<const OperatorDescription> transposed;
  // Bytes held on the device (0 for host backends); they grow when the first
  // spmm() of a k and layout builds what its SpMM plan names.
  std::size_t device_bytes = 0;
  // Compulsory bytes of the stored matrix (its arrays read once, padding
  // included): the matrix part of the byte model that GB/s figures use.
  std::size_t matrix_bytes = 0;
  double analysis_seconds = 0;
  // Building the format from the uploaded CSR (on the device), and the SpMM
  // plans and builds of the first spmm() of each k and layout.
  double build_seconds = 0;
  double upload_seconds = 0;     // host-to-device copies
  Reordering reordering = Reordering::none;  // PlanOptions::reordering
  double reorder_seconds = 0;                // computing it (not applying it)
  // How much the stored format compresses its index data (the BRO formats);
  // empty for formats that do not compress.
  std::optional<CompressionMetrics> index_compression;
  // What the first spmm() of each k and layout planned and spmm() runs since
  // (an operator planned for the SpMV: the cuda backend's, and the cusparse
  // backend's CSR kernels, which choose among cuSPARSE's algorithms), in the
  // order planned.
  struct PlannedSpmmKernel {
    index_t k = 0;
    Layout layout = Layout::row_major;
    std::string kernel;  // its name ("cuSPARSE's default" where the plan ranked no cuSPARSE algorithm)
  };
  std::vector<PlannedSpmmKernel> planned_spmm;
};

template <class T>
class Operator {
 public:
  virtual ~Operator() = default;
  Operator(const Operator&) = delete;
  Operator& operator=(const Operator&) = delete;

  index_t rows() const { return rows_; }
  index_t cols() const { return cols_; }

  // y = alpha * A * x + beta * y. x has cols() entries, y has rows().
  // With beta == 0, y is not read (NaN in y does not propagate).
  void apply(const T* x, T* y, T alpha = T(1), T beta = T(0)) {
    const InUse in_use(*this, "apply");
    run_apply(x, y, alpha, beta);
  }
  // y = alpha * A^T * x + beta * y. x has rows() entries, y has cols().
  void apply_transposed(const T* x, T* y, T alpha = T(1), T beta = T(0)) {
    const InUse in_use(*this, "apply_transposed");
    run_apply_transposed(x, y, alpha, beta);
  }
  // C = alpha * A * B + beta * C. B is cols() x k, C is rows() x k, both dense
  // with the given layout and no padding (leading dimension k or rows/cols).
  void spmm(const T* b, T* c, index_t k, Layout layout, T alpha = T(1), T beta = T(0)) {
    const InUse in_use(*this, "spmm");
    run_spmm(b, c, k, layout, alpha, beta);
  }

  virtual OperatorDescription describe() const = 0;
  // Seconds spent copying host operands in and out during the last call
  // (0 when the operands were already where the kernel runs).
  virtual double last_transfer_seconds() const { return 0; }

  // The CUDA stream of the products (see the top of this file); host
  // backends keep it and ignore it. Not to be changed during a product.
  virtual void set_stream(StreamHandle stream) { stream_ = stream; }
  StreamHandle stream() const { return stream_; }

 protected:
  Operator(index_t rows, index_t cols) : rows_(rows), cols_(cols) {}

  // The products, called with the operator claimed by the calling thread.
  virtual void run_apply(const T* x, T* y, T alpha, T beta) = 0;
  virtual void run_apply_transposed(const T* x, T* y, T alpha, T beta) = 0;
  virtual void run_spmm(const T* b, T* c, index_t k, Layout layout, T alpha, T beta) = 0;

 private:
  // Claims the operator for one call; throws when another call holds it.
  class InUse {
   public:
    InUse(Operator& op, const char* call) : busy_(op.busy_) {
      if (busy_.exchange(true, std::memory_order_acquire)) op.throw_busy(call);
    }
    ~InUse() { busy_.store(false, std::memory_order_release); }
    InUse(const InUse&) = delete;
    InUse& operator=(const InUse&) = delete;

   private:
    std::atomic<bool>& busy_;
  };
  [[noreturn]] void throw_busy(const char* call) const;

  index_t rows_;
  index_t cols_;
  StreamHandle stream_ = per_thread_stream();
  std::atomic<bool> busy_{false};
};

// make_operator(make_plan(a, options), a) (plan.hpp): analyses `a`, chooses
// (or takes the forced) kernel, builds and uploads.
// Throws Unavailable for a backend or kernel not in this build or machine,
// InvalidArgument for unknown kernel names or parameters, OutOfMemory when
// the device cannot hold the operator.
template <class T>
std::unique_ptr<Operator<T>> plan(const Csr<T>& a, const PlanOptions& options = {});
// The same for a matrix on the device (matrix.hpp): nothing is uploaded, and
// the matrix is not copied back (see make_plan in plan.hpp).
template <class T>
std::unique_ptr<Operator<T>> plan(const DeviceCsrView<T>& a, const PlanOptions& options);

// True when this build has the CUDA backend and a CUDA device is present.
bool cuda_available();

}  // namespace spmv
