// SELL-C-sigma: sorting windows, chunk layout, builder and reference product.
#include "spmv/formats/sell.hpp"

#include <algorithm>
#include <numeric>

#include "formats/format_common.hpp"
#include "formats/sell_limits.hpp"
#include "spmv/error.hpp"

namespace spmv {

namespace {

// Rows of A in sorted order: decreasing length within each window of sigma
// rows, ties in row order.
std::vector<index_t> sorted_rows(const std::vector<index_t>& lengths, index_t sigma) {
  std::vector<index_t> order(lengths.size());
  std::iota(order.begin(), order.end(), 0);
  for (std::size_t first = 0; first < order.size(); first += sigma) {
    const auto end = order.begin() + std::min(order.size(), first + sigma);
    std::stable_sort(order.begin() + first, end,
                     [&](index_t a, index_t b) { return lengths[a] > lengths[b]; });
  }
  return order;
}

// First slot of each chunk (64-bit: it may exceed 32-bit indices before the
// footprint check refuses it).
std::vector<std::int64_t> chunk_starts(const std::vector<index_t>& sorted_lengths, index_t chunk_rows) {
  const std::size_t chunks = (sorted_lengths.size() + chunk_rows - 1) / chunk_rows;
  std::vector<std::int64_t> starts(chunks + 1, 0);
  for (std::size_t c = 0; c < chunks; ++c) {
    const auto first = sorted_lengths.begin() + c * chunk_rows;
    const auto last = sorted_lengths.begin() + std::min(sorted_lengths.size(), (c + 1) * chunk_rows);
    starts[c + 1] = starts[c] + static_cast<std::int64_t>(*std::max_element(first, last)) * chunk_rows;
  }
  return starts;
}

std::vector<index_t> lengths_in_order(const std::vector<index_t>& lengths, const std::vector<index_t>& order) {
  std::vector<index_t> sorted(order.size());
  for (std::size_t p = 0; p < order.size(); ++p) sorted[p] = lengths[order[p]];
  return sorted;
}

}  // namespace

namespace detail {

void check_sell_options(const SellOptions& options) {
  if (options.chunk_rows < 1)
    throw InvalidArgument("SELL: chunk_rows must be at least 1, got " + std::to_string(options.chunk_rows));
  if (options.sigma < 1 || (options.sigma != 1 && options.sigma % options.chunk_rows != 0))
    throw InvalidArgument("SELL: sigma must be 1 or a multiple of chunk_rows (" +
                          std::to_string(options.chunk_rows) + "), got " + std::to_string(options.sigma));
}

FormatFootprint sell_footprint_of(index_t rows, index_t nnz, std::size_t value_bytes, std::int64_t slots,
                                  std::size_t chunks) {
  FormatFootprint f;
  f.nnz = nnz;
  f.stored_entries = slots;
  f.bytes = static_cast<std::size_t>(slots) * (sizeof(index_t) + value_bytes) +
            (chunks + 1 + 2 * static_cast<std::size_t>(rows)) * sizeof(index_t);
  f.csr_bytes = csr_bytes(rows, nnz, value_bytes);
  return f;
}

void check_sell_limit(const SellOptions& options, index_t rows, index_t nnz, std::size_t value_bytes,
                      std::int64_t slots, std::size_t chunks, index_t longest) {
  check_footprint("SELL-" + std::to_string(options.chunk_rows) + "-" + std::to_string(options.sigma),
                  sell_footprint_of(rows, nnz, value_bytes, slots, chunks), options.max_padding,
                  row_length_summary(longest, rows ? double(nnz) / rows : 0.0), "a larger sigma, hyb or csr-vector");
}

}  // namespace detail

template <class T>
FormatFootprint sell_footprint(const Csr<T>& a, const SellOptions& options) {
  detail::check_sell_options(options);
  const std::vector<index_t> lengths = detail::row_lengths(a);
  const auto starts = chunk_starts(lengths_in_order(lengths, sorted_rows(lengths, options.sigma)),
                                   options.chunk_rows);
  return detail::sell_footprint_of(a.rows, a.nnz(), sizeof(T), starts.back(), starts.size() - 1);
}

template <class T>
Sell<T> sell_from_csr(const Csr<T>& a, const SellOptions& options) {
  detail::check_sell_options(options);
  Sell<T> sell;
  sell.rows = a.rows;
  sell.cols = a.cols;
  sell.chunk_rows = options.chunk_rows;
  sell.sigma = options.sigma;
  sell.nnz = a.nnz();
  const std::vector<index_t> lengths = detail::row_lengths(a);
  sell.row_of = sorted_rows(lengths, options.sigma);
  sell.row_length = lengths_in_order(lengths, sell.row_of);
  const auto starts = chunk_starts(sell.row_length, options.chunk_rows);
  const index_t longest = lengths.empty() ? 0 : *std::max_element(lengths.begin(), lengths.end());
  detail::check_sell_limit(options, a.rows, a.nnz(), sizeof(T), starts.back(), starts.size() - 1, longest);
  sell.chunk_ptr.assign(starts.begin(), starts.end());
  sell.col_idx.assign(static_cast<std::size_t>(starts.back()), padding_column);
  sell.values.assign(static_cast<std::size_t>(starts.back()), T(0));
#pragma omp parallel for schedule(static)
  for (index_t p = 0; p < a.rows; ++p) {
    const index_t row = sell.row_of[p];
    const std::size_t first = static_cast<std::size_t>(sell.chunk_ptr[p / sell.chunk_rows]) + p % sell.chunk_rows;
    for (index_t j = 0; j < sell.row_length[p]; ++j) {
      sell.col_idx[first + static_cast<std::size_t>(j) * sell.chunk_rows] = a.col_idx[a.row_ptr[row] + j];
      sell.values[first + static_cast<std::size_t>(j) * sell.chunk_rows] = a.values[a.row_ptr[row] + j];
    }
  }
  return sell;
}

template <class T>
void multiply(const Sell<T>& a, const T* x, T* y, T alpha, T beta) {
  for (index_t p = 0; p < a.rows; ++p) {
    const std::size_t first = static_cast<std::size_t>(a.chunk_ptr[p / a.chunk_rows]) + p % a.chunk_rows;
    double sum = 0;
    for (index_t j = 0; j < a.row_length[p]; ++j) {
      const std::size_t slot = first + static_cast<std::size_t>(j) * a.chunk_rows;
      sum += static_cast<double>(a.values[slot]) * static_cast<double>(x[a.col_idx[slot]]);
    }
    detail::store_scaled(y[a.row_of[p]], sum, alpha, beta);
  }
}

#define SPMV_INSTANTIATE_SELL(T)                                               \
  template FormatFootprint sell_footprint(const Csr<T>&, const SellOptions&);  \
  template Sell<T> sell_from_csr(const Csr<T>&, const SellOptions&);           \
  template void multiply(const Sell<T>&, const T*, T*, T, T);
SPMV_INSTANTIATE_SELL(float)
SPMV_INSTANTIATE_SELL(double)
#undef SPMV_INSTANTIATE_SELL

}  // namespace spmv
