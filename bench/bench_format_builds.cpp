// Setup cost of every SpMV kernel of the cuda and cusparse backends, and
// for the storage formats the host builder (src/formats/, the reference)
// against the device build the operator runs (issue 12).
//
// For each matrix and kernel: plan() with the kernel named (make_plan, then
// make_operator), whose description gives the upload and the device build;
// one product verified against the reference; the median of 20 products
// (CUDA events); then, for a format, its host build once. "setup/up" is
// make_plan + make_operator by the wall clock over the upload (cuSPARSE's
// setup: plan() by the wall clock, the second of the process). The first
// row is plan() with no kernel named, as a user calls it, with a line of where
// its time went and one of what choosing adds to plan() by the wall clock; the
// process's first plan, which reads the selector model and measures the
// device, is timed once before the matrices; and a line of the default plan
// of the same matrix handed over on the device. "payback" is the number of products
// after which our extra setup over cuSPARSE's default algorithm is repaid by
// faster products (- when ours is slower). JSON lines on stderr feed
// bench/refit_setup.py.
//
// Usage: bench_format_builds f32|f64 [--default-only] SPEC...   (SPEC as for `spmv gen`; --default-only:
// the default plan's row alone)
#include <cuda_runtime.h>
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/backends.hpp"
#include "core/workbench.hpp"
#include "core/row_source.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_fetcher.hpp"
#include "select/features.hpp"
#include "spmv/error.hpp"
#include "spmv/formats/blocked.hpp"
#include "spmv/formats/bro_coo.hpp"
#include "spmv/formats/bro_ell.hpp"
#include "spmv/formats/bro_hyb.hpp"
#include "spmv/formats/coo.hpp"
#include "spmv/formats/dia.hpp"
#include "spmv/formats/ell.hpp"
#include "spmv/formats/ellpack_r.hpp"
#include "spmv/formats/hyb.hpp"
#include "spmv/formats/segmented.hpp"
#include "spmv/formats/sell.hpp"
#include "spmv/gen.hpp"
#include "spmv/operator.hpp"
#include "spmv/plan.hpp"
#include "spmv/reference.hpp"
#include "spmv/verify.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

template <class T>
using HostBuild = std::function<void(const spmv::Csr<T>&, const spmv::KernelParams&)>;

int param(const spmv::KernelParams& params, const std::string& name, int fallback) {
  const auto it = params.find(name);
  return it == params.end() ? fallback : it->second;
}

// The host builder of each format kernel, with the parameters the kernel ran with.
template <class T>
std::map<std::string, HostBuild<T>> host_builders() {
  using spmv::Csr;
  using spmv::KernelParams;
  return {
      {"coo", [](const Csr<T>& a, const KernelParams&) { spmv::to_coo(a); }},
      {"ell", [](const Csr<T>& a, const KernelParams&) { spmv::ell_from_csr(a); }},
      {"ellr-t",
       [](const Csr<T>& a, const KernelParams& p) {
         spmv::ellpack_r_from_csr(a, {param(p, "threads_per_row", 1)});
       }},
      {"hyb", [](const Csr<T>& a, const KernelParams&) { spmv::hyb_from_csr(a); }},
      {"dia", [](const Csr<T>& a, const KernelParams&) { spmv::dia_from_csr(a); }},
      {"sell", [](const Csr<T>& a, const KernelParams&) { spmv::sell_from_csr(a); }},
      {"blocked", [](const Csr<T>& a, const KernelParams&) { spmv::blocked_from_csr(a); }},
      {"segmented-scan", [](const Csr<T>& a, const KernelParams&) { spmv::segmented_from_csr(a); }},
      {"bro-ell",
       [](const Csr<T>& a, const KernelParams& p) {
         spmv::BroEllOptions options;
         options.threads_per_row = param(p, "threads_per_row", 1);
         spmv::bro_ell_from_csr(a, options);
       }},
      {"bro-coo",
       [](const Csr<T>& a, const KernelParams& p) {
         spmv::bro_coo_from_csr(a, {param(p, "interval", spmv::bro_coo_default_interval)});
       }},
      {"bro-hyb", [](const Csr<T>& a, const KernelParams&) { spmv::bro_hyb_from_csr(a); }},
  };
}

// The SpMV kernels of the cuda and cusparse backends ("" first: the default
// choice, planned as a user plans it).
std::vector<spmv::KernelInfo> spmv_kernels() {
  std::vector<spmv::KernelInfo> kernels{{"", "", spmv::Backend::cuda, "", {}}};
  for (const spmv::KernelInfo& k : spmv::kernel_catalogue())
    if ((k.backend == spmv::Backend::cuda || k.backend == spmv::Backend::cusparse) && !k.spmm_only &&
        k.name != "dense-cublas")
      kernels.push_back(k);
  return kernels;
}

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

// One product on the device checked against the reference; throws when wrong.
template <class T>
void verify_product(spmv::Operator<T>& op, const spmv::Csr<T>& a, const std::string& kernel) {
  std::vector<T> x(static_cast<std::size_t>(a.cols));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<T>(1.0 + static_cast<double>(i % 7) / 8);
  std::vector<T> y(static_cast<std::size_t>(a.rows));
  op.apply(x.data(), y.data());
  std::vector<double> reference(y.size()), scale(y.size());
  spmv::reference_spmv(a, x.data(), static_cast<const T*>(nullptr), T(1), T(0), reference.data(), scale.data());
  const spmv::VerifyResult check = spmv::verify(y.data(), reference.data(), scale.data(), y.size());
  if (!check.ok) throw std::runtime_error(kernel + ": wrong product: " + check.message);
}

struct Timed {
  double setup_seconds = 0;
  double product_seconds = 0;
};

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// What choosing adds to a default plan() by the wall clock: plan() as a user
// calls it, against plan() with the chosen kernel named (the same upload and
// build, no analysis), five of each interleaved, medians. Each includes the
// operator's release (its cudaFree calls).
template <class T>
void print_choice_cost(const spmv::Csr<T>& a, const spmv::PlanOptions& options, const spmv::Plan& chosen,
                       double upload_seconds) {
  spmv::PlanOptions named = options;
  named.backend = chosen.options.backend;
  named.kernel = chosen.options.kernel;
  named.params = chosen.options.params;
  std::vector<double> by_default, by_name;
  for (int run = 0; run < 5; ++run) {
    for (const spmv::PlanOptions* o : {&options, static_cast<const spmv::PlanOptions*>(&named)}) {
      const auto start = clock_type::now();
      spmv::plan(a, *o).reset();
      (o == &options ? by_default : by_name).push_back(seconds_since(start));
    }
  }
  const double added = median(by_default) - median(by_name);
  fmt::print("  (plan(): {:.2f} ms; with {} named: {:.2f} ms; choosing adds {:.2f} ms = {:.1f}% of the upload)\n",
             median(by_default) * 1e3, named.kernel, median(by_name) * 1e3, added * 1e3,
             100 * added / upload_seconds);
}

// The device analysis's reads, timed one by one: where its time goes.
template <class T>
class TimedFetcher final : public spmv::detail::CsrFetcher<T> {
 public:
  explicit TimedFetcher(const spmv::detail::CsrView<T>& a) : inner_(a) {}
  spmv::index_t rows() const override { return inner_.rows(); }
  spmv::index_t cols() const override { return inner_.cols(); }
  spmv::index_t nnz() const override { return inner_.nnz(); }
  std::vector<spmv::index_t> row_pointers_every(spmv::index_t stride) override {
    return timed(every_seconds, [&] { return inner_.row_pointers_every(stride); });
  }
  std::vector<spmv::index_t> row_pointers(const std::vector<spmv::detail::RowRange>& ranges) override {
    return timed(pointers_seconds, [&] { return inner_.row_pointers(ranges); });
  }
  void entries(const std::vector<typename spmv::detail::CsrFetcher<T>::EntryRange>& ranges,
               std::vector<spmv::index_t>& col_idx, std::vector<T>& values) override {
    timed(entries_seconds, [&] {
      inner_.entries(ranges, col_idx, values);
      return 0;
    });
    entries_read += col_idx.size();
  }

  double every_seconds = 0, pointers_seconds = 0, entries_seconds = 0;
  std::size_t entries_read = 0;

 private:
  template <class F>
  static auto timed(double& seconds, const F& f) {
    const auto start = clock_type::now();
    auto result = f();
    seconds += seconds_since(start);
    return result;
  }
  spmv::detail::DeviceCsrFetcher<T> inner_;
};

// The default plan of the same matrix handed over on the device
// (DeviceCsrView): make_plan (its checks and analysis there) and
// make_operator (a device copy and the build), five of each, medians, and
// the same kernel chosen as from the host.
template <class T>
void print_device_plan_cost(const spmv::Csr<T>& a, const spmv::PlanOptions& options, const spmv::Plan& chosen,
                            double upload_seconds) {
  const spmv::detail::DeviceBuffer<spmv::index_t> row_ptr(a.row_ptr, "row_ptr"), col_idx(a.col_idx, "col_idx");
  const spmv::detail::DeviceBuffer<T> values(a.values, "values");
  const spmv::DeviceCsrView<T> view{a.rows, a.cols, a.nnz(), row_ptr.data(), col_idx.data(), values.data()};
  std::vector<double> planning, analysing, building;
  spmv::Plan on_device;
  for (int run = 0; run < 5; ++run) {
    const auto plan_start = clock_type::now();
    on_device = spmv::make_plan(view, options);
    planning.push_back(seconds_since(plan_start));
    analysing.push_back(on_device.analysis_seconds);
    const auto build_start = clock_type::now();
    spmv::make_operator(on_device, view).reset();
    building.push_back(seconds_since(build_start));
  }
  if (on_device.options.kernel != chosen.options.kernel)
    throw std::runtime_error("the plan from the device chose " + on_device.options.kernel + ", from the host " +
                             chosen.options.kernel);
  fmt::print("  (from a device CSR: make_plan {:.2f} ms (analysis {:.2f}), make_operator {:.2f} ms; the upload it "
             "saves: {:.2f} ms)\n",
             median(planning) * 1e3, median(analysing) * 1e3, median(building) * 1e3, upload_seconds * 1e3);
  TimedFetcher<T> timed(spmv::detail::view_of(view));
  const auto start = clock_type::now();
  spmv::detail::analyse_fetched(timed, spmv::detail::selector_stats_options(a.nnz()));
  const double total = seconds_since(start);
  const double reads = timed.every_seconds + timed.pointers_seconds + timed.entries_seconds;
  fmt::print("  (its analysis once more: {:.2f} ms = reads {:.2f} (every 1024th row {:.2f}, row pointers {:.2f}, {} "
             "entries {:.2f}) + the rest {:.2f})\n",
             total * 1e3, reads * 1e3, timed.every_seconds * 1e3, timed.pointers_seconds * 1e3, timed.entries_read,
             timed.entries_seconds * 1e3, (total - reads) * 1e3);
}

template <class T>
void run(const std::string& spec, const char* precision, bool default_only) {
  const spmv::Csr<T> a = spmv::cast<T>(spmv::generate(spmv::parse_generator_spec(spec)));
  spmv::PlanOptions vendor_options;
  vendor_options.backend = spmv::Backend::cusparse;
  // Planned twice, the second timed: the first plan of a process pins the
  // upload's staging memory and creates the library's handles.
  spmv::plan(a, vendor_options).reset();
  const auto vendor_start = clock_type::now();
  auto vendor = spmv::plan(a, vendor_options);
  const double vendor_setup = seconds_since(vendor_start);
  verify_product(*vendor, a, "cusparse");
  const Timed cusparse{vendor_setup, spmv::detail::median_product_seconds(*vendor, 3, 20)};
  vendor.reset();

  fmt::print("\n{} {} ({} x {}, {} non-zeros)\n", spec, precision, a.rows, a.cols, a.nnz());
  fmt::print("{:<22} {:>11} {:>11} {:>9} {:>9} {:>9} {:>9} {:>10} {:>10} {:>8}\n", "kernel", "host build",
             "dev build", "dev/prod", "upload", "setup/up", "product", "host/dev", "vs cusp", "payback");
  fmt::print("{:<22} {:>11} {:>11} {:>9} {:>9} {:>9} {:>9} {:>10} {:>10} {:>8}\n", "", "ms", "ms", "products",
             "ms", "", "us", "", "", "products");
  fmt::print("{:<22} {:>11} {:>11} {:>9} {:>9.2f} {:>9} {:>9.1f} {:>10} {:>10} {:>8}\n", "cusparse (setup)", "-",
             "-", "-", cusparse.setup_seconds * 1e3, "-", cusparse.product_seconds * 1e6, "-", "1.00x", "-");
  const std::map<std::string, HostBuild<T>> builders = host_builders<T>();
  for (const spmv::KernelInfo& k : spmv_kernels()) {
    if (default_only && !k.name.empty()) break;
    spmv::PlanOptions options;
    options.backend = k.backend;
    options.kernel = k.name;
    options.spmv_only = !k.name.empty();
    std::unique_ptr<spmv::Operator<T>> op;
    spmv::Plan chosen;
    double plan_seconds = 0, operator_seconds = 0;
    try {
      const auto plan_start = clock_type::now();
      chosen = spmv::make_plan(a, options);
      plan_seconds = seconds_since(plan_start);
      const auto operator_start = clock_type::now();
      op = spmv::make_operator(chosen, a);  // returns with the device idle
      operator_seconds = seconds_since(operator_start);
    } catch (const spmv::FormatLimitError& refusal) {
      fmt::print("{:<22} refused: {}\n", k.name, refusal.what());
      continue;
    }
    verify_product(*op, a, k.name);
    const spmv::OperatorDescription d = op->describe();
    const double product = spmv::detail::median_product_seconds(*op, 3, 20);
    op.reset();
    const std::string name = k.name.empty() ? "auto: " + d.kernel : k.name;
    const auto builder = builders.find(k.name);
    const bool has_host_build = builder != builders.end();
    double host_build = 0;
    if (has_host_build) {
      const auto host_start = clock_type::now();
      builder->second(a, d.params);
      host_build = seconds_since(host_start);
    }
    // plan(): analysing and choosing (make_plan), then building (make_operator)
    // by the wall clock: also what the operator's description does not time
    // (its checks, the CSR kept beside a format for A^T and SpMM).
    const double setup = plan_seconds + operator_seconds;
    const double gain = cusparse.product_seconds - product;
    const std::string payback =
        gain > 0 ? fmt::format("{:.0f}", std::max(0.0, setup - cusparse.setup_seconds) / gain) : "-";
    fmt::print("{:<22} {:>11} {:>11.2f} {:>9.1f} {:>9.2f} {:>9.2f} {:>9.1f} {:>10} {:>9.2f}x {:>8}\n", name,
               has_host_build ? fmt::format("{:.1f}", host_build * 1e3) : "-", d.build_seconds * 1e3,
               d.build_seconds / product, d.upload_seconds * 1e3, setup / d.upload_seconds, product * 1e6,
               has_host_build ? fmt::format("{:.0f}x", host_build / d.build_seconds) : "-",
               cusparse.product_seconds / product, payback);
    if (k.name.empty())
      fmt::print("  (default: make_plan {:.2f} ms = analysis {:.2f} + selection {:.2f} + checks {:.2f}; make_operator "
                 "{:.2f} ms = upload {:.2f} + build {:.2f} + the rest {:.2f})\n",
                 plan_seconds * 1e3, chosen.analysis_seconds * 1e3, chosen.selection_seconds * 1e3,
                 (plan_seconds - chosen.analysis_seconds - chosen.selection_seconds) * 1e3, operator_seconds * 1e3,
                 d.upload_seconds * 1e3, d.build_seconds * 1e3,
                 (operator_seconds - d.upload_seconds - d.build_seconds) * 1e3);
    if (k.name.empty()) {
      print_choice_cost(a, options, chosen, d.upload_seconds);
      print_device_plan_cost(a, options, chosen, d.upload_seconds);
    }
    fmt::print(stderr,
               "{{\"matrix\":\"{}\",\"nnz\":{},\"precision\":\"{}\",\"backend\":\"{}\",\"kernel\":\"{}\","
               "\"plan_seconds\":{},\"make_operator_seconds\":{},\"host_build_seconds\":{},"
               "\"device_build_seconds\":{},\"upload_seconds\":{},\"analysis_seconds\":{},\"plan_analysis_seconds\":{},"
               "\"plan_selection_seconds\":{},\"product_seconds\":{},\"cusparse_setup_seconds\":{},"
               "\"cusparse_product_seconds\":{}}}\n",
               spec, a.nnz(), precision, spmv::to_string(k.backend), name, plan_seconds, operator_seconds, host_build,
               d.build_seconds, d.upload_seconds, d.analysis_seconds, chosen.analysis_seconds, chosen.selection_seconds,
               product, cusparse.setup_seconds, cusparse.product_seconds);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || (std::string(argv[1]) != "f32" && std::string(argv[1]) != "f64")) {
    fmt::print(stderr, "usage: bench_format_builds f32|f64 [--default-only] SPEC...\n");
    return 2;
  }
  const bool default_only = std::string(argv[2]) == "--default-only";
  if (!spmv::cuda_available()) {
    fmt::print(stderr, "bench_format_builds: no CUDA device\n");
    return 1;
  }
  const spmv::detail::DeviceInfo info = spmv::detail::cuda_device_info();
  fmt::print("{}, CUDA runtime {}, cuSPARSE {}\n", info.name, info.runtime_version, info.cusparse_version);
  const bool f64 = std::string(argv[1]) == "f64";
  try {
    // The process's one-off costs, paid by its first plan for the GPU: the
    // selector model read and the device's copy bandwidth measured (the CUDA
    // context made before, as any CUDA program's first call makes it).
    cudaFree(nullptr);
    const spmv::Csr<double> small = spmv::generate(spmv::parse_generator_spec("stencil5:nx=64,ny=64"));
    spmv::PlanOptions options;
    options.backend = spmv::Backend::cuda;
    double first_plans[2];
    for (double& seconds : first_plans) {
      const auto start = clock_type::now();
      spmv::make_plan(small, options);
      seconds = seconds_since(start);
    }
    fmt::print("The process's first plan (5-point stencil 64^2): {:.2f} ms; its second: {:.2f} ms\n",
               first_plans[0] * 1e3, first_plans[1] * 1e3);
    for (int i = default_only ? 3 : 2; i < argc; ++i)
      f64 ? run<double>(argv[i], "f64", default_only) : run<float>(argv[i], "f32", default_only);
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_format_builds: {}\n", e.what());
    return 1;
  }
  return 0;
}
