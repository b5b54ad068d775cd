// Internal: the trained selector model (src/select/models/, embedded in the
// library at build time). For each kernel it has gradient-boosted regression
// trees that predict log2 of the kernel's time per product as a multiple of
// the CSR byte model at copy bandwidth (csr_product_bytes / copy bandwidth),
// and a linear setup model (build and upload seconds per non-zero).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "select/features.hpp"
#include "spmv/operator.hpp"
#include "spmv/types.hpp"

namespace spmv::detail {

// A kernel's boosted regression trees, packed for a walk that touches few
// cache lines: a plan mostly finds them out of cache, where a tree per
// allocation with an array per field took 1.3-2x as long. Every tree's nodes
// are in preorder, so that a split's left child is the node after it, and
// all the trees are in one array.
class TreeEnsemble {
 public:
  struct Node {
    double threshold_or_value;  // a split's threshold, a leaf's prediction
    std::int32_t feature;       // the split's feature index; -1 for a leaf
    std::int32_t right;         // a split's right child (index in nodes)
  };

  // Appends a tree given as the model file has it: node i splits on
  // feature[i] < threshold[i] (left[i]) or not (right[i]), or is a leaf
  // (feature[i] == -1) predicting value[i]; node 0 is the root. The nodes
  // reachable from the root must form a tree whose children come after their
  // parent (the caller checks the indices are in range).
  void add_tree(const std::vector<int>& feature, const std::vector<double>& threshold, const std::vector<int>& left,
                const std::vector<int>& right, const std::vector<double>& value);

  // base + learning_rate * each tree's prediction, added tree after tree.
  double predict(double base, double learning_rate, const std::vector<double>& features) const;

  std::size_t tree_count() const { return roots_.size(); }

 private:
  std::vector<Node> nodes_;
  std::vector<std::int32_t> roots_;
};

// The bytes a kernel's time is predicted over (at copy bandwidth): the CSR's
// (csr_product_bytes, spmm_product_bytes) or a dense copy's
// (dense_product_bytes), which dense-cublas reads whatever the sparsity.
enum class ByteModel { csr, dense };

struct KernelModel {
  std::string kernel;
  Backend backend = Backend::cuda;
  std::string format;
  ByteModel byte_model = ByteModel::csr;
  // The features (indices) its trees split on and its range guard checks:
  // those the model file lists for it, else every feature.
  std::vector<int> features;
  double base = 0;  // log2 of the time multiple before the trees
  double learning_rate = 1;
  TreeEnsemble trees;
  double setup_seconds_per_nnz = 0;
  double setup_seconds_fixed = 0;
  double uncertainty_log2 = 0;  // root mean square miss of the fit on its training data
  std::vector<double> feature_min;  // the features' range in its training data
  std::vector<double> feature_max;
  // The training units' values of the model's near_features, point after
  // point in one array (empty: the kernel is not held to the nearness guard).
  std::vector<double> near_points;
  // The parameters the selector builds it with (the kernel's defaults for
  // the rest): e.g. csr-hub's hub_min_share, below which it hands the matrix
  // to csr-adaptive.
  KernelParams params;

  // log2(time / (its byte model's bytes / copy bandwidth))
  double predict_log2_slowdown(const std::vector<double>& features) const;
};

struct SelectorModel {
  std::string architecture;  // e.g. "sm_90"
  std::string provenance;    // the measurements it was trained on
  std::vector<std::string> feature_names;
  std::vector<KernelModel> kernels;
  // The choice rule (bench/train_selector.py choose() is the same): a product
  // is predicted 2^(risk * uncertainty_log2) times the fit, and a kernel of
  // ours replaces the cheapest cuSPARSE one only when predicted
  // vendor_margin cheaper; a kernel of ours is not a candidate for a matrix
  // more than range_slack outside the features it was trained on (the trees
  // extrapolate flat there), so cuSPARSE is the fallback for the unfamiliar,
  // except beyond an open end of a feature's range.
  double risk = 0;
  double vendor_margin = 0;
  double range_slack = 0;
  // Per feature: whether the range is open below or above, where a value
  // beyond every training matrix's changes nothing physical (x smaller than
  // any trained is still in cache); flat extrapolation is then right.
  std::vector<bool> open_below;
  std::vector<bool> open_above;
  // The nearness guard: a kernel with near_points is a candidate only within
  // near_slack of one of them in the largest difference over these features
  // (their indices): the range guard checks each feature alone, and a matrix
  // can lie inside every range and far from every training unit.
  std::vector<int> near_features;
  double near_slack = 0;

  // Whether `features` lie within `kernel`'s training range widened by
  // range_slack, or beyond it only at an open end, and near one of its
  // near_points.
  bool trained_near(const KernelModel& kernel, const std::vector<double>& features) const;
};

// The built-in models' texts (generated from src/select/models/ at build
// time): the SpMV's, and the SpMM's, whose features add the product's
// (selector_spmm_features) and whose kernels are the SpMM kernels.
extern const char* const builtin_selector_model_text;
extern const char* const builtin_spmm_model_text;

// Parses a model file's text; throws ParseError naming what is wrong.
SelectorModel parse_selector_model(const std::string& text);

// The model built into this library (parsed once). Throws Unavailable when
// its feature list is not this build's (a model trained by another version).
const SelectorModel& builtin_selector_model();
// The same for the SpMM model.
const SelectorModel& builtin_spmm_model();

// Which product a model ranks kernels for: the SpMV's features or the SpMM's.
enum class ModelProduct { spmv, spmm };

// How a plan names the model built into the library (Plan::selector_model).
inline constexpr const char* builtin_model_name = "built-in";

// The model a plan ranks its candidates with, and how the plan names it.
struct PlanningModel {
  const SelectorModel* model = nullptr;
  std::string name;  // builtin_model_name or the file's path
};

// The model file that PlanOptions::selector_model (spmm_selector_model),
// else $SPMV_SELECTOR_MODEL ($SPMV_SPMM_SELECTOR_MODEL) names for the
// product; empty: the built-in model.
std::string selector_model_file(const PlanOptions& options, ModelProduct product);

// The model of the file `path` for the product, read and parsed once per
// process for each path, size and modification time. Throws IoError when it
// cannot be read, ParseError naming the file where it is malformed, and
// InvalidArgument when its features are not this build's for the product.
const SelectorModel& model_from_file(const std::string& path, ModelProduct product);

// The file's model where the options name one, else the built-in one (which
// throws Unavailable as above).
PlanningModel planning_model(const PlanOptions& options, ModelProduct product);

}  // namespace spmv::detail
