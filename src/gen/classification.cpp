// Labels of a planted linear model for LIBSVM-like classification data
// (see planted_labels in include/spmv/gen.hpp).
#include <cmath>

#include "gen/random_source.hpp"
#include "spmv/gen.hpp"

namespace spmv {

std::vector<double> planted_labels(const Csr<double>& features, double noise, std::uint64_t seed) {
  using gen_detail::mix64;
  // Streams of their own, apart from the features' (seed, row) streams.
  const std::uint64_t weight_seed = mix64(seed ^ 0x57A7ED3E1F00D5ull);
  const std::uint64_t noise_seed = mix64(seed ^ 0x0015E5A1DC0FFEEull);
  std::vector<double> planted(static_cast<std::size_t>(features.cols));
  for (index_t j = 0; j < features.cols; ++j)
    planted[j] = gen_detail::value_from_bits(mix64(weight_seed + static_cast<std::uint64_t>(j)));
  // E[v^2] of a value uniform in [0.1, 1] is 0.37, so w*.x over L entries
  // has a spread of about 0.37 sqrt(L).
  constexpr double typical_product = 0.37;
  std::vector<double> labels(static_cast<std::size_t>(features.rows));
#pragma omp parallel for schedule(static)
  for (index_t r = 0; r < features.rows; ++r) {
    double margin = 0;
    for (index_t e = features.row_ptr[r]; e < features.row_ptr[r + 1]; ++e)
      margin += planted[features.col_idx[e]] * features.values[e];
    const std::uint64_t bits = mix64(noise_seed + static_cast<std::uint64_t>(r));
    const double uniform = static_cast<double>(bits >> 11) * 0x1.0p-52 - 1.0;  // [-1, 1)
    margin += noise * typical_product * std::sqrt(static_cast<double>(features.row_length(r))) * uniform;
    labels[r] = margin > 0 ? 1.0 : -1.0;
  }
  return labels;
}

}  // namespace spmv
