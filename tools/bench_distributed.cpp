// `spmv bench --parts P`: see bench_distributed.hpp. Every figure is the
// median of --runs wall-clock timings of a step that completes before it
// returns (the distributed operator's steps synchronise), after --warmup
// untimed ones; the result of the P-part and the one-part operators is
// verified against the reference before either is timed.
#include "bench_distributed.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>

#include "spmv/distributed.hpp"
#include "spmv/verify.hpp"

namespace spmv::cli {
namespace {

// Median milliseconds of `step` over the settings' runs after its warm-up.
double median_ms(const BenchSettings& s, const std::function<void()>& step) {
  for (int i = 0; i < s.warmup; ++i) step();
  std::vector<double> ms;
  for (int i = 0; i < s.runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    step();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return median(ms);
}

struct DistributedMeasurement {
  std::string status = "ok";  // or FAILED with the message
  std::string message;
  double max_relative_error = 0;
  double run_ms = 0;       // run(): exchange and every part's product
  double exchange_ms = 0;  // exchange() alone
  std::vector<double> part_ms;  // multiply_part(p) alone
  std::vector<std::string> part_kernels;
  std::vector<std::int64_t> part_nnz;
  ExchangeVolume volume;
};

template <class T>
DistributedMeasurement measure(const BenchProblem<T>& problem, Backend backend, int parts,
                               const DistributedBenchSettings& d) {
  DistributedMeasurement m;
  const Csr<T>& a = *problem.a;
  DistributedOptions options;
  options.part_options.backend = backend;
  options.part_options.expected_products = problem.settings.expected_products;
  options.exchange = d.exchange;
  const Partition partition = spmv::partition(a, d.method, parts);
  const auto op = make_distributed_operator(a, partition, options);
  m.volume = op->volume();
  const auto descriptions = op->describe_parts();
  m.part_nnz = part_nonzeros(a, partition);
  for (int p = 0; p < parts; ++p) {
    std::string kernels;
    for (const OperatorDescription& part : descriptions[p])
      kernels += (kernels.empty() ? "" : "+") + part.kernel;
    m.part_kernels.push_back(kernels);
  }
  const T alpha = static_cast<T>(problem.settings.alpha), beta = static_cast<T>(problem.settings.beta);
  std::vector<T> y = problem.initial_output;
  op->apply(problem.input.data(), y.data(), alpha, beta);
  const VerifyResult check = verify(y.data(), problem.reference.data(), problem.scale.data(), y.size(),
                                    problem.tolerance_factor);
  m.max_relative_error = check.max_relative_error;
  if (!check.ok) {
    m.status = "FAILED";
    m.message = "wrong result: " + check.message;
    return m;
  }
  // The vectors stay in the parts from here on, as in an iterative solver.
  op->load_x(problem.input.data());
  m.run_ms = median_ms(problem.settings, [&] { op->run(alpha, T(0)); });
  m.exchange_ms = median_ms(problem.settings, [&] { op->exchange(); });
  for (int p = 0; p < parts; ++p)
    m.part_ms.push_back(median_ms(problem.settings, [&] { op->multiply_part(p, alpha, T(0)); }));
  return m;
}

double standard_deviation(const std::vector<double>& values) {
  const double mean = std::accumulate(values.begin(), values.end(), 0.0) / values.size();
  double sum = 0;
  for (const double v : values) sum += (v - mean) * (v - mean);
  return std::sqrt(sum / values.size());
}

nlohmann::ordered_json measurement_json_of(const DistributedMeasurement& m) {
  return {{"status", m.status},
          {"message", m.message},
          {"max_relative_error", m.max_relative_error},
          {"run_ms", m.run_ms},
          {"exchange_ms", m.exchange_ms},
          {"part_ms", m.part_ms},
          {"part_kernels", m.part_kernels},
          {"part_nnz", m.part_nnz},
          {"received_bytes", m.volume.received_bytes},
          {"sent_bytes", m.volume.sent_bytes},
          {"messages_received", m.volume.messages_received},
          {"packed_bytes", m.volume.packed_bytes}};
}

template <class T>
nlohmann::ordered_json run_typed(BenchReport& report, const Csr<double>& matrix, const DistributedBenchSettings& d,
                                 bool& failed) {
  const Csr<T> a = cast<T>(matrix);
  const BenchProblem<T> problem = make_bench_problem(a, report.settings);
  const bool gpu = report.backend == Backend::cuda || report.backend == Backend::cusparse;
  if (gpu) report.results.push_back(measure_kernel(problem, Backend::cusparse, auto_kernel));
  const DistributedMeasurement one = measure(problem, report.backend, 1, d);
  const DistributedMeasurement many = measure(problem, report.backend, d.parts, d);
  failed = one.status != "ok" || many.status != "ok" ||
           std::any_of(report.results.begin(), report.results.end(),
                       [](const KernelMeasurement& r) { return r.status == "FAILED"; });

  std::printf("matrix %s: %d x %d, %d non-zeros, %s, backend %s%s%s\n", report.matrix_source.c_str(), report.rows,
              report.cols, report.nnz, report.precision.c_str(), to_string(report.backend),
              report.device ? ", " : "", report.device ? report.device->name.c_str() : "");
  std::printf("%d parts by %s, %s exchange, all parts on one %s; median of %d runs after %d warm-up (wall clock, "
              "each step synchronised)\n",
              d.parts, to_string(d.method), to_string(d.exchange), gpu ? "device" : "host", report.settings.runs,
              report.settings.warmup);
  for (const auto* m : {&one, &many})
    if (m->status != "ok") std::printf("FAILED (%d parts): %s\n", int(m->part_ms.size()), m->message.c_str());
  if (many.status != "ok" || one.status != "ok") return {};
  std::printf("%-5s %12s %12s %12s %12s %-28s %12s\n", "part", "non-zeros", "recv KiB", "sent KiB", "messages",
              "kernel(s)", "product ms");
  for (int p = 0; p < d.parts; ++p)
    std::printf("%-5d %12lld %12.1f %12.1f %12d %-28s %12.4f\n", p, static_cast<long long>(many.part_nnz[p]),
                many.volume.received_bytes[p] / 1024.0, many.volume.sent_bytes[p] / 1024.0,
                many.volume.messages_received[p], many.part_kernels[p].c_str(), many.part_ms[p]);
  const double max_part = *std::max_element(many.part_ms.begin(), many.part_ms.end());
  const double mean_part = std::accumulate(many.part_ms.begin(), many.part_ms.end(), 0.0) / d.parts;
  const double spread = standard_deviation(many.part_ms);
  std::printf("spread of the parts' products: std dev %.4f ms (max %.4f, mean %.4f)\n", spread, max_part, mean_part);
  nlohmann::ordered_json json;
  for (const KernelMeasurement& r : report.results)
    if (r.ok()) {
      std::printf("cuSPARSE on the whole matrix (%s): %.4f ms\n", r.chosen_kernel.c_str(), r.median_ms);
      json["cusparse_ms"] = r.median_ms;
      json["cusparse_kernel"] = r.chosen_kernel;
    }
  std::printf("one part (whole matrix, %s): %.4f ms\n", one.part_kernels[0].c_str(), one.run_ms);
  const double efficiency_here = one.run_ms / many.run_ms;
  std::printf("%d parts, run() (exchange + products): %.4f ms; efficiency against one part on the same %s: %.3f\n",
              d.parts, many.run_ms, gpu ? "device" : "host", efficiency_here);
  json["one_part"] = measurement_json_of(one);
  json["parts"] = measurement_json_of(many);
  json["spread_ms"] = spread;
  json["efficiency_same_device"] = efficiency_here;
  std::printf("exchange: measured %.4f ms for %.1f KiB received in all", many.exchange_ms,
              many.volume.total_bytes() / 1024.0);
  if (report.copy_bandwidth_gbs) {
    const double model_ms = predicted_exchange_seconds_on_one_device(many.volume, *report.copy_bandwidth_gbs) * 1e3;
    std::printf("; model on one device (copy bandwidth %.0f GB/s, bandwidth only): %.4f ms", *report.copy_bandwidth_gbs,
                model_ms);
    json["exchange_model_one_device_ms"] = model_ms;
  }
  std::printf("\n");
  // Without communication (the paper's first experiment) and with the modelled link.
  const double products_efficiency = one.run_ms / (d.parts * max_part);
  std::printf("predicted on %d devices, products only (slowest part): %.4f ms, efficiency %.3f\n", d.parts, max_part,
              products_efficiency);
  json["predicted_products_only_ms"] = max_part;
  json["predicted_products_only_efficiency"] = products_efficiency;
  if (d.link_gbs) {
    const double link_ms = predicted_exchange_seconds_on_links(many.volume, *d.link_gbs) * 1e3;
    const double predicted = max_part + link_ms;
    std::printf("predicted on %d devices with %.0f GB/s links: exchange %.4f ms, product %.4f ms, efficiency %.3f "
                "(no overlap assumed, bandwidth only)\n",
                d.parts, *d.link_gbs, link_ms, predicted, one.run_ms / (d.parts * predicted));
    json["link_gbs"] = *d.link_gbs;
    json["exchange_model_link_ms"] = link_ms;
    json["predicted_efficiency_with_links"] = one.run_ms / (d.parts * predicted);
  }
  return json;
}

}  // namespace

nlohmann::ordered_json run_distributed_bench(BenchReport& report, const Csr<double>& a,
                                             const DistributedBenchSettings& settings, bool& failed) {
  nlohmann::ordered_json distributed = report.precision == "f32" ? run_typed<float>(report, a, settings, failed)
                                                                 : run_typed<double>(report, a, settings, failed);
  nlohmann::ordered_json json;
  json["timestamp"] = utc_timestamp();
  json["matrix"] = {{"source", report.matrix_source}, {"rows", report.rows}, {"cols", report.cols},
                    {"nnz", report.nnz}};
  json["precision"] = report.precision;
  json["backend"] = to_string(report.backend);
  json["device"] = device_json(report.device);
  if (report.copy_bandwidth_gbs) json["copy_bandwidth_gbs"] = *report.copy_bandwidth_gbs;
  json["settings"] = settings_json(report.settings);
  json["parts"] = settings.parts;
  json["partition"] = to_string(settings.method);
  json["exchange"] = to_string(settings.exchange);
  json["distributed"] = distributed;
  return json;
}

}  // namespace spmv::cli
