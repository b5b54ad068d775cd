// `spmv predict MODEL DATA [-o OUT] [--format F]`: the labels a BMRM model
// (spmv train --model) gives the rows of DATA, and the accuracy when DATA has
// labels (LIBSVM, or .spmv with its labels file) and the objective the model
// reaches on DATA. OUT gets one predicted label per line.
#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "cli_common.hpp"
#include "labeled_data.hpp"
#include "spmv/bmrm.hpp"

namespace spmv::cli {
namespace {

struct PredictOptions {
  std::string model;
  std::string data;
  std::string output;
  std::string format;
};

int run_predict(const PredictOptions& o) {
  const BmrmResult model = read_bmrm_model(o.model);
  const FileFormat format = input_format(o.data, o.format);
  const bool has_labels = format == FileFormat::libsvm ||
                          (format == FileFormat::binary && std::filesystem::exists(labels_path(o.data)));
  LabeledMatrix<double> data;
  if (has_labels)
    data = read_labeled_data<double>(o.data, format);
  else
    data.features = read_matrix<double>(o.data, format);
  const std::vector<double> decisions = decision_values(model, data.features);
  fmt::print("model       {} ({} loss, {} features{})\n", o.model, to_string(model.loss), model.w.size(),
             model.bias_term ? ", bias" : "");
  fmt::print("data        {} ({} rows)\n", o.data, data.features.rows);
  if (has_labels) {
    fmt::print("accuracy    {:.4f}%\n", 100 * accuracy(model, decisions, data.labels));
    // The objective the model would have had training on DATA: how models of
    // other trainers are compared (bench/bmrm_vs_liblinear.py).
    fmt::print("objective   {:.12g} (lambda/2 |w|^2 + mean {} loss on this data)\n",
               bmrm_objective(model, data), to_string(model.loss));
  }
  if (!o.output.empty()) {
    std::string text;
    for (double label : labels_of(model, decisions)) text += fmt::format("{}\n", label);
    write_text_file(o.output, text);
  }
  return exit_success;
}

}  // namespace

Command add_predict_command(CLI::App& app) {
  auto o = std::make_shared<PredictOptions>();
  CLI::App* c = app.add_subcommand("predict", "labels of a BMRM model (spmv train --model) for a data set");
  c->add_option("model", o->model, "model file written by spmv train --model")->required();
  c->add_option("data", o->data, "data: LIBSVM, .spmv (labels from its .labels file if present) or .mtx")
      ->required();
  c->add_option("-o,--output", o->output, "write one predicted label per line");
  add_input_format_option(*c, o->format);
  return {c, [o] { return run_predict(*o); }};
}

}  // namespace spmv::cli
