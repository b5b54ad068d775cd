// `spmv convert IN -o OUT [--format F] [--precision f32|f64] [--reorder M]`:
// rewrites a matrix in the format of OUT's extension, reordered by M when
// given (the labels of a LIBSVM file follow their rows). LIBSVM to LIBSVM
// keeps the labels, LIBSVM to .spmv keeps them in OUT.labels (labeled_data.hpp);
// LIBSVM output from another format gets label 0 on every row.
#include <fmt/format.h>

#include <memory>

#include "cli_common.hpp"
#include "labeled_data.hpp"
#include "spmv/reorder.hpp"

namespace spmv::cli {
namespace {

struct ConvertOptions {
  std::string input;
  std::string output;
  std::string format;
  std::string precision = "f64";
  std::string reorder = "none";
};

// Reorders the matrix and its labels (label i belongs to row i).
void reorder_in_place(LabeledMatrix<double>& data, Reordering method) {
  const MatrixOrdering ordering = compute_ordering(data.features, method);
  data.features = reorder(data.features, ordering);
  if (!data.labels.empty() && !ordering.row_order.empty()) {
    std::vector<double> labels(data.labels.size());
    for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = data.labels[ordering.row_order[i]];
    data.labels = std::move(labels);
  }
  fmt::print("reordered by {} in {:.3f} s\n", to_string(method), ordering.seconds);
}

// The labels are written by LIBSVM output and by .spmv output (in its labels
// file, labeled_data.hpp), and only when the input had them.
template <class T>
void write_converted(const std::string& path, FileFormat format, const LabeledMatrix<T>& data) {
  if (!data.labels.empty())
    write_labeled_data(path, format, data);
  else
    write_matrix(path, data.features);
}

int run_convert(const ConvertOptions& options) {
  const FileFormat in_format = input_format(options.input, options.format);
  const FileFormat out_format = file_format_from_path(options.output);
  LabeledMatrix<double> data;
  if (in_format == FileFormat::libsvm)
    data = read_libsvm<double>(options.input);
  else
    data.features = read_matrix<double>(options.input, in_format);
  const Reordering method = reordering_from_string(options.reorder);
  if (method != Reordering::none) reorder_in_place(data, method);
  if (options.precision == "f32")
    write_converted(options.output, out_format,
                    LabeledMatrix<float>{cast<float>(data.features), data.labels});
  else
    write_converted(options.output, out_format, data);
  const Csr<double>& a = data.features;
  fmt::print("wrote {} ({}, {}): {} x {}, {} non-zeros\n", options.output, to_string(out_format),
             options.precision, a.rows, a.cols, a.nnz());
  return exit_success;
}

}  // namespace

Command add_convert_command(CLI::App& app) {
  auto options = std::make_shared<ConvertOptions>();
  CLI::App* command = app.add_subcommand(
      "convert",
      "convert a matrix file; formats by extension (.mtx, .mtx.gz, .libsvm, .svm, .spmv)");
  command->add_option("input", options->input, "input file")->required();
  command->add_option("-o,--output", options->output, "output file")->required();
  add_input_format_option(*command, options->format);
  command
      ->add_option("--precision", options->precision,
                   "value type written: f64 (default) or f32 (rounds the values)")
      ->check(CLI::IsMember({"f32", "f64"}));
  add_reorder_option(*command, options->reorder, "write the matrix reordered");
  return {command, [options] { return run_convert(*options); }};
}

}  // namespace spmv::cli
