// Internal: the selector's inputs, computed from a matrix's MatrixStats and
// the device. One list of names, in the order the trained model expects them;
// the model file repeats the list and is refused when it differs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "spmv/operator.hpp"
#include "spmv/stats.hpp"

namespace spmv::detail {

struct SelectorFeatures {
  std::vector<std::string> names;
  std::vector<double> values;  // values[i] is the feature names[i]
};

// What analyse() must measure for the features of a matrix of `nnz` entries
// (the cheap parts only: no symmetry check, distinct values counted up to a
// limit, the structure from a sample whose size grows with the matrix).
StatsOptions selector_stats_options(std::int64_t nnz);

// Scale-free where possible (ratios, logarithms), so that what is learnt on
// one matrix size or one GPU carries to another: sizes enter as the product's
// bytes against the device's L2 and as rows per multiprocessor.
SelectorFeatures selector_features(const MatrixStats& stats, std::size_t value_bytes,
                                   const DeviceProperties& device);

// The SpMM's byte model (C = A B, B and C of k columns): the CSR once, B
// (cols x k) once, C (rows x k) written once. The SpMM model predicts time
// over it at copy bandwidth, so that a product held by these bytes is
// predicted alike at every k.
double spmm_product_bytes(std::int64_t rows, std::int64_t cols, std::int64_t nnz, std::size_t value_bytes,
                          index_t k);

// The byte model of a kernel on a dense copy of the matrix (dense-cublas):
// the dense matrix once, x and y (B and C, of k columns) once.
double dense_product_bytes(std::int64_t rows, std::int64_t cols, std::size_t value_bytes, index_t k);

// The SpMM model's inputs: the SpMV's (selector_features) and the product's,
// log2_columns (log2 k), column_major (1 for column-major B and C, else 0)
// and log2_dense_bytes_per_l2 (B and C against the L2). bench/train_selector.py
// computes the product's three from the results with the same formulas
// (a CTest compares them with `spmv plan --json --k`).
SelectorFeatures selector_spmm_features(const MatrixStats& stats, std::size_t value_bytes,
                                        const DeviceProperties& device, index_t k, Layout layout);

}  // namespace spmv::detail
