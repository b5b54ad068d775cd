// A plan as JSON and back. Every field of Plan and of its PlanOptions is
// written, so that a plan read back builds the same operator.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "spmv/error.hpp"
#include "spmv/plan.hpp"

namespace spmv {

namespace {

using json = nlohmann::ordered_json;

json optional_number(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }

// The integer at `key` of `j`, refused unless it is an integer that `Int`
// holds (a float or an out-of-range value would convert with undefined or
// silently wrong results).
template <class Int>
Int integer_at(const json& j, const char* key) {
  const json& value = j.at(key);
  const auto max = static_cast<std::uint64_t>(std::numeric_limits<Int>::max());
  bool fits = false;
  if (value.is_number_unsigned()) {
    fits = value.get<std::uint64_t>() <= max;
  } else if (value.is_number_integer()) {
    const auto v = value.get<std::int64_t>();
    fits = v >= 0 ? static_cast<std::uint64_t>(v) <= max
                  : std::is_signed_v<Int> && v >= static_cast<std::int64_t>(std::numeric_limits<Int>::min());
  }
  if (!fits)
    throw InvalidArgument(std::string("'") + key + "' must be an integer from " +
                          std::to_string(std::numeric_limits<Int>::min()) + " to " +
                          std::to_string(std::numeric_limits<Int>::max()) + ", not " + value.dump());
  return value.get<Int>();
}

KernelParams params_from(const json& j) {
  KernelParams params;
  for (const auto& item : j.items()) params[item.key()] = integer_at<int>(j, item.key().c_str());
  return params;
}

json device_json(const DeviceProperties& d) {
  return {{"name", d.name},
          {"multiprocessors", d.multiprocessors},
          {"l2_bytes", d.l2_bytes},
          {"copy_bandwidth_gbs", d.copy_bandwidth_gbs}};
}

DeviceProperties device_from(const json& j) {
  DeviceProperties d;
  d.name = j.at("name").get<std::string>();
  d.multiprocessors = integer_at<int>(j, "multiprocessors");
  d.l2_bytes = integer_at<std::size_t>(j, "l2_bytes");
  d.copy_bandwidth_gbs = j.at("copy_bandwidth_gbs").get<double>();
  return d;
}

const char* to_string(Tuning tuning) { return tuning == Tuning::measure ? "measure" : "model"; }
Tuning tuning_from(const std::string& name) {
  if (name == "model") return Tuning::model;
  if (name == "measure") return Tuning::measure;
  throw InvalidArgument("tuning must be model or measure, not '" + name + "'");
}

json options_json(const PlanOptions& o) {
  return {{"backend", to_string(o.backend)},
          {"kernel", o.kernel},
          {"params", o.params},
          {"explicit_transpose", o.explicit_transpose},
          {"spmv_only", o.spmv_only},
          {"device", o.device},
          {"reordering", to_string(o.reordering)},
          {"expected_products", o.expected_products},
          {"spmm_columns", o.spmm_columns},
          {"spmm_layout", to_string(o.spmm_layout)},
          {"target_device", o.target_device ? device_json(*o.target_device) : json(nullptr)},
          {"tuning", to_string(o.tuning)},
          {"measured_candidates", o.measured_candidates},
          {"plan_cache", o.plan_cache},
          {"selector_model", o.selector_model},
          {"spmm_selector_model", o.spmm_selector_model},
          {"deterministic", o.deterministic}};
}

PlanOptions options_from(const json& j) {
  PlanOptions o;
  o.backend = backend_from_string(j.at("backend").get<std::string>().c_str());
  o.kernel = j.at("kernel").get<std::string>();
  o.params = params_from(j.at("params"));
  o.explicit_transpose = j.at("explicit_transpose").get<bool>();
  o.spmv_only = j.at("spmv_only").get<bool>();
  o.device = integer_at<int>(j, "device");
  o.reordering = reordering_from_string(j.at("reordering").get<std::string>());
  o.expected_products = j.at("expected_products").get<double>();
  if (!j.at("target_device").is_null()) o.target_device = device_from(j.at("target_device"));
  o.tuning = tuning_from(j.at("tuning").get<std::string>());
  o.measured_candidates = integer_at<int>(j, "measured_candidates");
  o.plan_cache = j.at("plan_cache").get<std::string>();
  // Plans saved before deterministic mode, SpMM plans or model files existed lack the keys.
  if (j.contains("deterministic")) o.deterministic = j.at("deterministic").get<bool>();
  if (j.contains("selector_model")) o.selector_model = j.at("selector_model").get<std::string>();
  if (j.contains("spmm_selector_model")) o.spmm_selector_model = j.at("spmm_selector_model").get<std::string>();
  if (j.contains("spmm_columns")) o.spmm_columns = integer_at<index_t>(j, "spmm_columns");
  if (j.contains("spmm_layout")) o.spmm_layout = layout_from_string(j.at("spmm_layout").get<std::string>().c_str());
  return o;
}

json candidate_json(const PlanCandidate& c) {
  return {{"backend", to_string(c.backend)},
          {"kernel", c.kernel},
          {"format", c.format},
          {"params", c.params},
          {"predicted_seconds", c.predicted_seconds},
          {"predicted_setup_seconds", c.predicted_setup_seconds},
          {"predicted_cost_seconds", c.predicted_cost_seconds},
          {"measured_seconds", optional_number(c.measured_seconds)},
          {"measured_setup_seconds", optional_number(c.measured_setup_seconds)},
          {"refusal", c.refusal ? json(*c.refusal) : json(nullptr)}};
}

PlanCandidate candidate_from(const json& j) {
  PlanCandidate c;
  c.backend = backend_from_string(j.at("backend").get<std::string>().c_str());
  c.kernel = j.at("kernel").get<std::string>();
  c.format = j.at("format").get<std::string>();
  if (j.contains("params")) c.params = params_from(j.at("params"));  // plans saved before 2026-12-02 lack them
  c.predicted_seconds = j.at("predicted_seconds").get<double>();
  c.predicted_setup_seconds = j.at("predicted_setup_seconds").get<double>();
  c.predicted_cost_seconds = j.at("predicted_cost_seconds").get<double>();
  if (!j.at("measured_seconds").is_null()) c.measured_seconds = j.at("measured_seconds").get<double>();
  if (!j.at("measured_setup_seconds").is_null())
    c.measured_setup_seconds = j.at("measured_setup_seconds").get<double>();
  if (!j.at("refusal").is_null()) c.refusal = j.at("refusal").get<std::string>();
  return c;
}

json plan_json(const Plan& p) {
  json features = json::object();
  for (const auto& [name, value] : p.features) features[name] = value;
  json candidates = json::array();
  for (const PlanCandidate& c : p.candidates) candidates.push_back(candidate_json(c));
  const json j = {{"format_version", "spmv-plan/1"},
                  {"options", options_json(p.options)},
                  {"format", p.format},
                  {"value_type", p.value_type},
                  {"rows", p.rows},
                  {"cols", p.cols},
                  {"nnz", p.nnz},
                  {"predicted_seconds", p.predicted_seconds},
                  {"predicted_setup_seconds", p.predicted_setup_seconds},
                  {"expected_products", p.expected_products},
                  {"tuning", p.tuning},
                  {"reason", p.reason},
                  {"selector_model", p.selector_model},
                  {"analysis_seconds", p.analysis_seconds},
                  {"selection_seconds", p.selection_seconds},
                  {"measurement_seconds", p.measurement_seconds},
                  {"measured_products", p.measured_products},
                  {"device", p.device ? device_json(*p.device) : json(nullptr)},
                  {"features", features},
                  {"candidates", candidates},
                  {"transposed", p.transposed ? plan_json(*p.transposed) : json(nullptr)}};
  return j;
}

Plan plan_from(const json& j) {
  if (j.value("format_version", "") != "spmv-plan/1") throw InvalidArgument("not an spmv-plan/1 document");
  Plan p;
  p.options = options_from(j.at("options"));
  p.format = j.at("format").get<std::string>();
  p.value_type = j.at("value_type").get<std::string>();
  if (p.value_type != "f32" && p.value_type != "f64")
    throw InvalidArgument("value_type must be f32 or f64, not '" + p.value_type + "'");
  p.rows = integer_at<index_t>(j, "rows");
  p.cols = integer_at<index_t>(j, "cols");
  p.nnz = integer_at<std::int64_t>(j, "nnz");
  p.predicted_seconds = j.at("predicted_seconds").get<double>();
  p.predicted_setup_seconds = j.at("predicted_setup_seconds").get<double>();
  p.expected_products = j.at("expected_products").get<double>();
  p.tuning = j.at("tuning").get<std::string>();
  p.reason = j.at("reason").get<std::string>();
  if (j.contains("selector_model")) p.selector_model = j.at("selector_model").get<std::string>();  // since 2026-12-07
  p.analysis_seconds = j.at("analysis_seconds").get<double>();
  p.selection_seconds = j.at("selection_seconds").get<double>();
  p.measurement_seconds = j.at("measurement_seconds").get<double>();
  p.measured_products = integer_at<int>(j, "measured_products");
  if (!j.at("device").is_null()) p.device = device_from(j.at("device"));
  for (const auto& [name, value] : j.at("features").items()) p.features.emplace_back(name, value.get<double>());
  for (const json& c : j.at("candidates")) p.candidates.push_back(candidate_from(c));
  // Plans saved before A^T had plans of its own lack the key.
  if (j.contains("transposed") && !j.at("transposed").is_null()) {
    const json& nested = j.at("transposed");
    if (nested.is_object() && nested.contains("transposed") && !nested.at("transposed").is_null())
      throw InvalidArgument("the plan of A^T ('transposed') holds a transposed plan of its own");
    const auto on_gpu = [](const PlanOptions& o) {
      return o.backend == Backend::cuda || o.backend == Backend::cusparse;
    };
    Plan transposed = plan_from(nested);
    if (!on_gpu(p.options) || !on_gpu(transposed.options))
      throw InvalidArgument("a plan of A^T ('transposed') is made for the cuda and cusparse backends only");
    if (transposed.rows != p.cols || transposed.cols != p.rows || transposed.nnz != p.nnz ||
        transposed.value_type != p.value_type)
      throw InvalidArgument("the plan of A^T ('transposed') is for a " + std::to_string(transposed.rows) + " x " +
                            std::to_string(transposed.cols) + " " + transposed.value_type + " matrix of " +
                            std::to_string(transposed.nnz) + " non-zeros, not the transpose of this one");
    p.transposed = std::make_shared<const Plan>(std::move(transposed));
  }
  return p;
}

}  // namespace

std::string plan_to_json(const Plan& p) { return plan_json(p).dump(2); }

Plan plan_from_json(const std::string& text) {
  try {
    return plan_from(json::parse(text));
  } catch (const json::exception& e) {
    throw ParseError("plan", 0, e.what());
  } catch (const InvalidArgument& e) {
    throw ParseError("plan", 0, e.what());
  }
}

}  // namespace spmv
