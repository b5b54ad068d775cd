// `spmv info FILE [--format F] [--json]`: reads a matrix file and prints its
// structural analysis (MatrixStats), plus the labels of a LIBSVM file.
#include <fmt/format.h>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "spmv/stats.hpp"

namespace spmv::cli {
namespace {

struct InfoOptions {
  std::string path;
  std::string format;
  bool json = false;
};

// Rows per distinct label value (LIBSVM only).
using LabelCounts = std::map<double, index_t>;

// Row-length histogram bucket k as a range: 0, 1, 2-3, 4-7, ...
std::string bucket_range(std::size_t bucket) {
  if (bucket <= 1) return std::to_string(bucket);
  const long long low = 1LL << (bucket - 1);
  return fmt::format("{}-{}", low, 2 * low - 1);
}

nlohmann::ordered_json to_json(const MatrixStats& s) {
  nlohmann::ordered_json blocks = nlohmann::ordered_json::array();
  for (const BlockDensity& b : s.block_density)
    blocks.push_back({{"block_rows", b.block_rows},
                      {"block_cols", b.block_cols},
                      {"occupied_blocks", b.occupied_blocks},
                      {"density", b.density}});
  return {{"rows", s.rows},
          {"cols", s.cols},
          {"nnz", s.nnz},
          {"row_length",
           {{"min", s.row_length.min},
            {"max", s.row_length.max},
            {"mean", s.row_length.mean},
            {"std", s.row_length.std}}},
          {"row_length_histogram", s.row_length_histogram},
          {"empty_rows", s.empty_rows},
          {"lower_bandwidth", s.lower_bandwidth},
          {"upper_bandwidth", s.upper_bandwidth},
          {"occupied_diagonals", s.occupied_diagonals},
          {"ell_padding_ratio", s.ell_padding_ratio},
          {"hyb_ell_width", s.hyb_ell_width},
          {"hyb_coo_nnz", s.hyb_coo_nnz},
          {"block_density", blocks},
          {"pattern_symmetric", s.pattern_symmetric},
          {"value_symmetric", s.value_symmetric},
          {"distinct_values", s.distinct_values}};
}

void print_table(const InfoOptions& options, FileFormat format, const MatrixStats& s,
                 const LabelCounts* labels) {
  const double cells = static_cast<double>(s.rows) * s.cols;
  fmt::print("file               {} ({})\n", options.path, to_string(format));
  fmt::print("size               {} x {}, {} non-zeros ({:.3g}% dense)\n", s.rows, s.cols, s.nnz,
             cells > 0 ? 100.0 * s.nnz / cells : 0.0);
  fmt::print("row length         min {}, max {}, mean {:.2f}, std {:.2f}\n", s.row_length.min,
             s.row_length.max, s.row_length.mean, s.row_length.std);
  std::string histogram;
  for (std::size_t k = 0; k < s.row_length_histogram.size(); ++k)
    histogram +=
        fmt::format("{}{}: {}", k ? " | " : "", bucket_range(k), s.row_length_histogram[k]);
  fmt::print("row-length buckets {}\n", histogram.empty() ? "(no rows)" : histogram);
  fmt::print("empty rows         {}\n", s.empty_rows);
  fmt::print("bandwidth          lower {}, upper {}\n", s.lower_bandwidth, s.upper_bandwidth);
  fmt::print("diagonals          {} occupied\n", s.occupied_diagonals);
  fmt::print("ELL padding        {:.3f} (rows x longest row / nnz)\n", s.ell_padding_ratio);
  fmt::print("HYB split          ELL width {}, {} entries in the COO part\n", s.hyb_ell_width,
             s.hyb_coo_nnz);
  for (const BlockDensity& b : s.block_density)
    fmt::print("blocks {:>3}x{:<3}     {} occupied, {:.3f} dense\n", b.block_rows, b.block_cols,
               b.occupied_blocks, b.density);
  fmt::print("symmetry           pattern {}, values {}\n", s.pattern_symmetric ? "yes" : "no",
             s.value_symmetric ? "yes" : "no");
  fmt::print("distinct values    {}\n", s.distinct_values);
  if (labels) {
    std::string classes;
    for (const auto& [label, rows] : *labels)
      classes += fmt::format("{}{:g} ({} rows)", classes.empty() ? "" : ", ", label, rows);
    fmt::print("labels             {} rows, {} classes: {}\n", s.rows, labels->size(), classes);
  }
}

int run_info(const InfoOptions& options) {
  const FileFormat format = input_format(options.path, options.format);
  Csr<double> a;
  std::unique_ptr<LabelCounts> labels;
  if (format == FileFormat::libsvm) {
    LabeledMatrix<double> data = read_libsvm<double>(options.path);
    labels = std::make_unique<LabelCounts>();
    for (double label : data.labels) ++(*labels)[label];
    a = std::move(data.features);
  } else {
    a = read_matrix<double>(options.path, format);
  }
  const MatrixStats stats = analyse(a);
  if (!options.json) {
    print_table(options, format, stats, labels.get());
    return exit_success;
  }
  nlohmann::ordered_json out = to_json(stats);
  out["file"] = options.path;
  out["format"] = to_string(format);
  if (labels) {
    nlohmann::ordered_json classes = nlohmann::ordered_json::array();
    for (const auto& [label, rows] : *labels) classes.push_back({{"label", label}, {"rows", rows}});
    out["labels"] = {{"count", stats.rows}, {"classes", classes}};
  }
  fmt::print("{}\n", out.dump(2));
  return exit_success;
}

}  // namespace

Command add_info_command(CLI::App& app) {
  auto options = std::make_shared<InfoOptions>();
  CLI::App* command = app.add_subcommand(
      "info", "print the structure of a matrix file (.mtx, .mtx.gz, .libsvm, .svm, .spmv)");
  command->add_option("file", options->path, "matrix file")->required();
  add_input_format_option(*command, options->format);
  command->add_flag("--json", options->json, "print JSON instead of a table");
  return {command, [options] { return run_info(*options); }};
}

}  // namespace spmv::cli
