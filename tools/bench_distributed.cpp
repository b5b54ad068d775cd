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
#include <map>
#include <numeric>
#include <optional>

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
  bool replayed_graphs = false;  // run() as a replayed CUDA graph
  std::string graph_refusal;     // why run() was not, if it was to be
  bool pulled = false;           // the parts read x entries from their owners' memory
  std::vector<std::int64_t> part_nnz;
  ExchangeVolume volume;
};

// `parts` parts on `devices` (empty: one device or the host).
template <class T>
DistributedMeasurement measure(const BenchProblem<T>& problem, Backend backend, int parts, std::vector<int> devices,
                               const DistributedBenchSettings& d) {
  DistributedMeasurement m;
  const Csr<T>& a = *problem.a;
  DistributedOptions options;
  options.part_options.backend = backend;
  options.part_options.expected_products = problem.settings.expected_products;
  options.exchange = d.exchange;
  options.devices = std::move(devices);
  options.overlap = d.overlap;
  options.replay_graphs = d.replay_graphs;
  options.pull_from_peers = d.pull_from_peers;
  options.nccl = d.nccl;
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
  m.replayed_graphs = op->replays_graphs();
  m.graph_refusal = op->graph_refusal();
  m.pulled = op->pulls_from_peers();
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
          {"replayed_graphs", m.replayed_graphs},
          {"graph_refusal", m.graph_refusal},
          {"pulled_from_peers", m.pulled},
          {"part_ms", m.part_ms},
          {"part_kernels", m.part_kernels},
          {"part_nnz", m.part_nnz},
          {"received_bytes", m.volume.received_bytes},
          {"sent_bytes", m.volume.sent_bytes},
          {"messages_received", m.volume.messages_received},
          {"packed_bytes", m.volume.packed_bytes},
          {"gathered_bytes", m.volume.gathered_bytes},
          {"served_bytes", m.volume.served_bytes}};
}

// Where the time of P parts goes beyond the ideal (one part's time over the
// number of devices). A device is busy for the sum of its parts' products:
// the busiest device behind the mean (imbalance), the mean behind the ideal
// (smaller products use a device less well: launch overhead and tails), and
// run() behind the busiest device: the exchange not hidden by the local
// products, the rest launches and synchronisation. The limiter is the largest.
struct Losses {
  double imbalance_ms, smaller_parts_ms, exchange_ms, launches_ms;
  const char* limiter() const {
    const double largest = std::max({imbalance_ms, smaller_parts_ms, exchange_ms, launches_ms});
    return largest == imbalance_ms       ? "imbalance"
           : largest == exchange_ms      ? "exchange"
           : largest == smaller_parts_ms ? "smaller parts (launch overhead, tails)"
                                         : "launches and synchronisation";
  }
};

// Part p's device (0: the one device or the host).
int device_of_part(const std::vector<int>& devices, std::size_t p) {
  return devices.empty() ? 0 : devices[p % devices.size()];
}

Losses losses_of(const DistributedMeasurement& one, const DistributedMeasurement& many,
                 const std::vector<int>& devices) {
  std::map<int, double> busy_ms;  // by device ordinal; the host is one "device"
  for (std::size_t p = 0; p < many.part_ms.size(); ++p)
    busy_ms[device_of_part(devices, p)] += many.part_ms[p];
  double busiest = 0, total = 0;
  for (const auto& [device, ms] : busy_ms) {
    busiest = std::max(busiest, ms);
    total += ms;
  }
  const double mean = total / busy_ms.size();
  const double behind_busiest = std::max(0.0, many.run_ms - busiest);
  const double exchange = std::min(many.exchange_ms, behind_busiest);
  return {busiest - mean, mean - one.run_ms / busy_ms.size(), exchange, behind_busiest - exchange};
}

// How many devices the parts use, each counted once (1 for the host).
int distinct_devices(std::vector<int> devices) {
  std::sort(devices.begin(), devices.end());
  return std::max<int>(1, static_cast<int>(std::unique(devices.begin(), devices.end()) - devices.begin()));
}

template <class T>
nlohmann::ordered_json run_typed(BenchReport& report, const Csr<double>& matrix, const DistributedBenchSettings& d,
                                 bool& failed) {
  const Csr<T> a = cast<T>(matrix);
  const BenchProblem<T> problem = make_bench_problem(a, report.settings);
  const bool gpu = report.backend == Backend::cuda || report.backend == Backend::cusparse;
  const int devices = distinct_devices(d.devices);
  if (gpu) report.results.push_back(measure_kernel(problem, Backend::cusparse, auto_kernel));
  const DistributedMeasurement one = measure(problem, report.backend, 1, {}, d);
  const DistributedMeasurement many = measure(problem, report.backend, d.parts, d.devices, d);
  failed = one.status != "ok" || many.status != "ok" ||
           std::any_of(report.results.begin(), report.results.end(),
                       [](const KernelMeasurement& r) { return r.status == "FAILED"; });

  std::printf("matrix %s: %d x %d, %d non-zeros, %s, backend %s%s%s\n", report.matrix_source.c_str(), report.rows,
              report.cols, report.nnz, report.precision.c_str(), to_string(report.backend),
              report.device ? ", " : "", report.device ? report.device->name.c_str() : "");
  std::printf("%d parts by %s, %s exchange%s, on %d %s%s; median of %d runs after %d warm-up (wall clock, each step "
              "synchronised)\n",
              d.parts, to_string(d.method), to_string(d.exchange), d.overlap ? "" : " (no overlap)", devices,
              gpu ? "device" : "host", devices > 1 ? "s" : "", report.settings.runs, report.settings.warmup);
  for (const auto* m : {&one, &many})
    if (m->status != "ok") std::printf("FAILED (%d parts): %s\n", int(m->part_ms.size()), m->message.c_str());
  if (many.status != "ok" || one.status != "ok") return {};
  if (gpu)
    std::printf("steps %s (one part: %s; %d parts: %s); x entries %s\n",
                d.nccl            ? "queued one by one (--nccl)"
                : d.replay_graphs ? "captured and replayed as CUDA graphs"
                                  : "queued one by one (--no-graphs)",
                one.replayed_graphs ? "replayed" : "queued", d.parts, many.replayed_graphs ? "replayed" : "queued",
                d.nccl ? "packed by their owners and sent by NCCL"
                : many.pulled ? "read from their owners' memory (pull)"
                              : "packed by their owners and copied (push)");
  for (const auto* m : {&one, &many})
    if (!m->graph_refusal.empty()) std::printf("capture refused: %s\n", m->graph_refusal.c_str());
  std::printf("%-5s %6s %12s %12s %12s %12s %-28s %12s\n", "part", "device", "non-zeros", "recv KiB", "sent KiB",
              "messages", "kernel(s)", "product ms");
  for (int p = 0; p < d.parts; ++p)
    std::printf("%-5d %6d %12lld %12.1f %12.1f %12d %-28s %12.4f\n", p,
                device_of_part(d.devices, p), static_cast<long long>(many.part_nnz[p]),
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
  // The speed-up over one part on one device, per device.
  const double efficiency = one.run_ms / (devices * many.run_ms);
  std::printf("%d parts, run() (exchange + products): %.4f ms; parallel efficiency against one part on one %s: %.3f\n",
              d.parts, many.run_ms, gpu ? "device" : "host", efficiency);
  json["one_part"] = measurement_json_of(one);
  json["parts"] = measurement_json_of(many);
  json["devices"] = devices;
  json["spread_ms"] = spread;
  json["efficiency"] = efficiency;
  const Losses losses = losses_of(one, many, d.devices);
  std::printf("beyond the ideal %.4f ms: imbalance %.4f, smaller parts %.4f, exchange not hidden %.4f, launches and "
              "synchronisation %.4f ms; limiter: %s\n",
              one.run_ms / devices, losses.imbalance_ms, losses.smaller_parts_ms, losses.exchange_ms,
              losses.launches_ms, losses.limiter());
  json["losses_ms"] = {{"imbalance", losses.imbalance_ms},
                       {"smaller_parts", losses.smaller_parts_ms},
                       {"exchange_not_hidden", losses.exchange_ms},
                       {"launches", losses.launches_ms}};
  json["limiter"] = losses.limiter();

  // The exchange model, its links measured first: every device receiving
  // from the next at once, or copies within the one device.
  std::printf("exchange: measured %.4f ms for %.1f KiB received in all", many.exchange_ms,
              many.volume.total_bytes() / 1024.0);
  std::optional<ExchangeLink> link;
  if (gpu) {
    const bool on_links = devices > 1 && devices == d.parts;
    const std::vector<int> measured = on_links ? d.devices : std::vector<int>{d.devices.empty() ? 0 : d.devices[0]};
    link = measure_exchange_link(measured, d.replay_graphs, many.pulled);
    const double model_ms =
        1e3 * (on_links ? predicted_exchange_seconds_on_links(many.volume, *link, many.pulled)
                        : predicted_exchange_seconds_on_one_device(many.volume, *link, many.replayed_graphs,
                                                                   many.pulled));
    std::printf("; %.1f KiB gathered in sectors; model %.4f ms (%s, links measured: %.1f GB/s, %.2f us a message, "
                "%.2f us each further one; measured/model %.2f)",
                many.volume.total_gathered() / 1024.0, model_ms, on_links ? "a device per part" : "parts sharing a device",
                link->bandwidth_gbs, link->latency_seconds * 1e6, link->message_seconds * 1e6,
                many.exchange_ms / model_ms);
    json["link"] = {{"devices", measured},
                    {"bandwidth_gbs", link->bandwidth_gbs},
                    {"latency_us", link->latency_seconds * 1e6},
                    {"further_message_us", link->message_seconds * 1e6}};
    json["exchange_model_ms"] = model_ms;
    json["exchange_model_kind"] = on_links ? "links" : "one_device";
  }
  std::printf("\n");
  // Without communication (the paper's first experiment) and with the given link.
  const double products_efficiency = one.run_ms / (d.parts * max_part);
  std::printf("predicted on %d devices, products only (slowest part): %.4f ms, efficiency %.3f\n", d.parts, max_part,
              products_efficiency);
  json["predicted_products_only_ms"] = max_part;
  json["predicted_products_only_efficiency"] = products_efficiency;
  if (d.link_gbs) {
    const ExchangeLink given{*d.link_gbs, link ? link->latency_seconds : 0.0, link ? link->message_seconds : 0.0};
    const double link_ms = predicted_exchange_seconds_on_links(many.volume, given, many.pulled) * 1e3;
    const double predicted = max_part + link_ms;
    std::printf("predicted on %d devices with %.0f GB/s links (%.2f us a message): exchange %.4f ms, product %.4f ms, "
                "efficiency %.3f (no overlap assumed)\n",
                d.parts, *d.link_gbs, given.latency_seconds * 1e6, link_ms, predicted,
                one.run_ms / (d.parts * predicted));
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
  json["overlap"] = settings.overlap;
  json["replay_graphs"] = settings.replay_graphs;
  json["pull_from_peers"] = settings.pull_from_peers;
  json["nccl"] = settings.nccl;
  json["device_ordinals"] = settings.devices;
  json["distributed"] = distributed;
  return json;
}

}  // namespace spmv::cli
