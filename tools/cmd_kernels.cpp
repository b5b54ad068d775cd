// `spmv kernels [--json]`: every kernel of this build (kernel_catalogue()),
// and whether the CUDA backends can run here.
#include <fmt/format.h>

#include <climits>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "spmv/operator.hpp"

namespace spmv::cli {
namespace {

// {name, allowed or min/max (no max when unbounded), default, meaning}
nlohmann::ordered_json params_json(const std::vector<KernelParamSpec>& params) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const KernelParamSpec& p : params) {
    nlohmann::ordered_json spec = {{"name", p.name}};
    if (!p.allowed.empty()) {
      spec["allowed"] = p.allowed;
    } else {
      spec["min"] = p.min;
      if (p.max != INT_MAX) spec["max"] = p.max;
    }
    spec["default"] = p.default_value;
    spec["meaning"] = p.meaning;
    list.push_back(spec);
  }
  return list;
}

int run_kernels(bool json) {
  const std::vector<KernelInfo> kernels = kernel_catalogue();
  if (json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const KernelInfo& k : kernels)
      list.push_back({{"name", k.name},
                      {"backend", to_string(k.backend)},
                      {"format", k.format},
                      {"summary", k.summary},
                      {"params", params_json(k.params)},
                      {"native_transposed", k.transposed},
                      {"native_spmm", k.spmm},
                      {"deterministic", k.deterministic}});
    const nlohmann::ordered_json out = {{"cuda_available", cuda_available()}, {"kernels", list}};
    fmt::print("{}\n", out.dump(2));
    return exit_success;
  }
  fmt::print("CUDA backends: {}\n\n", cuda_status());
  fmt::print("{:<20} {:<10} {:<8} {:<10} {:<7} {:<13} {}\n", "kernel", "backend", "format", "transposed",
             "spmm", "deterministic", "summary");
  for (const KernelInfo& k : kernels) {
    fmt::print("{:<20} {:<10} {:<8} {:<10} {:<7} {:<13} {}\n", k.name, to_string(k.backend), k.format,
               k.transposed ? "native" : "via A^T", k.spmm ? "native" : "k SpMVs", k.deterministic ? "yes" : "no",
               k.summary);
    for (const KernelParamSpec& p : k.params)
      fmt::print("  {}: {}; default {}; {}\n", p.name, allowed_text(p), p.default_value, p.meaning);
  }
  fmt::print("\ndeterministic: bitwise identical results run to run when planned with --deterministic "
             "(PlanOptions::deterministic; the transposed product then multiplies by A^T)\n");
  return exit_success;
}

}  // namespace

Command add_kernels_command(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* command =
      app.add_subcommand("kernels", "list the kernels of this build and their parameters");
  command->add_flag("--json", *json, "print JSON instead of a table");
  return {command, [json] { return run_kernels(*json); }};
}

}  // namespace spmv::cli
