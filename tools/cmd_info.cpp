// `spmv info FILE [--format F] [--json] [--reorder METHOD]`: reads a matrix
// file and prints its structural analysis (MatrixStats), plus the labels of a
// LIBSVM file, and the index compression of BRO-ELL and BRO-HYB (eta, kappa,
// bytes per non-zero); with --reorder, the bandwidth, envelope profile,
// BRO-ELL cost (BAR's Phi) and BRO compression before and after it.
#include <fmt/format.h>

#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli_common.hpp"
#include "spmv/error.hpp"
#include "spmv/formats/bro_ell.hpp"
#include "spmv/formats/bro_hyb.hpp"
#include "spmv/reorder.hpp"
#include "spmv/stats.hpp"

namespace spmv::cli {
namespace {

struct InfoOptions {
  std::string path;
  std::string format;
  bool json = false;
  std::string reorder = "none";
};

// How a BRO format with its default options compresses the matrix (f64
// values), or why it refused the matrix.
struct BroFigures {
  std::string format;
  std::optional<CompressionMetrics> metrics;
  std::string refusal;
};

BroFigures bro_figures(const std::string& format, const std::function<CompressionMetrics()>& build) {
  BroFigures figures{format, std::nullopt, ""};
  try {
    figures.metrics = build();
  } catch (const FormatLimitError& e) {
    figures.refusal = e.what();
  }
  return figures;
}

std::vector<BroFigures> bro_compression(const Csr<double>& a) {
  return {bro_figures("bro-ell", [&a] { return bro_ell_metrics(bro_ell_from_csr(a)); }),
          bro_figures("bro-hyb", [&a] { return bro_hyb_metrics(bro_hyb_from_csr(a)); })};
}

void print_bro(const std::vector<BroFigures>& all, const std::string& label) {
  for (const BroFigures& f : all) {
    const std::string name = f.format + label;
    if (!f.metrics) {
      fmt::print("{:<18} refused: {}\n", name, f.refusal);
      continue;
    }
    const CompressionMetrics& m = *f.metrics;
    fmt::print("{:<18} eta {:.1f}% (kappa {:.2f}) of the uncompressed indices, {:.1f}% of CSR's; "
               "{:.2f} bytes per non-zero\n",
               name, 100 * m.against_uncompressed.space_savings(),
               m.against_uncompressed.compression_ratio(), 100 * m.against_csr.space_savings(),
               m.bytes_per_nonzero());
  }
}

nlohmann::ordered_json to_json(const std::vector<BroFigures>& all) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const BroFigures& f : all) {
    if (!f.metrics) {
      out.push_back({{"format", f.format}, {"refused", f.refusal}});
      continue;
    }
    const CompressionMetrics& m = *f.metrics;
    out.push_back({{"format", f.format},
                   {"space_savings", m.against_uncompressed.space_savings()},
                   {"compression_ratio", m.against_uncompressed.compression_ratio()},
                   {"space_savings_vs_csr", m.against_csr.space_savings()},
                   {"bytes_per_nonzero", m.bytes_per_nonzero()},
                   {"effective_arithmetic_intensity", m.effective_arithmetic_intensity()}});
  }
  return out;
}

// What a reordering changes, measured on the matrix before and after it.
struct OrderingFigures {
  index_t lower_bandwidth = 0;
  index_t upper_bandwidth = 0;
  std::int64_t profile = 0;
  double bro_ell_cost = 0;  // Phi of eq. 1 (Tang et al. 2013) with BroAwareOptions' defaults
  std::vector<BroFigures> bro;
};

OrderingFigures ordering_figures(const Csr<double>& a, const MatrixStats& stats) {
  return {stats.lower_bandwidth, stats.upper_bandwidth, envelope_profile(a), bro_ell_cost(a, {}),
          bro_compression(a)};
}

struct ReorderingReport {
  MatrixOrdering ordering;
  OrderingFigures before;
  OrderingFigures after;
};

ReorderingReport report_reordering(const Csr<double>& a, const MatrixStats& stats,
                                   Reordering method) {
  ReorderingReport report;
  report.ordering = compute_ordering(a, method);
  report.before = ordering_figures(a, stats);
  const Csr<double> reordered = reorder(a, report.ordering);
  report.after = ordering_figures(reordered, analyse(reordered));
  return report;
}

void print_reordering(const ReorderingReport& r) {
  fmt::print("reordering         {} ({:.3f} s to compute)\n", to_string(r.ordering.method),
             r.ordering.seconds);
  fmt::print("  bandwidth        lower {} -> {}, upper {} -> {}\n", r.before.lower_bandwidth,
             r.after.lower_bandwidth, r.before.upper_bandwidth, r.after.upper_bandwidth);
  fmt::print("  profile          {} -> {}\n", r.before.profile, r.after.profile);
  fmt::print("  BRO-ELL cost     {:.0f} -> {:.0f} (Phi, slices of 256 rows, f64 x)\n",
             r.before.bro_ell_cost, r.after.bro_ell_cost);
  print_bro(r.after.bro, " after " + std::string(to_string(r.ordering.method)));
}

nlohmann::ordered_json to_json(const OrderingFigures& f) {
  return {{"lower_bandwidth", f.lower_bandwidth},
          {"upper_bandwidth", f.upper_bandwidth},
          {"profile", f.profile},
          {"bro_ell_cost", f.bro_ell_cost},
          {"bro", to_json(f.bro)}};
}

nlohmann::ordered_json to_json(const ReorderingReport& r) {
  return {{"method", to_string(r.ordering.method)},
          {"seconds", r.ordering.seconds},
          {"before", to_json(r.before)},
          {"after", to_json(r.after)}};
}

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
  const Reordering method = reordering_from_string(options.reorder);
  std::unique_ptr<ReorderingReport> reordering;
  if (method != Reordering::none)
    reordering = std::make_unique<ReorderingReport>(report_reordering(a, stats, method));
  const std::vector<BroFigures> bro = reordering ? reordering->before.bro : bro_compression(a);
  if (!options.json) {
    print_table(options, format, stats, labels.get());
    print_bro(bro, "");
    if (reordering) print_reordering(*reordering);
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
  out["bro"] = to_json(bro);
  if (reordering) out["reordering"] = to_json(*reordering);
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
  add_reorder_option(*command, options->reorder,
                     "also show bandwidth, profile and BRO-ELL cost before and after a reordering");
  return {command, [options] { return run_info(*options); }};
}

}  // namespace spmv::cli
