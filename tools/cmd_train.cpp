// `spmv train DATA [--test FILE] --loss hinge|sqhinge|logistic --lambda L
// --epsilon E [--bias] [--max-iter N] [--backend auto|cpu|cuda|cusparse]
// [--precision f32|f64] [--kernel NAME] [--explicit-transpose] [--model OUT]
// [--json OUT]`:
// trains a linear classifier by BMRM (spmv/bmrm.hpp) on LIBSVM data or the
// .spmv cache with its labels file, and prints the iterations, objective,
// gap, accuracies and the thesis's time breakdown.
#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "labeled_data.hpp"
#include "spmv/bmrm.hpp"
#include "spmv/version.hpp"

namespace spmv::cli {
namespace {

struct TrainOptions {
  std::string data;
  std::string test;
  std::string format;
  std::string loss = "hinge";
  double lambda = 1e-5;
  double epsilon = 1e-4;
  bool bias = false;
  int max_iterations = 10000;
  std::string backend = "auto";
  std::string precision = "f64";
  std::string kernel;
  bool explicit_transpose = false;
  std::string model;
  std::string json;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

nlohmann::ordered_json times_json(const BmrmTimes& times) {
  return {{"load", times.load},       {"convert", times.convert}, {"transpose", times.transpose},
          {"copy", times.copy},       {"compute", times.compute}, {"qp", times.qp},
          {"total", times.total()}};
}

template <class T>
int run_train(const TrainOptions& o) {
  const auto load_start = std::chrono::steady_clock::now();
  const LabeledMatrix<T> data = read_labeled_data<T>(o.data, input_format(o.data, o.format));
  const double load_seconds = seconds_since(load_start);
  LabeledMatrix<T> test;
  if (!o.test.empty()) test = read_labeled_data<T>(o.test, input_format(o.test, o.format));

  BmrmOptions options;
  options.loss = bmrm_loss_from_string(o.loss);
  options.lambda = o.lambda;
  options.epsilon = o.epsilon;
  options.bias = o.bias;
  options.max_iterations = o.max_iterations;
  options.plan.backend = o.backend == "auto" ? (cuda_available() ? Backend::cuda : Backend::cpu)
                                             : backend_from_string(o.backend.c_str());
  options.plan.kernel = o.kernel;
  options.plan.explicit_transpose = o.explicit_transpose;
  BmrmResult model = train_bmrm(data, options);
  model.times.load = load_seconds;
  std::optional<double> test_accuracy;
  if (!o.test.empty()) test_accuracy = accuracy(model, decision_values(model, test.features), test.labels);

  const Csr<T>& x = data.features;
  fmt::print("data        {} ({} x {}, {} non-zeros, {})\n", o.data, x.rows, x.cols, x.nnz(), o.precision);
  fmt::print("labels      {} -> -1, {} -> +1\n", model.labels.negative, model.labels.positive);
  fmt::print("problem     {} loss, lambda {}, epsilon {}, bias {}\n", to_string(model.loss), o.lambda,
             o.epsilon, o.bias ? "on" : "off");
  fmt::print("operator    {} {}{}\n", to_string(model.backend), model.kernel,
             !model.transposed_kernel.empty() ? ", X^T stored for " + model.transposed_kernel
             : o.explicit_transpose          ? " (explicit transpose)"
                                             : "");
  fmt::print("iterations  {} ({})\n", model.iterations,
             model.converged ? "converged: gap < epsilon" : "stopped at --max-iter, not converged");
  fmt::print("objective   {:.10g}\ngap         {:.3e}\n", model.objective, model.gap);
  fmt::print("accuracy    training {:.4f}%", 100 * model.training_accuracy);
  if (test_accuracy) fmt::print(", test {:.4f}% ({} rows)", 100 * *test_accuracy, test.labels.size());
  fmt::print("\n\n{:<10} {:>10} {:>7}\n", "part", "seconds", "share");
  const BmrmTimes& t = model.times;
  const std::pair<const char*, double> parts[] = {{"load", t.load},       {"convert", t.convert},
                                                  {"transpose", t.transpose}, {"copy", t.copy},
                                                  {"compute", t.compute}, {"qp", t.qp}};
  for (const auto& [name, seconds] : parts)
    fmt::print("{:<10} {:>10.4f} {:>6.1f}%\n", name, seconds, 100 * seconds / t.total());
  fmt::print("{:<10} {:>10.4f}\n", "total", t.total());

  if (!o.model.empty()) write_bmrm_model(o.model, model);
  if (!o.json.empty()) {
    nlohmann::ordered_json json = {
        {"data", o.data}, {"rows", x.rows}, {"cols", x.cols}, {"nnz", x.nnz()},
        {"precision", o.precision}, {"loss", to_string(model.loss)}, {"lambda", o.lambda},
        {"epsilon", o.epsilon}, {"bias", o.bias}, {"backend", to_string(model.backend)},
        {"kernel", model.kernel}, {"transposed_kernel", model.transposed_kernel},
        {"explicit_transpose", o.explicit_transpose},
        {"iterations", model.iterations}, {"converged", model.converged},
        {"objective", model.objective}, {"gap", model.gap},
        {"training_accuracy", model.training_accuracy},
        {"test", o.test}, {"test_accuracy", test_accuracy ? nlohmann::ordered_json(*test_accuracy) : nullptr},
        {"times", times_json(model.times)}, {"version", version_text()},
        {"objectives", model.objectives}, {"gaps", std::vector<double>(model.gaps.begin() + 1, model.gaps.end())}};
    write_text_file(o.json, json.dump(1) + "\n");
  }
  return exit_success;
}

}  // namespace

Command add_train_command(CLI::App& app) {
  auto o = std::make_shared<TrainOptions>();
  CLI::App* c = app.add_subcommand(
      "train", "train a linear classifier by BMRM on LIBSVM data (or .spmv with its .labels file)");
  c->add_option("data", o->data, "training data: LIBSVM (.libsvm, .svm, optionally .gz) or .spmv")->required();
  c->add_option("--test", o->test, "test data: accuracy of the trained model");
  add_input_format_option(*c, o->format);
  c->add_option("--loss", o->loss, "hinge (default, linear SVM), sqhinge or logistic")
      ->check(CLI::IsMember({"hinge", "sqhinge", "logistic"}));
  c->add_option("--lambda", o->lambda, "regularisation: lambda/2 |w|^2 + mean loss (default 1e-5)")
      ->check(CLI::PositiveNumber);
  c->add_option("--epsilon", o->epsilon, "stop when the gap min J - lower bound < epsilon (default 1e-4)")
      ->check(CLI::PositiveNumber);
  c->add_flag("--bias", o->bias, "add a bias term (a constant feature 1, regularised)");
  c->add_option("--max-iter", o->max_iterations, "most iterations (default 10000)")->check(CLI::Range(1, 1 << 30));
  c->add_option("--backend", o->backend, "auto (cuda when a GPU is usable, else cpu), cpu, cuda, cusparse, reference")
      ->check(CLI::IsMember({"auto", "cpu", "cuda", "cusparse", "reference"}));
  c->add_option("--precision", o->precision, "value type: f64 (default) or f32")->check(CLI::IsMember({"f32", "f64"}));
  c->add_option("--kernel", o->kernel,
                "the products' kernel (spmv kernels lists them); default: the plan's choice, on cuda one for X "
                "and one for an X^T stored on the device (spmv/bmrm.hpp)");
  c->add_flag("--explicit-transpose", o->explicit_transpose,
              "with --kernel (or a backend other than cuda): build X^T once for the transposed products, with "
              "the same kernel (on cuda without --kernel X^T is always stored, with a kernel of its own)");
  c->add_option("--model", o->model, "write the model (text; see spmv/bmrm.hpp)");
  c->add_option("--json", o->json, "write the results and histories as JSON");
  return {c, [o] { return o->precision == "f32" ? run_train<float>(*o) : run_train<double>(*o); }};
}

}  // namespace spmv::cli
