#include "select/features.hpp"

#include <algorithm>
#include <cmath>

#include "spmv/formats/footprint.hpp"

namespace spmv::detail {

namespace {

double log2_of(double value) { return std::log2(std::max(value, 1e-12)); }

// Density of the dense blocks of the given shape, 0 when analyse() did not
// measure that shape.
double block_density(const MatrixStats& stats, index_t block_rows, index_t block_cols) {
  for (const BlockDensity& b : stats.block_density)
    if (b.block_rows == block_rows && b.block_cols == block_cols) return b.density;
  return 0;
}

void add(SelectorFeatures& f, const char* name, double value) {
  f.names.emplace_back(name);
  f.values.push_back(value);
}

// B (cols x k) and C (rows x k) of an SpMM.
double dense_operand_bytes(std::int64_t rows, std::int64_t cols, std::size_t value_bytes, index_t k) {
  return static_cast<double>(rows + cols) * static_cast<double>(k) * static_cast<double>(value_bytes);
}

}  // namespace

StatsOptions selector_stats_options(std::int64_t nnz) {
  StatsOptions options;
  options.block_sizes = {{4, 4}, {4, 64}};
  options.symmetry = false;
  options.distinct_value_limit = 1024;
  // The sample costs a few nanoseconds an entry, the upload about one an
  // entry: a 32nd of the entries keeps the analysis near a tenth of the
  // upload, and 2^18 at most keeps it a few milliseconds on any matrix
  // (the O(rows) pass over row_ptr comes on top).
  options.sample_nonzeros = std::clamp<std::int64_t>(nnz / 32, std::int64_t{1} << 12, std::int64_t{1} << 18);
  // The pass over row_ptr runs at host memory speed, a sixth of the upload's
  // bytes for a stencil of 7 points (16.8M rows: 5 ms on 16 threads of the
  // GPU machine, the upload 31 ms); 2^16 rows estimate its statistics.
  options.sample_rows = std::int64_t{1} << 16;
  return options;
}

SelectorFeatures selector_features(const MatrixStats& stats, std::size_t value_bytes,
                                   const DeviceProperties& device) {
  const double rows = std::max<double>(stats.rows, 1);
  const double cols = std::max<double>(stats.cols, 1);
  const double nnz = std::max<double>(static_cast<double>(stats.nnz), 1);
  const double mean = std::max(stats.row_length.mean, 1e-3);
  const double l2 = std::max<double>(static_cast<double>(device.l2_bytes), 1);
  const double product_bytes =
      static_cast<double>(csr_product_bytes(stats.rows, stats.cols, stats.nnz, value_bytes));
  // The structure statistics may come from a sample of rows (StatsOptions::
  // sample_nonzeros): relate them to the sample's rows and entries.
  const double sampled_rows = std::max<double>(stats.sampled_rows, 1);
  const double sampled_nnz = std::max<double>(static_cast<double>(stats.sampled_nnz), 1);
  // DIA stores one slot per row for every occupied diagonal.
  const double dia_fill = static_cast<double>(stats.occupied_diagonals) * std::min(sampled_rows, cols) / sampled_nnz;
  const double bandwidth = static_cast<double>(stats.lower_bandwidth) + stats.upper_bandwidth + 1;

  SelectorFeatures f;
  add(f, "value_bytes", static_cast<double>(value_bytes));
  add(f, "log2_product_bytes_per_l2", log2_of(product_bytes / l2));
  add(f, "log2_x_bytes_per_l2", log2_of(cols * static_cast<double>(value_bytes) / l2));
  add(f, "log2_rows_per_multiprocessor", log2_of(rows / std::max(device.multiprocessors, 1)));
  add(f, "log2_cols_per_rows", log2_of(cols / rows));
  add(f, "log2_mean_row_length", log2_of(mean));
  add(f, "row_length_cv", stats.row_length.std / mean);
  add(f, "log2_max_per_mean_row_length", log2_of(stats.row_length.max / mean));
  add(f, "empty_row_fraction", stats.empty_rows / rows);
  add(f, "log2_ell_padding_ratio", log2_of(stats.ell_padding_ratio));
  add(f, "log2_dia_fill", log2_of(dia_fill));
  add(f, "log2_diagonals_per_mean_row_length",
      log2_of(stats.occupied_diagonals / std::max(sampled_nnz / sampled_rows, 1e-3)));
  add(f, "hyb_coo_fraction", static_cast<double>(stats.hyb_coo_nnz) / nnz);
  add(f, "log2_bandwidth_per_cols", log2_of(bandwidth / cols));
  add(f, "block_density_4x4", block_density(stats, 4, 4));
  add(f, "block_density_4x64", block_density(stats, 4, 64));
  add(f, "log2_distinct_values_per_nnz", log2_of(static_cast<double>(stats.distinct_values) / sampled_nnz));
  // A dense copy of the matrix against the L2: what a kernel on the dense
  // matrix reads, whatever its sparsity.
  add(f, "log2_dense_matrix_bytes_per_l2", log2_of(rows * cols * static_cast<double>(value_bytes) / l2));
  return f;
}

double dense_product_bytes(std::int64_t rows, std::int64_t cols, std::size_t value_bytes, index_t k) {
  return static_cast<double>(rows) * static_cast<double>(cols) * static_cast<double>(value_bytes) +
         dense_operand_bytes(rows, cols, value_bytes, k);
}

double spmm_product_bytes(std::int64_t rows, std::int64_t cols, std::int64_t nnz, std::size_t value_bytes,
                          index_t k) {
  return static_cast<double>(csr_bytes(static_cast<index_t>(rows), nnz, value_bytes)) +
         dense_operand_bytes(rows, cols, value_bytes, k);
}

SelectorFeatures selector_spmm_features(const MatrixStats& stats, std::size_t value_bytes,
                                        const DeviceProperties& device, index_t k, Layout layout) {
  SelectorFeatures f = selector_features(stats, value_bytes, device);
  const double l2 = std::max<double>(static_cast<double>(device.l2_bytes), 1);
  add(f, "log2_columns", log2_of(static_cast<double>(k)));
  add(f, "column_major", layout == Layout::col_major ? 1.0 : 0.0);
  add(f, "log2_dense_bytes_per_l2", log2_of(dense_operand_bytes(stats.rows, stats.cols, value_bytes, k) / l2));
  return f;
}

}  // namespace spmv::detail
