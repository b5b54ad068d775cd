#include "select/model.hpp"

#include <nlohmann/json.hpp>

#include "spmv/error.hpp"

namespace spmv::detail {

extern const char* const builtin_selector_model_text;  // generated from src/select/models/

double RegressionTree::predict(const std::vector<double>& features) const {
  int node = 0;
  while (feature[node] >= 0) node = features[feature[node]] < threshold[node] ? left[node] : right[node];
  return value[node];
}

double KernelModel::predict_log2_slowdown(const std::vector<double>& features) const {
  double sum = base;
  for (const RegressionTree& tree : trees) sum += learning_rate * tree.predict(features);
  return sum;
}

bool KernelModel::trained_near(const std::vector<double>& features, double slack) const {
  for (std::size_t i = 0; i < features.size(); ++i)
    if (features[i] < feature_min[i] - slack || features[i] > feature_max[i] + slack) return false;
  return true;
}

namespace {

const char* const model_source = "selector model";

[[noreturn]] void fail(const std::string& problem) { throw ParseError(model_source, 0, problem); }

template <class V>
std::vector<V> array_of(const nlohmann::json& tree, const char* key, std::size_t size) {
  if (!tree.contains(key) || !tree[key].is_array()) fail(std::string("a tree has no array '") + key + "'");
  std::vector<V> values = tree[key].get<std::vector<V>>();
  if (values.size() != size) fail(std::string("a tree's '") + key + "' has the wrong length");
  return values;
}

// Children come after their parent, so every walk from the root ends.
RegressionTree parse_tree(const nlohmann::json& json, std::size_t feature_count) {
  if (!json.contains("value") || !json["value"].is_array() || json["value"].empty())
    fail("a tree has no 'value' array");
  const std::size_t nodes = json["value"].size();
  RegressionTree tree;
  tree.value = array_of<double>(json, "value", nodes);
  tree.feature = array_of<int>(json, "feature", nodes);
  tree.threshold = array_of<double>(json, "threshold", nodes);
  tree.left = array_of<int>(json, "left", nodes);
  tree.right = array_of<int>(json, "right", nodes);
  for (std::size_t i = 0; i < nodes; ++i) {
    if (tree.feature[i] < 0) continue;
    const auto child_ok = [&](int child) { return child > static_cast<int>(i) && child < static_cast<int>(nodes); };
    if (static_cast<std::size_t>(tree.feature[i]) >= feature_count || !child_ok(tree.left[i]) ||
        !child_ok(tree.right[i]))
      fail("tree node " + std::to_string(i) + " has a feature or child out of range");
  }
  return tree;
}

}  // namespace

SelectorModel parse_selector_model(const std::string& text) {
  try {
    const nlohmann::json json = nlohmann::json::parse(text);
    if (json.value("format", "") != "spmv-selector-model/1") fail("not an spmv-selector-model/1 file");
    SelectorModel model;
    model.architecture = json.at("architecture").get<std::string>();
    model.provenance = json.at("provenance").get<std::string>();
    model.feature_names = json.at("features").get<std::vector<std::string>>();
    model.risk = json.at("risk").get<double>();
    model.vendor_margin = json.at("vendor_margin").get<double>();
    model.range_slack = json.at("range_slack").get<double>();
    if (!(model.risk >= 0) || !(model.range_slack >= 0) || !(model.vendor_margin >= 0 && model.vendor_margin < 1))
      fail("risk and range_slack must be >= 0 and vendor_margin in [0, 1)");
    for (const nlohmann::json& k : json.at("kernels")) {
      KernelModel kernel;
      kernel.kernel = k.at("kernel").get<std::string>();
      kernel.backend = backend_from_string(k.at("backend").get<std::string>().c_str());
      kernel.format = k.at("format").get<std::string>();
      kernel.base = k.at("base").get<double>();
      kernel.learning_rate = k.at("learning_rate").get<double>();
      kernel.setup_seconds_per_nnz = k.at("setup_seconds_per_nnz").get<double>();
      kernel.setup_seconds_fixed = k.at("setup_seconds_fixed").get<double>();
      kernel.uncertainty_log2 = k.at("uncertainty_log2").get<double>();
      kernel.feature_min = k.at("feature_min").get<std::vector<double>>();
      kernel.feature_max = k.at("feature_max").get<std::vector<double>>();
      if (kernel.feature_min.size() != model.feature_names.size() ||
          kernel.feature_max.size() != model.feature_names.size())
        fail("kernel " + kernel.kernel + "'s feature range has the wrong length");
      for (const nlohmann::json& tree : k.at("trees"))
        kernel.trees.push_back(parse_tree(tree, model.feature_names.size()));
      model.kernels.push_back(std::move(kernel));
    }
    return model;
  } catch (const nlohmann::json::exception& e) {
    fail(e.what());
  } catch (const InvalidArgument& e) {
    fail(e.what());
  }
}

const SelectorModel& builtin_selector_model() {
  static const SelectorModel model = parse_selector_model(builtin_selector_model_text);
  // Any matrix gives this build's feature names.
  static const std::vector<std::string> names = selector_features(MatrixStats{}, 8, DeviceProperties{}).names;
  if (model.feature_names != names)
    throw Unavailable("the built-in selector model was trained on other features than this build computes; "
                      "retrain it with scripts/train-selector.sh");
  return model;
}

}  // namespace spmv::detail
