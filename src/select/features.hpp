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

}  // namespace spmv::detail
