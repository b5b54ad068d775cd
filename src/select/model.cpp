#include "select/model.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "spmv/error.hpp"

namespace spmv::detail {

void TreeEnsemble::add_tree(const std::vector<int>& feature, const std::vector<double>& threshold,
                            const std::vector<int>& left, const std::vector<int>& right,
                            const std::vector<double>& value) {
  roots_.push_back(static_cast<std::int32_t>(nodes_.size()));
  // Depth first, the right child waiting on the stack with the index of the
  // split whose `right` it fills in.
  std::vector<std::pair<int, std::int32_t>> pending{{0, -1}};
  while (!pending.empty()) {
    const auto [node, parent] = pending.back();
    pending.pop_back();
    const auto at = static_cast<std::int32_t>(nodes_.size());
    if (parent >= 0) nodes_[parent].right = at;
    const bool split = feature[node] >= 0;
    nodes_.push_back({split ? threshold[node] : value[node], split ? feature[node] : -1, -1});
    if (!split) continue;
    pending.emplace_back(right[node], at);
    pending.emplace_back(left[node], -1);  // next: it follows its parent
  }
}

double TreeEnsemble::predict(double base, double learning_rate, const std::vector<double>& features) const {
  double sum = base;
  for (const std::int32_t root : roots_) {
    const Node* node = &nodes_[root];
    while (node->feature >= 0)
      node = features[node->feature] < node->threshold_or_value ? node + 1 : &nodes_[node->right];
    sum += learning_rate * node->threshold_or_value;
  }
  return sum;
}

double KernelModel::predict_log2_slowdown(const std::vector<double>& features) const {
  return trees.predict(base, learning_rate, features);
}

bool SelectorModel::trained_near(const KernelModel& kernel, const std::vector<double>& features) const {
  for (const int i : kernel.features) {
    if (features[i] < kernel.feature_min[i] - range_slack && !open_below[i]) return false;
    if (features[i] > kernel.feature_max[i] + range_slack && !open_above[i]) return false;
  }
  if (kernel.near_points.empty()) return true;
  const std::size_t dimensions = near_features.size();
  for (std::size_t point = 0; point < kernel.near_points.size(); point += dimensions) {
    std::size_t j = 0;
    while (j < dimensions && std::abs(features[near_features[j]] - kernel.near_points[point + j]) <= near_slack) ++j;
    if (j == dimensions) return true;
  }
  return false;
}

namespace {

const char* const model_source = "selector model";

[[noreturn]] void fail(const std::string& problem) { throw ParseError(model_source, 0, problem); }

// The model file's JSON, read in one pass straight into the model. The
// built-in model is about 90,000 numbers: nlohmann's parser took 13-17 ms
// over them, all of it in the first plan of every process; from_chars takes
// about 2 ms on one thread (5.9 ms on the GPU machine's host), so the
// kernels, which are most of the text, are read in parallel (array_elements).
// Keys may come in any order; keys the model does not use are skipped.
class ModelText {
 public:
  explicit ModelText(const std::string& text)
      : at_(text.data()), begin_(text.data()), end_(text.data() + text.size()) {}

  // Calls on_key(key) for each key of an object, with the text at its value
  // (which on_key must read or skip).
  template <class OnKey>
  void object(OnKey on_key) {
    expect('{');
    if (take('}')) return;
    do {
      const std::string key = string();
      expect(':');
      on_key(key);
    } while (take(','));
    expect('}');
  }
  // Calls on_element() for each element of an array, with the text at it.
  template <class OnElement>
  void array(OnElement on_element) {
    expect('[');
    if (take(']')) return;
    do on_element();
    while (take(','));
    expect(']');
  }
  double number() {
    space();
    if (at_ == end_ || !(*at_ == '-' || (*at_ >= '0' && *at_ <= '9'))) fail_here("a number");
    double value = 0;
    const auto [next, error] = std::from_chars(at_, end_, value);
    if (error != std::errc()) fail_here("a number");
    at_ = next;
    return value;
  }
  int integer() {
    const double value = number();
    if (!(value >= INT_MIN && value <= INT_MAX) || value != static_cast<int>(value)) fail_here("an integer");
    return static_cast<int>(value);
  }
  template <class V>
  std::vector<V> numbers() {
    std::vector<V> values;
    array([&] {
      if constexpr (std::is_same_v<V, int>)
        values.push_back(integer());
      else
        values.push_back(number());
    });
    return values;
  }
  std::vector<std::string> strings() {
    std::vector<std::string> values;
    array([&] { values.push_back(string()); });
    return values;
  }
  // A string without escapes other than \" and \\ (the model's names).
  std::string string() {
    expect('"');
    std::string value;
    while (at_ != end_ && *at_ != '"') {
      if (*at_ == '\\') {
        if (++at_ == end_ || (*at_ != '"' && *at_ != '\\')) fail_here("an escape of \" or \\ only");
      }
      value.push_back(*at_++);
    }
    expect('"');
    return value;
  }
  // Any value, unread: a key the model does not use.
  void skip() {
    space();
    if (at_ == end_) fail_here("a value");
    if (*at_ == '{') return object([&](const std::string&) { skip(); });
    if (*at_ == '[') return array([&] { skip(); });
    if (*at_ == '"') return static_cast<void>(string());
    for (const char* literal : {"true", "false", "null"}) {
      const std::size_t length = std::strlen(literal);
      if (static_cast<std::size_t>(end_ - at_) >= length && std::strncmp(at_, literal, length) == 0) {
        at_ += length;
        return;
      }
    }
    number();
  }
  void finish() {
    space();
    if (at_ != end_) fail_here("the end of the text");
  }
  // The text of each element of an array, found by matching brackets and
  // quotes alone (no number is read), so that the elements can be read
  // apart; each must then be read to its end (finish()).
  std::vector<ModelText> array_elements() {
    std::vector<ModelText> elements;
    array([&] {
      space();
      const char* start = at_;
      pass_value();
      elements.push_back(ModelText(start, at_, begin_));
    });
    return elements;
  }

 private:
  // A part [at, end) of the text that starts at `begin` (error positions count from there).
  ModelText(const char* at, const char* end, const char* begin) : at_(at), begin_(begin), end_(end) {}

  // Past one value, unread: up to the bracket that closes the one it opens,
  // or, for a value without brackets, up to the next ',', ']' or '}' outside
  // quotes. Unbalanced text runs to the end, where the caller's expect() fails.
  void pass_value() {
    // Most of the text is numbers and commas: inside brackets, a table skips
    // all but quotes and brackets without a branch per kind of character.
    static const auto quote_or_bracket = [] {
      std::array<bool, 256> table{};
      for (const unsigned char c : std::string_view("\"{}[]")) table[c] = true;
      return table;
    }();
    int depth = 0;
    while (at_ != end_) {
      if (depth > 0)
        while (at_ != end_ && !quote_or_bracket[static_cast<unsigned char>(*at_)]) ++at_;
      if (at_ == end_) return;
      const char c = *at_;
      if (c == '"') {
        for (++at_; at_ != end_ && *at_ != '"'; ++at_)
          if (*at_ == '\\' && at_ + 1 != end_) ++at_;
        if (at_ != end_) ++at_;
        continue;
      }
      if (depth == 0 && (c == ',' || c == ']' || c == '}')) return;
      if (c == '{' || c == '[') ++depth;
      if ((c == '}' || c == ']') && --depth == 0) {
        ++at_;
        return;
      }
      ++at_;
    }
  }

  void space() {
    while (at_ != end_ && (*at_ == ' ' || *at_ == '\n' || *at_ == '\r' || *at_ == '\t')) ++at_;
  }
  bool take(char c) {
    space();
    if (at_ == end_ || *at_ != c) return false;
    ++at_;
    return true;
  }
  void expect(char c) {
    if (!take(c)) fail_here(std::string("'") + c + "'");
  }
  [[noreturn]] void fail_here(const std::string& wanted) const {
    fail("expected " + wanted + " at byte " + std::to_string(at_ - begin_));
  }

  const char* at_;
  const char* begin_;
  const char* end_;
};

// How to read the value of each key an object must have.
using KeyReaders = std::vector<std::pair<const char*, std::function<void()>>>;

// Reads an object whose keys are those of `readers` (each must come) and of
// `optional` (each may); other keys are skipped.
void read_object(ModelText& text, const char* what, const KeyReaders& readers, const KeyReaders& optional = {}) {
  std::vector<bool> seen(readers.size(), false);
  text.object([&](const std::string& key) {
    const auto named = [&](const auto& r) { return key == r.first; };
    const auto found = std::find_if(readers.begin(), readers.end(), named);
    if (found != readers.end()) {
      seen[found - readers.begin()] = true;
      return found->second();
    }
    const auto may = std::find_if(optional.begin(), optional.end(), named);
    if (may != optional.end()) return may->second();
    text.skip();
  });
  for (std::size_t i = 0; i < readers.size(); ++i)
    if (!seen[i]) fail(std::string(what) + " has no '" + readers[i].first + "'");
}

// Reads a tree of the file into `trees`, marking the features it splits on in
// `split_on`. Children come after their parent, so every walk from the root
// ends, and have one parent each, so the packed tree is no larger than the
// file's.
void read_tree(ModelText& text, std::size_t feature_count, TreeEnsemble& trees, std::vector<bool>& split_on) {
  std::vector<int> feature, left, right;
  std::vector<double> threshold, value;
  read_object(text, "a tree",
              {{"value", [&] { value = text.numbers<double>(); }},
               {"feature", [&] { feature = text.numbers<int>(); }},
               {"threshold", [&] { threshold = text.numbers<double>(); }},
               {"left", [&] { left = text.numbers<int>(); }},
               {"right", [&] { right = text.numbers<int>(); }}});
  const std::size_t nodes = value.size();
  if (nodes == 0) fail("a tree has an empty 'value' array");
  if (feature.size() != nodes || threshold.size() != nodes || left.size() != nodes || right.size() != nodes)
    fail("a tree's arrays have different lengths");
  std::vector<bool> has_parent(nodes, false);
  for (std::size_t i = 0; i < nodes; ++i) {
    if (feature[i] < 0) continue;
    const auto child_ok = [&](int child) { return child > static_cast<int>(i) && child < static_cast<int>(nodes); };
    if (static_cast<std::size_t>(feature[i]) >= feature_count || !child_ok(left[i]) || !child_ok(right[i]))
      fail("tree node " + std::to_string(i) + " has a feature or child out of range");
    for (const int child : {left[i], right[i]}) {
      if (has_parent[child]) fail("tree node " + std::to_string(child) + " is the child of two nodes");
      has_parent[child] = true;
    }
    split_on[feature[i]] = true;
  }
  trees.add_tree(feature, threshold, left, right, value);
}

// The indices in `names` of the features `listed`; a name not among them is an error.
std::vector<int> feature_indices(const std::vector<std::string>& names, const std::vector<std::string>& listed,
                                 const char* key) {
  std::vector<int> indices;
  for (const std::string& name : listed) {
    const auto found = std::find(names.begin(), names.end(), name);
    if (found == names.end()) fail(std::string("'") + key + "' names '" + name + "', which is not a feature");
    indices.push_back(static_cast<int>(found - names.begin()));
  }
  return indices;
}

// Per feature of `names`: whether `listed` names it; a name not among them is an error.
std::vector<bool> feature_flags(const std::vector<std::string>& names, const std::vector<std::string>& listed,
                                const char* key) {
  std::vector<bool> flags(names.size(), false);
  for (const int i : feature_indices(names, listed, key)) flags[i] = true;
  return flags;
}

ByteModel byte_model_from(const std::string& name) {
  if (name == "csr") return ByteModel::csr;
  if (name == "dense") return ByteModel::dense;
  fail("unknown byte_model '" + name + "' (csr or dense)");
}

// A kernel as read, with the length its near points share, if it has any
// (checked against the model's near_features once the whole file is read).
struct ReadKernel {
  KernelModel model;
  std::optional<std::size_t> near_point_length;
};

// The kernels come after "features" in the file (the trees' feature indices
// are checked against its length).
ReadKernel read_kernel(ModelText& text, const std::vector<std::string>& feature_names) {
  const std::size_t feature_count = feature_names.size();
  if (feature_count == 0) fail("'kernels' comes before 'features'");
  ReadKernel read;
  KernelModel& kernel = read.model;
  std::vector<std::string> own_features;
  std::vector<bool> split_on(feature_count, false);
  const auto read_near_point = [&] {
    const std::vector<double> point = text.numbers<double>();
    if (read.near_point_length && point.size() != *read.near_point_length)
      fail("kernel " + kernel.kernel + "'s near points differ in length");
    read.near_point_length = point.size();
    kernel.near_points.insert(kernel.near_points.end(), point.begin(), point.end());
  };
  read_object(text, "a kernel",
              {{"kernel", [&] { kernel.kernel = text.string(); }},
               {"backend", [&] { kernel.backend = backend_from_string(text.string().c_str()); }},
               {"format", [&] { kernel.format = text.string(); }},
               {"base", [&] { kernel.base = text.number(); }},
               {"learning_rate", [&] { kernel.learning_rate = text.number(); }},
               {"setup_seconds_per_nnz", [&] { kernel.setup_seconds_per_nnz = text.number(); }},
               {"setup_seconds_fixed", [&] { kernel.setup_seconds_fixed = text.number(); }},
               {"uncertainty_log2", [&] { kernel.uncertainty_log2 = text.number(); }},
               {"feature_min", [&] { kernel.feature_min = text.numbers<double>(); }},
               {"feature_max", [&] { kernel.feature_max = text.numbers<double>(); }},
               {"trees", [&] { text.array([&] { read_tree(text, feature_count, kernel.trees, split_on); }); }}},
              {{"params", [&] {
                 text.object([&](const std::string& name) { kernel.params[name] = text.integer(); });
               }},
               {"near_points", [&] { text.array(read_near_point); }},
               {"byte_model", [&] { kernel.byte_model = byte_model_from(text.string()); }},
               {"features", [&] { own_features = text.strings(); }}});
  if (kernel.feature_min.size() != feature_count || kernel.feature_max.size() != feature_count)
    fail("kernel " + kernel.kernel + "'s feature range has the wrong length");
  if (own_features.empty()) own_features = feature_names;  // not listed: it reads every feature
  kernel.features = feature_indices(feature_names, own_features, "features");
  for (std::size_t f = 0; f < feature_count; ++f)
    if (split_on[f] && std::find(kernel.features.begin(), kernel.features.end(), f) == kernel.features.end())
      fail("kernel " + kernel.kernel + "'s trees split on '" + feature_names[f] + "', which its 'features' leave out");
  return read;
}

}  // namespace

SelectorModel parse_selector_model(const std::string& text) {
  try {
    ModelText reader(text);
    SelectorModel model;
    std::string format;
    std::vector<std::string> open_below, open_above, near_features;
    // The kernels in parallel; the first bad one in file order is reported.
    // Text whose brackets or quotes do not match is read again in order, for
    // the byte where it first goes wrong (the matching only finds the end).
    std::vector<ReadKernel> kernels;  // into the model once near_features (which may come later) is known
    const auto read_kernels = [&] {
      const ModelText at_kernels = reader;
      std::vector<ModelText> texts;
      try {
        texts = reader.array_elements();
      } catch (const ParseError&) {
        reader = at_kernels;
        return reader.array([&] { kernels.push_back(read_kernel(reader, model.feature_names)); });
      }
      const auto count = static_cast<std::int64_t>(texts.size());
      kernels.resize(texts.size());
      std::vector<std::exception_ptr> errors(texts.size());
#pragma omp parallel for schedule(dynamic, 1) if (count > 1)
      for (std::int64_t k = 0; k < count; ++k) {
        try {
          kernels[k] = read_kernel(texts[k], model.feature_names);
          texts[k].finish();
        } catch (...) {
          errors[k] = std::current_exception();
        }
      }
      for (const std::exception_ptr& error : errors)
        if (error) std::rethrow_exception(error);
    };
    read_object(reader, "the model",
                {{"format", [&] { format = reader.string(); }},
                 {"architecture", [&] { model.architecture = reader.string(); }},
                 {"provenance", [&] { model.provenance = reader.string(); }},
                 {"features", [&] { model.feature_names = reader.strings(); }},
                 {"risk", [&] { model.risk = reader.number(); }},
                 {"vendor_margin", [&] { model.vendor_margin = reader.number(); }},
                 {"range_slack", [&] { model.range_slack = reader.number(); }},
                 {"open_below", [&] { open_below = reader.strings(); }},
                 {"open_above", [&] { open_above = reader.strings(); }},
                 {"kernels", read_kernels}},
                {{"near_features", [&] { near_features = reader.strings(); }},
                 {"near_slack", [&] { model.near_slack = reader.number(); }}});
    reader.finish();
    model.near_features = feature_indices(model.feature_names, near_features, "near_features");
    for (ReadKernel& read : kernels) {
      if (read.near_point_length && *read.near_point_length != model.near_features.size())
        fail("kernel " + read.model.kernel + " has near points of " + std::to_string(*read.near_point_length) +
             " values for " + std::to_string(model.near_features.size()) + " near_features");
      model.kernels.push_back(std::move(read.model));
    }
    model.open_below = feature_flags(model.feature_names, open_below, "open_below");
    model.open_above = feature_flags(model.feature_names, open_above, "open_above");
    if (format != "spmv-selector-model/2") fail("not an spmv-selector-model/2 file");
    if (!(model.risk >= 0) || !(model.range_slack >= 0) || !(model.near_slack >= 0) ||
        !(model.vendor_margin >= 0 && model.vendor_margin < 1))
      fail("risk, range_slack and near_slack must be >= 0 and vendor_margin in [0, 1)");
    return model;
  } catch (const InvalidArgument& e) {  // an unknown backend
    fail(e.what());
  }
}

namespace {

// The features this build computes for the product (any matrix gives their names).
const std::vector<std::string>& feature_names_of(ModelProduct product) {
  static const std::vector<std::string> spmv = selector_features(MatrixStats{}, 8, DeviceProperties{}).names;
  static const std::vector<std::string> spmm =
      selector_spmm_features(MatrixStats{}, 8, DeviceProperties{}, 2, Layout::row_major).names;
  return product == ModelProduct::spmv ? spmv : spmm;
}

const char* product_name(ModelProduct product) { return product == ModelProduct::spmv ? "SpMV" : "SpMM"; }

// A built-in model, parsed once by the caller's static; refused when its
// features are not this build's.
const SelectorModel& checked_builtin(const SelectorModel& model, ModelProduct product) {
  if (model.feature_names != feature_names_of(product))
    throw Unavailable(std::string("the built-in ") + (product == ModelProduct::spmv ? "selector" : "SpMM") +
                      " model was trained on other features than this build computes; retrain it with "
                      "scripts/train-selector.sh");
  return model;
}

// The built-in model is under 1 MB; a file a hundred times larger is no model of ours.
constexpr std::uintmax_t largest_model_file_bytes = std::uintmax_t{128} << 20;

// The text of the model file `path`, of `bytes` bytes by its directory entry.
std::string read_model_text(const std::string& path, std::uintmax_t bytes) {
  if (bytes > largest_model_file_bytes)
    throw ParseError(path, 0, "a selector model file of " + std::to_string(bytes) + " bytes (more than " +
                                  std::to_string(largest_model_file_bytes) + ") is not one");
  std::ifstream in(path, std::ios::binary);
  std::string text(static_cast<std::size_t>(bytes), '\0');
  if (!in || !in.read(text.data(), static_cast<std::streamsize>(bytes)) || in.gcount() != std::streamsize(bytes))
    throw IoError("selector model file '" + path + "': could not be read");
  return text;
}

}  // namespace

const SelectorModel& builtin_selector_model() {
  static const SelectorModel model = parse_selector_model(builtin_selector_model_text);
  return checked_builtin(model, ModelProduct::spmv);
}

const SelectorModel& builtin_spmm_model() {
  static const SelectorModel model = parse_selector_model(builtin_spmm_model_text);
  return checked_builtin(model, ModelProduct::spmm);
}

std::string selector_model_file(const PlanOptions& options, ModelProduct product) {
  const std::string& named = product == ModelProduct::spmv ? options.selector_model : options.spmm_selector_model;
  if (!named.empty()) return named;
  const char* variable = product == ModelProduct::spmv ? "SPMV_SELECTOR_MODEL" : "SPMV_SPMM_SELECTOR_MODEL";
  const char* from_environment = std::getenv(variable);
  return from_environment ? from_environment : "";
}

const SelectorModel& model_from_file(const std::string& path, ModelProduct product) {
  // Parsed models stay for the process (a plan holds no reference past
  // make_plan, but a rewritten file gets a new entry rather than replacing
  // one another thread may be ranking with).
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<const SelectorModel>> parsed;
  std::error_code error;
  const auto modified = std::filesystem::last_write_time(path, error);
  if (error) throw IoError("selector model file '" + path + "': " + error.message());
  const std::uintmax_t bytes = std::filesystem::file_size(path, error);
  if (error) throw IoError("selector model file '" + path + "': " + error.message());
  const std::string key = std::string(product_name(product)) + "|" + std::to_string(bytes) + "|" +
                          std::to_string(modified.time_since_epoch().count()) + "|" + path;
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto found = parsed.find(key); found != parsed.end()) return *found->second;
  SelectorModel model;
  try {
    model = parse_selector_model(read_model_text(path, bytes));
  } catch (const ParseError& e) {
    throw ParseError(path, 0, e.problem());
  }
  if (model.feature_names != feature_names_of(product))
    throw InvalidArgument("selector model file '" + path + "' is not an " + product_name(product) +
                          " model of this build: its features differ from the " +
                          std::to_string(feature_names_of(product).size()) +
                          " this build computes (retrain it with scripts/train-selector.sh)");
  return *parsed.emplace(key, std::make_unique<const SelectorModel>(std::move(model))).first->second;
}

PlanningModel planning_model(const PlanOptions& options, ModelProduct product) {
  const std::string file = selector_model_file(options, product);
  if (!file.empty()) return {&model_from_file(file, product), file};
  return {product == ModelProduct::spmv ? &builtin_selector_model() : &builtin_spmm_model(), builtin_model_name};
}

}  // namespace spmv::detail
