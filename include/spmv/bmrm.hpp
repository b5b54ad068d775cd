// BMRM: bundle methods for regularised risk minimisation (Teo, Vishwanathan,
// Smola & Le, JMLR 2010), the linear-classifier trainer of El Zein's thesis
// (chapter 5), over the library's public operator API.
//
//   auto data = spmv::read_libsvm<double>("a9a.libsvm");
//   spmv::BmrmOptions options;             // hinge, lambda 1e-5, epsilon 1e-4
//   options.plan.backend = spmv::Backend::cuda;
//   spmv::BmrmResult model = spmv::train_bmrm(data, options);
//   std::vector<double> labels = spmv::predict_labels(model, test.features);
//
// Problem: minimise J(w) = lambda/2 ||w||^2 + R(w), R(w) = (1/m) sum_i loss(y_i, x_i.w)
// over m labelled rows x_i (y_i in {-1, +1}). With the bias term each row
// gets an extra feature of value 1 whose weight is the bias; it is
// regularised like the other weights (as LIBLINEAR's -B 1 and BMRM's own
// bias option do).
//
// Iteration t: one product f = X w_t and one transposed product
// X^T c (c_i = the loss's derivative at row i, over m) give R(w_t) and a
// subgradient a_t of R at w_t; the plane R(w_t) + a_t.(w - w_t) joins the
// bundle, a piecewise linear lower bound of R. The next w minimises
// lambda/2 ||w||^2 + max_i (a_i.w + b_i), found through its dual
//
//   maximise  D(alpha) = b.alpha - 1/(2 lambda) alpha^T Q alpha  over the simplex,
//   Q = A A^T (the planes' Gram matrix, k x k),  w = -(1/lambda) A^T alpha.
//
// The dual is solved by a primal active-set method on the planes with
// weight (equality-constrained Newton solves of size |support| + 1, a
// plane entering or leaving per solve), warm-started from the previous alpha
// with the new plane's weight 0, and pairwise (SMO) steps (Fan, Chen & Lin
// 2005) where that method gives up (src/solvers/bmrm_qp.hpp); Q grows by one
// row per iteration (k dot products of length n), stored dense. The solver
// stops when the dual's own gap (the model's primal value at w(alpha) minus
// D(alpha), exact arithmetic on the k-vector) is below qp_tolerance *
// epsilon, so D(alpha) is a certified lower bound of min J within that
// margin. Cost per iteration: O(k |support|) plus O(|support|^3) per
// solve, O(k^2) memory and O(k n) for the planes (n features).
//
// Stopping (the thesis and BMRM's epsilonTol): epsilon_t = min_{s<=t} J(w_s) - D_t
// < epsilon, an upper bound on the sub-optimality of the best w seen, which
// is the w returned. Iterations count loss evaluations, w_0 = 0 included.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "spmv/io.hpp"
#include "spmv/operator.hpp"

namespace spmv {

enum class BmrmLoss {
  hinge,          // max(0, 1 - y f): the linear SVM
  squared_hinge,  // max(0, 1 - y f)^2
  logistic,       // log(1 + exp(-y f))
};
const char* to_string(BmrmLoss loss);  // "hinge", "sqhinge", "logistic"
BmrmLoss bmrm_loss_from_string(const std::string& name);  // throws InvalidArgument


struct BmrmOptions {
  BmrmLoss loss = BmrmLoss::hinge;
  double lambda = 1e-5;
  double epsilon = 1e-4;  // absolute gap min_s J(w_s) - D_t at which to stop
  int max_iterations = 10000;
  bool bias = false;
  // The operator's plan; expected_products is set from max_iterations (two
  // products per iteration) unless the caller changes it from the default.
  // On the cuda backend with no kernel named, BMRM plans X with
  // explicit_transpose: X and X^T each get the selector's kernel
  // (Plan::transposed, plan.hpp), X^T built on the device (its memory beside
  // X's). BMRM runs X^T c as often as X w, and X^T of a tall narrow X has a
  // few very long rows (kdd99-sized: 127 rows of 617,000), where X's kernel is
  // not the one to use. Until 2026-12-02 the default was COO on X and on X^T;
  // the products of an iteration are 2.0-5.9x faster now on four data sets
  // (H200, docs/applications.md).
  PlanOptions plan;
  // The dual QP is solved to a gap of qp_tolerance * epsilon.
  double qp_tolerance = 1e-3;
};

// The model's labels: the data's labels map to -1 and +1. Labels already
// +-1 map to themselves; 0/1 map 0 -> -1, 1 -> +1; any other two values map
// the smaller to -1.
struct LabelMapping {
  double negative = -1;
  double positive = 1;
};

// Seconds of each part of training (the thesis's Figure 5.1 breakdown; load
// is the caller's, filled by the CLI).
struct BmrmTimes {
  double load = 0;       // reading the data file (set by the caller)
  double convert = 0;    // value conversion, the bias column, labels, analysis
  double transpose = 0;  // the operator's build: formats and explicit A^T (plan)
  double copy = 0;       // host-device copies: the upload and every product's operands
  double compute = 0;    // products and the loss/subgradient (copies excluded)
  double qp = 0;         // the bundle's Gram rows and the dual QP
  double total() const { return load + convert + transpose + copy + compute + qp; }
};

struct BmrmResult {
  std::vector<double> w;  // one weight per feature (the bias excluded)
  double bias = 0;
  bool bias_term = false;  // trained with the bias feature (then bias is regularised)
  BmrmLoss loss = BmrmLoss::hinge;
  double lambda = 0;
  LabelMapping labels;
  int iterations = 0;
  bool converged = false;           // gap < epsilon before max_iterations
  double objective = 0;             // J at the returned w (the best seen)
  double gap = 0;                   // its last epsilon_t
  std::vector<double> objectives;   // J(w_t), t = 0..iterations-1
  std::vector<double> best_objectives;  // min_{s<=t} J(w_s)
  std::vector<double> gaps;         // epsilon_t (t >= 1; +infinity at t = 0)
  double training_accuracy = 0;     // fraction of rows classified right by w
  std::string kernel;               // the operator's kernel (describe())
  std::string transposed_kernel;    // X^T's kernel when planned apart from X's, else empty
  Backend backend = Backend::cpu;
  BmrmTimes times;
};

// Throws InvalidArgument for an empty data set, labels that are not two
// distinct values ("multi-class is not supported: labels 1,2,3"), a label
// count that differs from the rows, lambda <= 0, epsilon <= 0 or
// max_iterations < 1.
template <class T>
BmrmResult train_bmrm(const LabeledMatrix<T>& data, const BmrmOptions& options);

// The label mapping train_bmrm uses (and its errors).
LabelMapping label_mapping(const std::vector<double>& labels);

// Decision values x_i.w + bias of every row (features beyond the model's are
// ignored, as LIBLINEAR does), and the labels they give in the data's coding.
template <class T>
std::vector<double> decision_values(const BmrmResult& model, const Csr<T>& features);
std::vector<double> labels_of(const BmrmResult& model, const std::vector<double>& decisions);
// Fraction of decisions whose label equals `labels` (same coding as training).
double accuracy(const BmrmResult& model, const std::vector<double>& decisions,
                const std::vector<double>& labels);

// The primal objective lambda/2 ||w||^2 + (1/m) sum loss of a given model on
// `data` (the bias regularised when the model has one): how a model from
// another trainer (LIBLINEAR) is compared in the same scaling.
template <class T>
double bmrm_objective(const BmrmResult& model, const LabeledMatrix<T>& data);

// Model files: a small text format (the CLI's --model), documented in
// src/solvers/bmrm_model_file.cpp. Writing is whole or nothing; reading treats
// the file as hostile (ParseError "FILE:LINE: problem").
void write_bmrm_model(const std::string& path, const BmrmResult& model);
BmrmResult read_bmrm_model(const std::string& path);

}  // namespace spmv
