// BMRM training and prediction (see include/spmv/bmrm.hpp). The products run
// through a planned Operator like any user's, on vectors of a BmrmWorkspace
// where the operator runs (bmrm_workspace.hpp: the loss on the device for
// the cuda and cusparse backends); the bundle and the dual QP run on the
// host.
#include "spmv/bmrm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <set>

#include "solvers/bmrm_losses.hpp"
#include "solvers/bmrm_qp.hpp"
#include "solvers/bmrm_workspace.hpp"
#include "spmv/error.hpp"

namespace spmv {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

void check_options(const BmrmOptions& options) {
  if (!(options.lambda > 0) || !std::isfinite(options.lambda))
    throw InvalidArgument(fmt::format("bmrm: lambda must be a positive number, got {}", options.lambda));
  if (!(options.epsilon > 0) || !std::isfinite(options.epsilon))
    throw InvalidArgument(fmt::format("bmrm: epsilon must be a positive number, got {}", options.epsilon));
  if (options.max_iterations < 1)
    throw InvalidArgument(fmt::format("bmrm: max_iterations must be at least 1, got {}",
                                      options.max_iterations));
  if (!(options.qp_tolerance > 0))
    throw InvalidArgument(fmt::format("bmrm: qp_tolerance must be positive, got {}", options.qp_tolerance));
}

// The bundle: its planes (subgradients, the bias component last when there
// is one) and the dual of the subproblem over them.
class Bundle {
 public:
  explicit Bundle(double lambda) : lambda_(lambda), dual_(lambda) {}

  // Adds the plane R(w) + a.(v - w) of the risk at w.
  void add(std::vector<double> subgradient, double risk, const std::vector<double>& w) {
    const double offset = risk - dot(subgradient, w);
    planes_.push_back(std::move(subgradient));
    dual_.add_plane(offset, gram_row());
  }
  // Solves the dual; returns D(alpha) and writes w = -(1/lambda) A^T alpha.
  double minimise(double tolerance, std::vector<double>& w) {
    dual_.solve(tolerance);
    const std::vector<double>& alpha = dual_.alpha();
    std::vector<std::size_t> support;
    for (std::size_t l = 0; l < planes_.size(); ++l)
      if (alpha[l] != 0) support.push_back(l);
    const std::int64_t n = static_cast<std::int64_t>(w.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
      double sum = 0;
      for (std::size_t l : support) sum += -alpha[l] / lambda_ * planes_[l][i];
      w[i] = sum;
    }
    return dual_.dual_value();
  }

 private:
  // The newest plane's dot products with every plane (its own last). The
  // work is split into fixed (entry chunk, plane block) tiles whose sums are
  // added in chunk order, so the result does not depend on the thread
  // count, and both many short planes (a9a: 2,000 of 123) and few long ones
  // (news20-sized: 1.4M entries) keep every thread busy.
  std::vector<double> gram_row() const {
    constexpr std::int64_t chunk = 8192, plane_block = 64;
    const std::int64_t k = static_cast<std::int64_t>(planes_.size());
    const std::vector<double>& newest = planes_.back();
    const std::int64_t n = static_cast<std::int64_t>(newest.size());
    const std::int64_t chunks = std::max<std::int64_t>(1, (n + chunk - 1) / chunk);
    const std::int64_t blocks = (k + plane_block - 1) / plane_block;
    std::vector<double> partial(static_cast<std::size_t>(chunks * k), 0.0);
#pragma omp parallel for collapse(2) schedule(dynamic, 1)
    for (std::int64_t c = 0; c < chunks; ++c)
      for (std::int64_t b = 0; b < blocks; ++b) {
        const std::int64_t begin = c * chunk, end = std::min(n, begin + chunk);
        for (std::int64_t l = b * plane_block; l < std::min(k, (b + 1) * plane_block); ++l) {
          const std::vector<double>& plane = planes_[l];
          double sum = 0;
          for (std::int64_t i = begin; i < end; ++i) sum += newest[i] * plane[i];
          partial[c * k + l] = sum;
        }
      }
    std::vector<double> row(static_cast<std::size_t>(k), 0.0);
    for (std::int64_t c = 0; c < chunks; ++c)
      for (std::int64_t l = 0; l < k; ++l) row[l] += partial[c * k + l];
    return row;
  }

  double lambda_;
  std::vector<std::vector<double>> planes_;
  bmrm_detail::BundleDual dual_;
};

bool runs_on_device(Backend backend) { return backend == Backend::cuda || backend == Backend::cusparse; }

template <class T>
std::unique_ptr<detail::BmrmWorkspace<T>> make_workspace(Backend backend, const std::vector<T>& y, index_t n,
                                                         [[maybe_unused]] StreamHandle stream) {
  if (!runs_on_device(backend)) return detail::make_host_bmrm_workspace(y, n);
#ifdef SPMV_HAVE_CUDA
  return detail::make_device_bmrm_workspace(y, n, stream);  // after the operator's products, on its stream
#else
  throw Unavailable(std::string("bmrm: the ") + to_string(backend) + " backend is not in this build");
#endif
}

}  // namespace

const char* to_string(BmrmLoss loss) {
  switch (loss) {
    case BmrmLoss::hinge: return "hinge";
    case BmrmLoss::squared_hinge: return "sqhinge";
    case BmrmLoss::logistic: return "logistic";
  }
  return "?";
}

BmrmLoss bmrm_loss_from_string(const std::string& name) {
  for (BmrmLoss loss : {BmrmLoss::hinge, BmrmLoss::squared_hinge, BmrmLoss::logistic})
    if (name == to_string(loss)) return loss;
  throw InvalidArgument("unknown loss '" + name + "' (losses: hinge, sqhinge, logistic)");
}

LabelMapping label_mapping(const std::vector<double>& labels) {
  std::set<double> distinct;
  for (double label : labels) {
    if (!std::isfinite(label)) throw InvalidArgument(fmt::format("bmrm: label {} is not finite", label));
    distinct.insert(label);
  }
  if (distinct.size() != 2) {
    std::string listed;
    int shown = 0;
    for (double label : distinct) {
      if (shown++ == 10) {
        listed += ",...";
        break;
      }
      listed += fmt::format("{}{}", listed.empty() ? "" : ",", label);
    }
    if (distinct.size() > 2)
      throw InvalidArgument(fmt::format(
          "multi-class is not supported: labels {} ({} distinct; BMRM trains a binary classifier)",
          listed, distinct.size()));
    throw InvalidArgument("bmrm: the labels need two classes, found " +
                          (listed.empty() ? std::string("no rows") : "only label " + listed));
  }
  return {*distinct.begin(), *distinct.rbegin()};  // -1/+1 and 0/1 included: smaller is negative
}

template <class T>
BmrmResult train_bmrm(const LabeledMatrix<T>& data, const BmrmOptions& options) {
  check_options(options);
  const Csr<T>& x = data.features;
  if (data.labels.size() != static_cast<std::size_t>(x.rows))
    throw InvalidArgument(fmt::format("bmrm: {} labels for {} rows", data.labels.size(), x.rows));
  BmrmResult result;
  result.loss = options.loss;
  result.lambda = options.lambda;
  result.bias_term = options.bias;

  auto start = Clock::now();
  result.labels = label_mapping(data.labels);
  const std::int64_t m = x.rows;
  const std::size_t n = static_cast<std::size_t>(x.cols);
  std::vector<T> y(m);
  for (std::int64_t i = 0; i < m; ++i) y[i] = data.labels[i] == result.labels.positive ? T(1) : T(-1);
  result.times.convert = seconds_since(start);

  start = Clock::now();
  PlanOptions plan_options = options.plan;
  if (plan_options.expected_products == default_expected_products)
    plan_options.expected_products = 2.0 * options.max_iterations;
  if (plan_options.backend == Backend::cuda && plan_options.kernel.empty()) plan_options.explicit_transpose = true;
  const std::unique_ptr<Operator<T>> op = plan(x, plan_options);
  const double plan_seconds = seconds_since(start);
  const OperatorDescription description = op->describe();
  result.kernel = description.kernel;
  if (description.transposed) result.transposed_kernel = description.transposed->kernel;
  result.backend = description.backend;
  result.times.transpose = description.build_seconds;
  result.times.copy = description.upload_seconds;
  result.times.convert += std::max(0.0, plan_seconds - description.build_seconds - description.upload_seconds);

  start = Clock::now();
  const bool on_device = runs_on_device(result.backend);
  const auto workspace = make_workspace(result.backend, y, x.cols, op->stream());
  // The device's: its vectors and the labels' upload; the host's: allocation.
  (on_device ? result.times.copy : result.times.convert) += seconds_since(start);

  const std::size_t dims = n + (options.bias ? 1 : 0);
  std::vector<double> w(dims, 0.0);
  Bundle bundle(options.lambda);
  double best = std::numeric_limits<double>::infinity();
  std::vector<double> best_w = w;
  std::int64_t best_correct = 0;
  double gap = std::numeric_limits<double>::infinity();
  // Host backends convert w and the subgradient in place: compute, not copy.
  double& transfer_seconds = on_device ? result.times.copy : result.times.compute;

  for (int t = 0; t < options.max_iterations; ++t) {
    // The risk and a subgradient at w: X w, the loss, X^T c.
    start = Clock::now();
    workspace->load_weights(w);
    transfer_seconds += seconds_since(start);
    start = Clock::now();
    op->apply(workspace->weights(), workspace->margins());
    workspace->queue_risk(options.loss, options.bias ? w[n] : 0.0);
    op->apply_transposed(workspace->coefficients(), workspace->gradient());
    workspace->wait();
    result.times.compute += seconds_since(start);
    start = Clock::now();
    std::vector<double> subgradient(dims);
    const bmrm_detail::RiskAndCoefficients risk = workspace->read_results(subgradient);
    if (options.bias) subgradient[n] = risk.coefficient_sum;
    transfer_seconds += seconds_since(start);

    const double objective = 0.5 * options.lambda * dot(w, w) + risk.risk;
    result.objectives.push_back(objective);
    if (objective < best) {
      best = objective;
      best_w = w;
      best_correct = risk.correct;
    }
    result.best_objectives.push_back(best);

    start = Clock::now();
    bundle.add(std::move(subgradient), risk.risk, w);
    const double lower_bound = bundle.minimise(options.qp_tolerance * options.epsilon, w);
    result.times.qp += seconds_since(start);

    gap = best - lower_bound;
    result.gaps.push_back(gap);
    result.iterations = t + 1;
    if (gap < options.epsilon) {
      result.converged = true;
      break;
    }
  }
  result.objective = best;
  result.gap = gap;
  result.training_accuracy = static_cast<double>(best_correct) / static_cast<double>(m);
  result.bias = options.bias ? best_w[n] : 0.0;
  best_w.resize(n);
  result.w = std::move(best_w);
  return result;
}

template <class T>
std::vector<double> decision_values(const BmrmResult& model, const Csr<T>& features) {
  std::vector<double> decisions(features.rows);
  const index_t known = static_cast<index_t>(model.w.size());
#pragma omp parallel for schedule(static)
  for (index_t r = 0; r < features.rows; ++r) {
    double sum = model.bias;
    for (index_t e = features.row_ptr[r]; e < features.row_ptr[r + 1]; ++e)
      if (features.col_idx[e] < known) sum += model.w[features.col_idx[e]] * static_cast<double>(features.values[e]);
    decisions[r] = sum;
  }
  return decisions;
}

std::vector<double> labels_of(const BmrmResult& model, const std::vector<double>& decisions) {
  std::vector<double> labels(decisions.size());
  for (std::size_t i = 0; i < decisions.size(); ++i)
    labels[i] = decisions[i] > 0 ? model.labels.positive : model.labels.negative;
  return labels;
}

double accuracy(const BmrmResult& model, const std::vector<double>& decisions,
                const std::vector<double>& labels) {
  if (decisions.size() != labels.size())
    throw InvalidArgument(fmt::format("accuracy: {} decisions for {} labels", decisions.size(), labels.size()));
  if (labels.empty()) return 0;
  const std::vector<double> predicted = labels_of(model, decisions);
  std::size_t right = 0;
  for (std::size_t i = 0; i < labels.size(); ++i) right += predicted[i] == labels[i] ? 1 : 0;
  return static_cast<double>(right) / static_cast<double>(labels.size());
}

template <class T>
double bmrm_objective(const BmrmResult& model, const LabeledMatrix<T>& data) {
  if (data.labels.size() != static_cast<std::size_t>(data.features.rows))
    throw InvalidArgument(fmt::format("bmrm_objective: {} labels for {} rows", data.labels.size(),
                                      data.features.rows));
  const std::vector<double> decisions = decision_values(model, data.features);
  double risk = 0;
  for (std::size_t i = 0; i < decisions.size(); ++i) {
    const double y = data.labels[i] == model.labels.positive ? 1.0 : -1.0;
    risk += bmrm_detail::loss_value(model.loss, y, decisions[i]);
  }
  const double norm = dot(model.w, model.w) + (model.bias_term ? model.bias * model.bias : 0.0);
  return 0.5 * model.lambda * norm + (decisions.empty() ? 0.0 : risk / decisions.size());
}

template BmrmResult train_bmrm<float>(const LabeledMatrix<float>&, const BmrmOptions&);
template BmrmResult train_bmrm<double>(const LabeledMatrix<double>&, const BmrmOptions&);
template std::vector<double> decision_values<float>(const BmrmResult&, const Csr<float>&);
template std::vector<double> decision_values<double>(const BmrmResult&, const Csr<double>&);
template double bmrm_objective<float>(const BmrmResult&, const LabeledMatrix<float>&);
template double bmrm_objective<double>(const BmrmResult&, const LabeledMatrix<double>&);

}  // namespace spmv
