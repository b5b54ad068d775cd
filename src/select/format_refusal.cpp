#include "select/format_refusal.hpp"

#include <cmath>
#include <functional>
#include <map>

#include "spmv/formats/dense.hpp"
#include "spmv/formats/ell.hpp"
#include "spmv/formats/ellpack_r.hpp"
#include "spmv/formats/hyb.hpp"
#include "formats/format_common.hpp"
#include "spmv/stats.hpp"

namespace spmv::detail {

namespace {

std::string padding_refusal(const std::string& kernel, const FormatFootprint& f) {
  if (f.stored_entries > max_index)
    return kernel + " would store " + std::to_string(f.stored_entries) + " entries, beyond 32-bit indices";
  if (!f.within_limit(default_max_padding))
    return kernel + " would need " + one_decimal(f.padding_ratio()) + "x the CSR bytes (limit " +
           one_decimal(default_max_padding) + ")";
  return {};
}

// A padded layout's footprint from the plan's analysis (ELL's longest row,
// HYB's split): exact when the analysis read every row's length. From a
// sample of rows it is an estimate, taken only when far within the limit (a
// wrong acceptance costs a build that refuses, after which the plan's next
// candidate is built); nearer the limit the exact footprint is computed, one
// parallel pass over row_ptr.
constexpr double sampled_footprint_margin = 2.0 / 3.0;

// nullopt where the footprint needs the matrix's every row and `m` is null
// (the matrix is on the device: its build decides).
template <class T, class Exact>
std::optional<FormatFootprint> padded_footprint(const Csr<T>* m, const MatrixStats& stats,
                                                const FormatFootprint& from_stats, const Exact& exact) {
  if (stats.row_length_rows == stats.rows) return from_stats;
  if (from_stats.within_limit(sampled_footprint_margin * default_max_padding)) return from_stats;
  if (!m) return std::nullopt;
  return exact(*m);
}

// The HYB layout's footprint from its exact split: analyse() with the
// structure statistics off, where hyb_split_width would copy every row's
// length first.
template <class T>
FormatFootprint exact_hyb_footprint(const Csr<T>& m) {
  StatsOptions lengths_only;
  lengths_only.block_sizes.clear();
  lengths_only.symmetry = false;
  lengths_only.distinct_value_limit = 1;
  lengths_only.sample_nonzeros = 1;
  const MatrixStats stats = analyse(m, lengths_only);
  return hyb_footprint<T>(m.rows, stats.hyb_ell_width, m.nnz(), stats.hyb_coo_nnz);
}

// ELLR-T's threads per row as its model would choose them from the lengths
// of 64 blocks of 1024 rows spread over the matrix (every row's, when it has
// no more): the model's sums over all of a large matrix's rows had cost tens
// of milliseconds of a plan. The blocks start at multiples of 32 rows, so each
// warp's rows are those of the whole matrix's sums.
template <class T>
int sampled_ellrt_threads_per_row(const Csr<T>& m, const GpuShape& gpu) {
  constexpr index_t block_rows = 1024, blocks = 64;
  if (m.rows <= block_rows * blocks) return ellrt_configuration(ellrt_warp_steps(m), gpu).threads_per_row;
  std::vector<index_t> lengths;
  lengths.reserve(std::size_t{block_rows} * blocks);
  for (index_t b = 0; b < blocks; ++b) {
    const auto first = static_cast<index_t>(std::int64_t{m.rows} * b / blocks / 32 * 32);
    for (index_t r = first; r < first + block_rows; ++r) lengths.push_back(m.row_length(r));
  }
  EllrtWarpSteps steps = ellrt_warp_steps(lengths);
  const double rows_per_sampled_row = static_cast<double>(m.rows) / static_cast<double>(lengths.size());
  for (std::int64_t& sum : steps.of_threads_per_row)
    sum = std::llround(static_cast<double>(sum) * rows_per_sampled_row);
  steps.rows = static_cast<std::size_t>(m.rows);
  return ellrt_configuration(steps, gpu).threads_per_row;
}

}  // namespace

template <class T>
std::optional<std::string> format_refusal(const std::string& kernel, const Csr<T>* a, const MatrixStats& stats,
                                          const GpuShape& gpu) {
  using Footprint = std::function<std::optional<FormatFootprint>(const Csr<T>*)>;
  const std::map<std::string, Footprint> padded = {
      {"ell",
       [&stats](const Csr<T>* m) -> std::optional<FormatFootprint> {
         const FormatFootprint from_stats = ell_footprint<T>(stats.rows, stats.row_length.max, stats.nnz);
         // The longest row read is at most the longest row: a footprint
         // beyond the limit from the rows read is beyond it exactly.
         if (!from_stats.within_limit(default_max_padding)) return from_stats;
         return padded_footprint(m, stats, from_stats, [](const Csr<T>& whole) { return ell_footprint(whole); });
       }},
      {"ellr-t",
       [&stats, &gpu](const Csr<T>* m) -> std::optional<FormatFootprint> {
         const bool every_row_read = stats.row_length_rows == stats.rows;
         const auto at = [&stats](index_t longest, int threads_per_row) {
           return ellpack_r_footprint<T>(stats.rows, longest, stats.nnz, threads_per_row);
         };
         // Within the limit at T = 32, the layout's widest padding, it is
         // within at the model's T. From a sample of rows (the longest row
         // read; below, the model's T from sampled lengths) the footprint is
         // an estimate, taken when far within the limit, as padded_footprint
         // takes it: the passes over every row (the longest, the model's sums)
         // are needed only near or beyond the limit.
         const FormatFootprint widest = at(stats.row_length.max, 32);
         if (every_row_read ? padding_refusal("ellr-t", widest).empty()
                            : widest.within_limit(sampled_footprint_margin * default_max_padding))
           return widest;
         if (!m) return std::nullopt;
         if (!every_row_read) {
           const FormatFootprint sampled = at(stats.row_length.max, sampled_ellrt_threads_per_row(*m, gpu));
           if (sampled.within_limit(sampled_footprint_margin * default_max_padding)) return sampled;
         }
         return at(every_row_read ? stats.row_length.max : longest_row(*m),
                   ellrt_configuration(ellrt_warp_steps(*m), gpu).threads_per_row);
       }},
      {"hyb",
       [&stats](const Csr<T>* m) {
         return padded_footprint(m, stats,
                                 hyb_footprint<T>(stats.rows, stats.hyb_ell_width, stats.nnz, stats.hyb_coo_nnz),
                                 [](const Csr<T>& whole) { return exact_hyb_footprint(whole); });
       }},
  };
  if (kernel == "dia" || kernel == "sell" || kernel == "blocked" || kernel == "bro-ell" || kernel == "bro-hyb")
    return std::nullopt;
  if (kernel == "dense-cublas") {
    const FormatFootprint f = dense_footprint<T>(stats.rows, stats.cols, stats.nnz);
    if (f.bytes > DenseOptions{}.max_bytes)
      return "dense-cublas would need " + one_decimal(f.bytes / 1048576.0) + " MiB (limit " +
             one_decimal(DenseOptions{}.max_bytes / 1048576.0) + " MiB)";
    return std::string();
  }
  // The ELLPACK-R SpMM kernels build ELLR-T's layout with its defaults.
  const bool ellpack_r_spmm = kernel == "spmm-fastspmm" || kernel == "spmm-setspmvs";
  const auto found = padded.find(ellpack_r_spmm ? "ellr-t" : kernel);
  if (found == padded.end()) return std::string();
  const std::optional<FormatFootprint> footprint = found->second(a);
  if (!footprint) return std::nullopt;
  return padding_refusal(kernel, *footprint);
}

template std::optional<std::string> format_refusal(const std::string&, const Csr<float>*, const MatrixStats&,
                                                   const GpuShape&);
template std::optional<std::string> format_refusal(const std::string&, const Csr<double>*, const MatrixStats&,
                                                   const GpuShape&);

}  // namespace spmv::detail
