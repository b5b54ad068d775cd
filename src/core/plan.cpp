// make_plan(): analyse once and choose; make_operator(): build what the plan
// names; plan(): both. The choice for the cuda backend is the selector's
// (src/select/); other backends and named kernels are taken as they are.
#include "spmv/plan.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <type_traits>

#include "core/backends.hpp"
#include "core/csr_checks.hpp"
#include "core/determinism.hpp"
#include "core/plan_cache.hpp"
#ifdef SPMV_HAVE_CUDA
#include "cuda/device_scope.hpp"
#include "cuda/uploaded_csr.hpp"
#endif
#include "core/paired_operator.hpp"
#include "core/permuted_operator.hpp"
#include "select/features.hpp"
#include "select/format_refusal.hpp"
#include "select/model.hpp"
#include "spmv/error.hpp"
#include "spmv/formats/footprint.hpp"
#include "spmv/stats.hpp"

namespace spmv {

namespace detail {
// A plan reads a host Csr or a CSR on the device (DeviceCsrView).
template <class Matrix>
struct MatrixValue;
template <class T>
struct MatrixValue<Csr<T>> {
  using type = T;
};
template <class T>
struct MatrixValue<DeviceCsrView<T>> {
  using type = T;
};
template <class T>
index_t nnz_of(const Csr<T>& a) {
  return a.nnz();
}
template <class T>
index_t nnz_of(const DeviceCsrView<T>& a) {
  return a.nnz;
}

template <class T>
std::unique_ptr<Operator<T>> build_operator(const Plan& plan, const Csr<T>& a);
template <class T>
std::unique_ptr<Operator<T>> build_operator(const Plan& plan, const DeviceCsrView<T>& a);
}  // namespace detail

std::vector<KernelInfo> kernel_catalogue() {
  std::vector<KernelInfo> all = detail::host_kernels();
#ifdef SPMV_HAVE_CUDA
  const std::vector<KernelInfo> gpu = detail::cuda_kernels();
  all.insert(all.end(), gpu.begin(), gpu.end());
#endif
  return all;
}

namespace {
// The catalogue is fixed for the process: built once for the plans, which
// consult it on every call (copying its strings cost more than a small
// matrix's analysis).
const std::vector<KernelInfo>& built_catalogue() {
  static const std::vector<KernelInfo> catalogue = kernel_catalogue();
  return catalogue;
}
}  // namespace

bool cuda_available() {
#ifdef SPMV_HAVE_CUDA
  return detail::cuda_device_present();
#else
  return false;
#endif
}

namespace {

using clock_type = std::chrono::steady_clock;
double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

template <class T>
const char* value_type_of() {
  return sizeof(T) == 4 ? "f32" : "f64";
}

const KernelInfo* find_kernel(const std::vector<KernelInfo>& catalogue, Backend backend, const std::string& name) {
  for (const KernelInfo& info : catalogue)
    if (info.backend == backend && info.name == name) return &info;
  return nullptr;
}

DeviceProperties device_to_plan_for(const PlanOptions& options) {
  if (options.target_device) return *options.target_device;
#ifdef SPMV_HAVE_CUDA
  if (detail::cuda_device_present()) {
    const detail::DeviceScope on_device(options.device);
    return detail::current_device_properties();
  }
#endif
  throw Unavailable("backend 'cuda' needs a CUDA device and none was found (or give PlanOptions::target_device "
                    "to plan for one)");
}

std::string milliseconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g ms", seconds * 1e3);
  return text;
}

// The selector's inputs: analyse() (the cheap parts) and the features.
struct MatrixDescription {
  MatrixStats stats;
  detail::SelectorFeatures features;
  std::uint64_t device_fingerprint = 0;  // of a matrix on the device: what its analysis read
};

template <class T>
MatrixStats analysed(const Csr<T>& a, int, std::uint64_t&) {
  return analyse(a, detail::selector_stats_options(a.nnz()));
}
// On `device`, which holds the matrix.
template <class T>
MatrixStats analysed(const DeviceCsrView<T>& a, int device, std::uint64_t& fingerprint) {
#ifdef SPMV_HAVE_CUDA
  const detail::DeviceScope on_device(device);
  return detail::analyse_on_device(a, detail::selector_stats_options(a.nnz), fingerprint);
#else
  (void)a;
  (void)device;
  (void)fingerprint;
  throw Unavailable("a matrix on the device needs the cuda backend, which is not in this build");
#endif
}

// The model's inputs, as the plan reports them.
void record_features(Plan& plan, const detail::SelectorFeatures& features) {
  plan.features.clear();
  for (std::size_t i = 0; i < features.names.size(); ++i)
    plan.features.emplace_back(features.names[i], features.values[i]);
}

template <class Matrix>
MatrixDescription describe_matrix(Plan& plan, const Matrix& a, const DeviceProperties& device) {
  using T = typename detail::MatrixValue<Matrix>::type;
  const auto analysis_start = clock_type::now();
  MatrixDescription d;
  d.stats = analysed(a, plan.options.device, d.device_fingerprint);
  plan.analysis_seconds = seconds_since(analysis_start);
  d.features = detail::selector_features(d.stats, sizeof(T), device);
  record_features(plan, d.features);
  return d;
}

// Whether the candidate's format accepts `a` as far as the plan checks
// (once; the reason of a refusal is kept in the candidate). Formats whose
// check needs every entry are left unchecked (refusal empty of a value):
// their device build decides, and build_planned() goes on to the next
// candidate when it refuses.
template <class T>
const Csr<T>* host_matrix(const Csr<T>& a) {
  return &a;
}
template <class T>
const Csr<T>* host_matrix(const DeviceCsrView<T>&) {
  return nullptr;
}

template <class Matrix>
bool accepts(PlanCandidate& c, const Matrix& a, const MatrixStats& stats, const DeviceProperties& device) {
  if (!c.refusal) {
    std::optional<std::string> refusal =
        detail::format_refusal(c.kernel, host_matrix(a), stats, GpuShape{device.multiprocessors});
    if (!refusal) return true;
    c.refusal = std::move(refusal);
  }
  return c.refusal->empty();
}

// The best-ranked accepting candidate (of cuSPARSE only, when asked), or null.
template <class Matrix>
PlanCandidate* first_accepted(Plan& plan, const Matrix& a, const MatrixStats& stats, bool cusparse_only) {
  for (PlanCandidate& c : plan.candidates)
    if ((!cusparse_only || c.backend == Backend::cusparse) && accepts(c, a, stats, *plan.device)) return &c;
  return nullptr;
}

// "; why" for every candidate checked and refused, best ranked first.
std::string refusals(const Plan& plan) {
  std::string text;
  for (const PlanCandidate& c : plan.candidates)
    if (c.refusal && !c.refusal->empty()) text += "; " + *c.refusal;
  return text;
}

std::string expected_products_text(const Plan& plan) {
  return std::to_string(static_cast<long long>(plan.expected_products));
}

void take(Plan& plan, const PlanCandidate& c) {
  plan.options.backend = c.backend;
  plan.options.kernel = c.kernel;
  plan.options.params = c.params;
  plan.format = c.format;
  plan.predicted_seconds = c.predicted_seconds;
  plan.predicted_setup_seconds = c.predicted_setup_seconds;
}

// The byte models' times at the device's copy bandwidth: what the model's
// predictions are multiples of, the CSR's for most kernels.
struct Rooflines {
  double csr_seconds = 0;
  double dense_seconds = 0;

  double of(detail::ByteModel model) const {
    return model == detail::ByteModel::dense ? dense_seconds : csr_seconds;
  }
};

// For a product of k columns (1: the SpMV) of a T matrix.
template <class T>
Rooflines rooflines_of(const Plan& plan, index_t k) {
  const double bandwidth = std::max(plan.device->copy_bandwidth_gbs, 1e-3) * 1e9;
  // At k = 1 the SpMM's byte model is the SpMV's (csr_product_bytes).
  return {detail::spmm_product_bytes(plan.rows, plan.cols, plan.nnz, sizeof(T), k) / bandwidth,
          detail::dense_product_bytes(plan.rows, plan.cols, sizeof(T), k) / bandwidth};
}

// Fills plan.candidates with the model's kernels, best predicted first, each
// predicted as a multiple of its byte model's roofline; returns the kernels
// of ours left out as unlike anything they were trained on.
std::string rank_candidates(Plan& plan, const detail::SelectorFeatures& features, const detail::SelectorModel& model,
                            const Rooflines& rooflines) {
  const std::vector<KernelInfo>& catalogue = built_catalogue();
  std::string unfamiliar;  // kernels of ours whose training never came near this matrix
  for (const detail::KernelModel& kernel : model.kernels) {
    const KernelInfo* info = find_kernel(catalogue, kernel.backend, kernel.kernel);
    if (!info) continue;                                       // not in this build
    if (!detail::admissible(*info, plan.options)) continue;  // deterministic mode: not deterministic
    if (kernel.backend != Backend::cusparse && !model.trained_near(kernel, features.values)) {
      unfamiliar += (unfamiliar.empty() ? "" : ", ") + kernel.kernel;
      continue;
    }
    PlanCandidate c;
    c.backend = kernel.backend;
    c.kernel = kernel.kernel;
    c.format = kernel.format;
    c.params = kernel.params;
    c.predicted_seconds = rooflines.of(kernel.byte_model) * std::exp2(kernel.predict_log2_slowdown(features.values));
    c.predicted_setup_seconds = kernel.setup_seconds_fixed + kernel.setup_seconds_per_nnz * plan.nnz;
    // Ranked by a pessimistic product time: an erratic kernel pays for its misses.
    c.predicted_cost_seconds = c.predicted_setup_seconds + plan.expected_products * c.predicted_seconds *
                                                               std::exp2(model.risk * kernel.uncertainty_log2);
    plan.candidates.push_back(std::move(c));
  }
  std::stable_sort(plan.candidates.begin(), plan.candidates.end(), [](const auto& x, const auto& y) {
    return x.predicted_cost_seconds < y.predicted_cost_seconds;
  });
  return unfamiliar;
}

// Names the best ranked candidate in plan.options. Candidates are checked for
// refusal in order until one is accepted, so only those ranked at or above
// the winner (and the best cuSPARSE one, for the vendor margin) are checked.
template <class Matrix>
void choose_candidate(Plan& plan, const Matrix& a, const MatrixStats& stats, const detail::SelectorModel& model,
                      const std::string& unfamiliar) {
  const auto selection_start = clock_type::now();
  PlanCandidate* chosen = first_accepted(plan, a, stats, false);
  if (!chosen) {
    plan.selection_seconds += seconds_since(selection_start);
    return;
  }
  std::string why = chosen->kernel + " has the least predicted setup + " +
                    expected_products_text(plan) + " x product";
  if (chosen->backend != Backend::cusparse) {
    PlanCandidate* vendor = first_accepted(plan, a, stats, true);
    if (vendor && chosen->predicted_cost_seconds > (1 - model.vendor_margin) * vendor->predicted_cost_seconds) {
      why = vendor->kernel + " (cuSPARSE) is predicted within " + std::to_string(int(100 * model.vendor_margin)) +
            "% of " + chosen->kernel + ", the least predicted setup + " +
            expected_products_text(plan) + " x product,";
      chosen = vendor;
    }
  }
  take(plan, *chosen);
  plan.reason = why + " (" + milliseconds(chosen->predicted_setup_seconds) + " + " +
                expected_products_text(plan) + " x " +
                milliseconds(chosen->predicted_seconds) + ") of " + std::to_string(plan.candidates.size()) +
                " candidates" + refusals(plan) +
                (unfamiliar.empty() ? "" : "; not trained on matrices like this one: " + unfamiliar);
  plan.selection_seconds += seconds_since(selection_start);
}

#ifdef SPMV_HAVE_CUDA
// The measure mode's cache file and this plan's entry in it.
struct PlanCacheEntry {
  detail::PlanCache file;
  std::string key;   // this matrix, device, value type and expected products
  std::string note;  // "; ignored N unreadable lines ..." once the file was read
};

// Tuning::measure, first step: takes the plan cache's choice for this matrix
// and device when there is one among the ranked candidates (no refusal checks:
// it was built before). Else returns false and notes any unreadable lines the
// cache had.
bool take_cached_choice(Plan& plan, PlanCacheEntry& cache) {
  const auto start = clock_type::now();
  if (cache.file.path().empty()) return false;
  const std::optional<detail::CachedChoice> cached = cache.file.find(cache.key);
  if (cache.file.corrupt_lines() > 0)
    cache.note = "; ignored " + std::to_string(cache.file.corrupt_lines()) +
                 " unreadable lines of the plan cache " + cache.file.path();
  plan.measurement_seconds = seconds_since(start);
  const auto in_plan = std::find_if(plan.candidates.begin(), plan.candidates.end(), [&](const PlanCandidate& c) {
    return cached && c.backend == cached->backend && c.kernel == cached->kernel;
  });
  if (in_plan == plan.candidates.end()) return false;
  in_plan->measured_seconds = cached->product_seconds;
  in_plan->measured_setup_seconds = cached->setup_seconds;
  take(plan, *in_plan);
  plan.tuning = "cached";
  plan.reason = in_plan->kernel + " was measured best for this matrix on this device before (" +
                milliseconds(cached->setup_seconds) + " setup + " +
                expected_products_text(plan) + " x " +
                milliseconds(cached->product_seconds) + "; plan cache " + cache.file.path() + ")" + cache.note;
  return true;
}

// The measure mode builds every candidate from one upload of a host matrix
// (a build from the device copies the CSR there, about 1% of an upload)
// rather than uploading it once per candidate. None for a matrix on the
// device, or when the device has no room for the extra copy.
template <class T>
std::optional<detail::UploadedCsr<T>> upload_for_measuring(const Csr<T>& a) {
  try {
    return std::optional<detail::UploadedCsr<T>>(std::in_place, a);
  } catch (const OutOfMemory&) {
    return std::nullopt;
  }
}
template <class T>
std::optional<detail::UploadedCsr<T>> upload_for_measuring(const DeviceCsrView<T>&) {
  return std::nullopt;
}

// One candidate built for measuring, and its setup as make_operator(plan, a)
// would take it: from the shared upload, that upload's time is added, so
// setups compare alike. A candidate without room beside the shared upload
// drops it, and it and the rest upload their own.
template <class T, class Matrix>
std::unique_ptr<Operator<T>> build_to_measure(const Plan& forced, const Matrix& a,
                                              std::optional<detail::UploadedCsr<T>>& uploaded, double& setup_seconds) {
  if (uploaded) {
    try {
      const auto start = clock_type::now();
      std::unique_ptr<Operator<T>> op = detail::build_operator(forced, uploaded->view());
      setup_seconds = uploaded->seconds() + seconds_since(start);
      return op;
    } catch (const OutOfMemory&) {
      uploaded.reset();
    }
  }
  const auto start = clock_type::now();
  std::unique_ptr<Operator<T>> op = detail::build_operator(forced, a);
  setup_seconds = seconds_since(start);
  return op;
}

// What the measure mode times for an SpMV plan: the model's top candidates
// and the best cuSPARSE one.
template <class Matrix>
std::vector<PlanCandidate*> best_candidates_to_measure(Plan& plan, const Matrix& a, const MatrixStats& stats) {
  std::vector<PlanCandidate*> to_measure;
  for (PlanCandidate& c : plan.candidates)
    if (static_cast<int>(to_measure.size()) < plan.options.measured_candidates && accepts(c, a, stats, *plan.device))
      to_measure.push_back(&c);
  PlanCandidate* vendor = first_accepted(plan, a, stats, true);
  if (vendor && std::find(to_measure.begin(), to_measure.end(), vendor) == to_measure.end())
    to_measure.push_back(vendor);
  return to_measure;
}

// Tuning::measure, second step: `to_measure` built and timed here (the
// product the plan is for: SpMV or SpMM), the winner (least measured setup +
// expected_products x product) cached.
template <class Matrix>
void measure_candidates(Plan& plan, const Matrix& a, const std::vector<PlanCandidate*>& to_measure,
                        PlanCacheEntry& cache) {
  using T = typename detail::MatrixValue<Matrix>::type;
  const auto start = clock_type::now();
  const std::string expected = expected_products_text(plan);
  constexpr int warmup = 2, runs = 5;
  std::optional<detail::UploadedCsr<T>> uploaded = upload_for_measuring(a);
  const bool from_one_upload = uploaded.has_value();
  PlanCandidate* best = nullptr;
  double best_cost = 0;
  for (PlanCandidate* c : to_measure) {
    Plan forced = plan;
    forced.options.backend = c->backend;
    forced.options.kernel = c->kernel;
    forced.options.params = c->params;
    std::unique_ptr<Operator<T>> op;
    double setup_seconds = 0;
    try {
      op = build_to_measure(forced, a, uploaded, setup_seconds);
    } catch (const FormatLimitError& e) {
      c->refusal = e.what();
      continue;
    } catch (const OutOfMemory& e) {
      c->refusal = e.what();
      continue;
    }
    c->measured_setup_seconds = setup_seconds;
    c->measured_seconds =
        detail::median_product_seconds(*op, warmup, runs, plan.options.spmm_columns, plan.options.spmm_layout);
    plan.measured_products += warmup + runs;
    const double cost = *c->measured_setup_seconds + plan.expected_products * *c->measured_seconds;
    if (!best || cost < best_cost) {
      best = c;
      best_cost = cost;
    }
  }
  const std::string uploads = !from_one_upload ? ""
                              : uploaded        ? "; built from one upload of the matrix, counted in each setup"
                                                : "; built from one upload until the device ran out of room";
  plan.measurement_seconds += seconds_since(start);
  if (!best) {
    plan.reason += "; no candidate could be built to measure, so this choice stands" + cache.note;
    return;
  }
  take(plan, *best);
  plan.tuning = "measured";
  plan.reason = best->kernel + " had the least measured setup + " + expected + " x product (" +
                milliseconds(*best->measured_setup_seconds) + " + " + expected + " x " +
                milliseconds(*best->measured_seconds) + ") of " + std::to_string(to_measure.size()) +
                " candidates built and timed" + uploads + refusals(plan) + cache.note;
  if (cache.file.path().empty()) return;
  try {
    cache.file.store(cache.key, {best->backend, best->kernel, *best->measured_seconds, *best->measured_setup_seconds});
  } catch (const IoError& e) {
    plan.reason += std::string("; not cached: ") + e.what();
  }
}
#endif

// What of validate() runs on the host before a plan or an operator: all of
// it, except for an operator on the GPU without reordering, whose upload
// checks the columns on the device (DeviceCsr); a host pass over every entry
// costs about as much as the upload. The plan's analysis checks the entries
// it reads.
template <class T>
void check_matrix(const Csr<T>& a, const PlanOptions& options) {
  const bool columns_on_device =
      (options.backend == Backend::cuda || options.backend == Backend::cusparse) &&
      options.reordering == Reordering::none;
  if (columns_on_device)
    detail::validate_row_pointers(a);
  else
    validate(a);
}

// A matrix on the device: checked there, for the backends that read it there.
template <class T>
void check_matrix(const DeviceCsrView<T>& a, const PlanOptions& options) {
  if (options.backend != Backend::cuda && options.backend != Backend::cusparse)
    throw InvalidArgument(std::string("a matrix on the device takes the cuda or cusparse backend, not '") +
                          to_string(options.backend) + "'");
  if (options.reordering != Reordering::none)
    throw InvalidArgument("a matrix on the device cannot be reordered (reordering " +
                          std::string(to_string(options.reordering)) + " reads it on the host)");
#ifdef SPMV_HAVE_CUDA
  if (!detail::cuda_device_present())
    throw Unavailable("a matrix on the device needs a CUDA device and none was found");
  const detail::DeviceScope on_device(options.device);
  detail::check_device_csr(a, options.device);
#else
  (void)a;
  throw Unavailable("a matrix on the device needs the cuda backend, which is not in this build");
#endif
}

// The product a plan is for and the model file that ranked it, in the cache
// key: an SpMM plan has its own entry for each k and layout, and a plan
// ranked by a model file (whose best candidates the measure mode times) one
// apart from the built-in model's.
std::string product_key(const Plan& plan) {
  std::string key;
  if (plan.options.spmm_columns > 0)
    key = " spmm " + std::to_string(plan.options.spmm_columns) + " " + to_string(plan.options.spmm_layout);
  if (!plan.selector_model.empty() && plan.selector_model != detail::builtin_model_name)
    key += " model " + plan.selector_model;
  return key;
}

template <class T>
std::string cache_key(const Csr<T>& a, const MatrixDescription&, const Plan& plan) {
  return detail::plan_cache_key(a, *plan.device, plan.expected_products) + product_key(plan);
}
template <class T>
std::string cache_key(const DeviceCsrView<T>&, const MatrixDescription& described, const Plan& plan) {
  return detail::plan_cache_key(described.device_fingerprint, described.stats, sizeof(T), *plan.device,
                                plan.expected_products) +
         product_key(plan);
}

// A plan for spmm() (PlanOptions::spmm_columns): the candidates are the SpMM
// kernels, ranked by the SpMM model (its features: the matrix's and the
// product's, k and the layout) as an SpMV plan's are by the selector's; the
// measure mode times every one of them. Without a model for this build's
// kernels the candidates are listed unranked and spmm() runs the backend's
// default SpMM.
template <class Matrix>
void plan_spmm(Plan& plan, const Matrix& a, const MatrixDescription& described) {
  using T = typename detail::MatrixValue<Matrix>::type;
  const index_t k = plan.options.spmm_columns;
  const std::string product = "SpMM of " + std::to_string(k) + " columns, " + to_string(plan.options.spmm_layout);
  const detail::SelectorFeatures features =
      detail::selector_spmm_features(described.stats, sizeof(T), *plan.device, k, plan.options.spmm_layout);
  record_features(plan, features);
  detail::PlanningModel model;
  std::string no_model;
  try {
    model = detail::planning_model(plan.options, detail::ModelProduct::spmm);
  } catch (const Unavailable& e) {
    no_model = e.what();
  }
  const auto ranking_start = clock_type::now();
  std::string unfamiliar;
  if (model.model) {
    unfamiliar = rank_candidates(plan, features, *model.model, rooflines_of<T>(plan, k));
    if (plan.candidates.empty()) no_model = "the SpMM model covers no SpMM kernel of this build";
  }
  plan.selection_seconds = seconds_since(ranking_start);
  if (plan.candidates.empty()) {
    for (const KernelInfo& info : built_catalogue())
      if (info.spmm_only && detail::admissible(info, plan.options)) {
        PlanCandidate c;
        c.backend = info.backend;
        c.kernel = info.name;
        c.format = info.format;
        plan.candidates.push_back(std::move(c));
      }
    plan.reason = no_model + ": spmm() runs the backend's default SpMM (tuning 'measure' times the " +
                  std::to_string(plan.candidates.size()) + " SpMM kernels for " + product + ")";
  } else {
    plan.tuning = "model";
    plan.selector_model = model.name;
    choose_candidate(plan, a, described.stats, *model.model, unfamiliar);
  }
#ifdef SPMV_HAVE_CUDA
  if (plan.options.tuning == Tuning::measure && !plan.candidates.empty()) {
    PlanCacheEntry cache{detail::PlanCache(detail::plan_cache_path(plan.options)), cache_key(a, described, plan),
                         {}};
    if (!take_cached_choice(plan, cache)) {
      std::vector<PlanCandidate*> every_candidate;
      for (PlanCandidate& c : plan.candidates) every_candidate.push_back(&c);
      const detail::DeviceScope on_device(plan.options.device);  // the timing events live there
      measure_candidates(plan, a, every_candidate, cache);
    }
  }
#endif
  if (plan.tuning != "default") plan.reason = product + ": " + plan.reason;
}

// The plan of the product `options` name, A's alone (see make_plan_of).
template <class Matrix>
Plan plan_product(const Matrix& a, const PlanOptions& options) {
  using T = typename detail::MatrixValue<Matrix>::type;
  check_matrix(a, options);
  if (!(options.expected_products >= 0))
    throw InvalidArgument("expected_products must be a number >= 0 (got " +
                          std::to_string(options.expected_products) + ")");
  if (options.tuning == Tuning::measure && options.target_device)
    throw InvalidArgument("tuning 'measure' times candidates on this machine's GPU: it takes no target_device");
  if (options.measured_candidates < 1)
    throw InvalidArgument("measured_candidates must be at least 1 (got " +
                          std::to_string(options.measured_candidates) + ")");
  if (options.spmm_columns < 0 || options.spmm_columns == 1)
    throw InvalidArgument("spmm_columns must be 0 (a plan for the SpMV) or at least 2 (got " +
                          std::to_string(options.spmm_columns) + ")");
  detail::check_deterministic_kernel(built_catalogue(), options);
  Plan plan;
  plan.options = options;
  plan.value_type = value_type_of<T>();
  plan.rows = a.rows;
  plan.cols = a.cols;
  plan.nnz = detail::nnz_of(a);
  plan.expected_products = options.expected_products;
  plan.tuning = "default";

  if (!options.kernel.empty()) {
    plan.tuning = "forced";
    const KernelInfo* info = find_kernel(built_catalogue(), options.backend, options.kernel);
    if (info) plan.format = info->format;  // else make_operator names the backend's kernels
    plan.reason = "the kernel was named in the options";
    return plan;
  }
  if (options.backend != Backend::cuda) {
    plan.reason = std::string("the ") + to_string(options.backend) + " backend's own choice";
    return plan;
  }
  if (options.reordering != Reordering::none) {
    plan.reason = "chosen on the reordered matrix when the operator is built";
    return plan;
  }
  if (!options.params.empty()) {
    plan.reason = "parameters without a kernel name apply to the backend's default kernel";
    return plan;
  }
  plan.device = device_to_plan_for(options);
  const MatrixDescription described = describe_matrix(plan, a, *plan.device);
  if (options.spmm_columns > 0) {
    plan_spmm(plan, a, described);
    return plan;
  }
  detail::PlanningModel model;
  try {
    model = detail::planning_model(options, detail::ModelProduct::spmv);
  } catch (const Unavailable& e) {  // a built-in model of other features: the backend's default, and why
    plan.reason = e.what();
    return plan;
  }
  plan.tuning = "model";
  plan.selector_model = model.name;
  const auto ranking_start = clock_type::now();
  const std::string unfamiliar =
      rank_candidates(plan, described.features, *model.model, rooflines_of<T>(plan, 1));
  plan.selection_seconds = seconds_since(ranking_start);
#ifdef SPMV_HAVE_CUDA
  std::optional<PlanCacheEntry> cache;
  if (options.tuning == Tuning::measure) {
    cache.emplace(PlanCacheEntry{detail::PlanCache(detail::plan_cache_path(options)), cache_key(a, described, plan),
                                 {}});
    if (take_cached_choice(plan, *cache)) return plan;
  }
#endif
  choose_candidate(plan, a, described.stats, *model.model, unfamiliar);
  if (plan.options.kernel.empty()) {
    plan.tuning = "default";
    plan.selector_model.clear();
    plan.reason = "the selector's model covers no kernel of this build";
  }
#ifdef SPMV_HAVE_CUDA
  if (cache && plan.tuning == "model") {
    const detail::DeviceScope on_device(options.device);  // the timing events live there
    measure_candidates(plan, a, best_candidates_to_measure(plan, a, described.stats), *cache);
  }
#endif
  return plan;
}

// Whether the plan chooses A^T's kernel apart from A's (PlanOptions::explicit_transpose).
bool plans_transposed(const PlanOptions& options) {
  return options.explicit_transpose && options.backend == Backend::cuda && options.kernel.empty() &&
         options.params.empty() && options.reordering == Reordering::none && !options.deterministic;
}

#ifdef SPMV_HAVE_CUDA
// A^T made on the current device: from an upload of a host matrix (freed
// once A^T is built), or from the matrix there.
template <class T>
detail::UploadedCsr<T> transposed_on_device(const Csr<T>& a) {
  const detail::UploadedCsr<T> uploaded(a);
  return detail::UploadedCsr<T>::transpose_of(uploaded.view());
}
template <class T>
detail::UploadedCsr<T> transposed_on_device(const DeviceCsrView<T>& a) {
  return detail::UploadedCsr<T>::transpose_of(a);
}
#endif

// The plan of A^T for `options`. A^T is made on the device where one is
// planned for (about an upload of A; analysed there as any matrix on the
// device), else on the host (a pass over every entry, tens of times the
// upload's time); its analysis_seconds include making it.
template <class Matrix>
Plan plan_of_transposed(const Matrix& a, const PlanOptions& options) {
  using T = typename detail::MatrixValue<Matrix>::type;
  constexpr bool on_device = std::is_same_v<Matrix, DeviceCsrView<T>>;
  const auto start = clock_type::now();
  const auto planned = [&](const auto& transposed) {
    const double transpose_seconds = seconds_since(start);
    Plan plan = plan_product(transposed, options);
    plan.analysis_seconds += transpose_seconds;
    return plan;
  };
#ifdef SPMV_HAVE_CUDA
  if (on_device || (!options.target_device && detail::cuda_device_present())) {
    const detail::DeviceScope scope(options.device);
    return planned(transposed_on_device(a).view());
  }
#endif
  if constexpr (on_device)
    throw Unavailable("a matrix on the device needs the cuda backend, which is not in this build");
  else
    return planned(transpose(a));
}

// A's plan and, with plans_transposed, A^T's beside it: the product of A^T
// alone (spmv_only), chosen from A^T's features as A's kernel is from A's.
template <class Matrix>
Plan make_plan_of(const Matrix& a, const PlanOptions& options) {
  if (!plans_transposed(options)) return plan_product(a, options);
  PlanOptions forward = options;
  forward.explicit_transpose = false;  // the operator of A stores no A^T of its own
  Plan plan = plan_product(a, forward);
  plan.options.explicit_transpose = true;
  PlanOptions of_transposed = forward;
  of_transposed.spmv_only = true;
  of_transposed.spmm_columns = 0;
  plan.transposed = std::make_shared<const Plan>(plan_of_transposed(a, of_transposed));
  return plan;
}

}  // namespace

template <class T>
Plan make_plan(const Csr<T>& a, const PlanOptions& options) {
  return make_plan_of(a, options);
}
template <class T>
Plan make_plan(const DeviceCsrView<T>& a, const PlanOptions& options) {
  return make_plan_of(a, options);
}

namespace detail {

template <class T>
std::unique_ptr<Operator<T>> build_operator(const Plan& plan, const DeviceCsrView<T>& a) {
  const PlanOptions& options = plan.options;
  check_deterministic_kernel(built_catalogue(), options);
#ifdef SPMV_HAVE_CUDA
  const DeviceScope on_device(options.device);
  return options.backend == Backend::cuda ? make_cuda_operator(a, options) : make_cusparse_operator(a, options);
#else
  (void)a;
  throw Unavailable("a matrix on the device needs the cuda backend, which is not in this build");
#endif
}

template <class T>
std::unique_ptr<Operator<T>> build_operator(const Plan& plan, const Csr<T>& a) {
  const PlanOptions& options = plan.options;
  check_deterministic_kernel(built_catalogue(), options);  // a plan read back from JSON, too
#ifdef SPMV_HAVE_CUDA
  // A cuda or cusparse operator is built on PlanOptions::device and keeps it.
  std::optional<DeviceScope> on_device;
  if ((options.backend == Backend::cuda || options.backend == Backend::cusparse) && cuda_device_present())
    on_device.emplace(options.device);
#endif
  if (options.reordering != Reordering::none) return make_reordered_operator(a, options);
  switch (options.backend) {
    case Backend::reference: return make_reference_operator(a, options);
    case Backend::cpu: return make_cpu_operator(a, options);
    case Backend::cuda:
    case Backend::cusparse:
#ifdef SPMV_HAVE_CUDA
      if (!cuda_device_present())
        throw Unavailable(std::string("backend '") + to_string(options.backend) +
                          "' needs a CUDA device and none was found");
      return options.backend == Backend::cuda ? make_cuda_operator(a, options)
                                              : make_cusparse_operator(a, options);
#else
      throw Unavailable(std::string("backend '") + to_string(options.backend) +
                        "' is not in this build (configured without CUDA)");
#endif
  }
  throw InvalidArgument("unknown backend");
}

}  // namespace detail

namespace {

// Builds the plan's kernel. When the selector chose it and its build refuses
// the matrix (a format the plan left to its build to check), the next ranked
// candidate not known to refuse it is built instead: what the operator
// describes is what was built.
template <class Matrix>
auto build_ranked(const Plan& plan, const Matrix& a) {
  if (plan.tuning != "model") return detail::build_operator(plan, a);
  Plan attempt = plan;
  auto next = std::find_if(plan.candidates.begin(), plan.candidates.end(), [&](const PlanCandidate& c) {
    return c.backend == plan.options.backend && c.kernel == plan.options.kernel;
  });
  for (;;) {
    try {
      return detail::build_operator(attempt, a);
    } catch (const FormatLimitError&) {
      if (next == plan.candidates.end()) throw;
      next = std::find_if(next + 1, plan.candidates.end(),
                          [](const PlanCandidate& c) { return !c.refusal || c.refusal->empty(); });
      if (next == plan.candidates.end()) throw;
      take(attempt, *next);
    }
  }
}

template <class Matrix>
using OperatorOf = std::unique_ptr<Operator<typename detail::MatrixValue<Matrix>::type>>;

template <class Matrix>
OperatorOf<Matrix> build_planned(const Plan& plan, const Matrix& a);

// The operator of a plan with A^T's beside it (Plan::transposed): A's, with
// no A^T of its own, and A^T's, built from an A^T made on the device (which
// its operator copies, so that A^T is briefly held twice), paired.
template <class Matrix>
OperatorOf<Matrix> build_paired(const Plan& plan, const Matrix& a) {
#ifdef SPMV_HAVE_CUDA
  const auto start = clock_type::now();
  OperatorOf<Matrix> transposed;
  {
    const detail::DeviceScope on_device(plan.options.device);
    const auto transposed_matrix = transposed_on_device(a);
    transposed = build_planned(*plan.transposed, transposed_matrix.view());
  }
  const double transposed_seconds = seconds_since(start);
  Plan forward = plan;
  forward.options.explicit_transpose = false;
  forward.transposed.reset();
  return detail::make_paired_operator(build_ranked(forward, a), std::move(transposed), transposed_seconds);
#else
  return build_ranked(plan, a);  // throws: the cuda backend is not in this build
#endif
}

// The built operator, bound to the stream the options name.
template <class Matrix>
OperatorOf<Matrix> build_planned(const Plan& plan, const Matrix& a) {
  OperatorOf<Matrix> op = plan.transposed ? build_paired(plan, a) : build_ranked(plan, a);
  op->set_stream(plan.options.stream);
  return op;
}

// Builds `plan`'s operator of `a`, after checking that `a` is the matrix
// (sizes) and value type the plan was made for.
template <class Matrix>
auto checked_operator(const Plan& plan, const Matrix& a) {
  using T = typename detail::MatrixValue<Matrix>::type;
  if (plan.value_type != value_type_of<T>())
    throw InvalidArgument("the plan was made for " + plan.value_type + " values, not " + value_type_of<T>());
  if (plan.rows != a.rows || plan.cols != a.cols || plan.nnz != detail::nnz_of(a))
    throw InvalidArgument("the plan was made for a " + std::to_string(plan.rows) + " x " +
                          std::to_string(plan.cols) + " matrix with " + std::to_string(plan.nnz) +
                          " non-zeros, not " + std::to_string(a.rows) + " x " + std::to_string(a.cols) +
                          " with " + std::to_string(detail::nnz_of(a)));
  check_matrix(a, plan.options);
  return build_planned(plan, a);
}

}  // namespace

template <class T>
std::unique_ptr<Operator<T>> make_operator(const Plan& plan, const Csr<T>& a) {
  return checked_operator(plan, a);
}
template <class T>
std::unique_ptr<Operator<T>> make_operator(const Plan& plan, const DeviceCsrView<T>& a) {
  return checked_operator(plan, a);
}

template <class T>
std::unique_ptr<Operator<T>> plan(const Csr<T>& a, const PlanOptions& options) {
  return build_planned(make_plan(a, options), a);  // make_plan checked `a`
}
template <class T>
std::unique_ptr<Operator<T>> plan(const DeviceCsrView<T>& a, const PlanOptions& options) {
  return build_planned(make_plan(a, options), a);  // make_plan checked `a`
}

#define SPMV_INSTANTIATE_PLAN(T)                                                             \
  template Plan make_plan(const Csr<T>&, const PlanOptions&);                                \
  template Plan make_plan(const DeviceCsrView<T>&, const PlanOptions&);                      \
  template std::unique_ptr<Operator<T>> make_operator(const Plan&, const Csr<T>&);           \
  template std::unique_ptr<Operator<T>> make_operator(const Plan&, const DeviceCsrView<T>&); \
  template std::unique_ptr<Operator<T>> plan(const Csr<T>&, const PlanOptions&);             \
  template std::unique_ptr<Operator<T>> plan(const DeviceCsrView<T>&, const PlanOptions&);
SPMV_INSTANTIATE_PLAN(float)
SPMV_INSTANTIATE_PLAN(double)
#undef SPMV_INSTANTIATE_PLAN

}  // namespace spmv
