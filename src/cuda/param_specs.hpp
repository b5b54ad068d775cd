// Parameter specs shared by the cuda backend's kernel registries.
#pragma once

#include <string>
#include <vector>

#include "core/kernel_params.hpp"
#include "cuda/csr_algorithm.hpp"
#include "spmv/formats/bro_coo.hpp"
#include "spmv/formats/bro_ell.hpp"
#include "spmv/formats/footprint.hpp"

namespace spmv::detail {

inline KernelParamSpec block_size_spec(std::vector<int> allowed = {64, 128, 256, 512, 1024},
                                       std::string default_value = std::to_string(default_block_size)) {
  return one_of("block_size", std::move(allowed), std::move(default_value), "threads per block");
}

inline KernelParamSpec threads_per_row_spec(std::vector<int> allowed, std::string default_value) {
  return one_of("threads_per_row", std::move(allowed), std::move(default_value), "threads sharing a row");
}

// Every kernel whose format pads takes max_padding.
inline KernelParamSpec max_padding_spec() {
  return in_range("max_padding", 1, INT_MAX, std::to_string(static_cast<int>(default_max_padding)),
                  "the most bytes the format may store, as a multiple of the CSR bytes");
}

// The ELL width K of the hybrid formats.
inline KernelParamSpec ell_width_spec() {
  return in_range("ell_width", 0, INT_MAX, "by the Bell-Garland rule", "entries per row in the ELL part (0: all COO)");
}

// The BRO-COO interval (the builder refuses one that is not a multiple of 32).
inline KernelParamSpec interval_spec() {
  return in_range("interval", bro_coo_lanes, INT_MAX, "one per resident warp",
                  "entries per warp interval, a multiple of " + std::to_string(bro_coo_lanes));
}

inline KernelParamSpec bro_slice_height_spec() {
  return one_of("slice_height", {32, 64, 128, 256, 512, 1024}, std::to_string(BroEllOptions{}.slice_height),
                "rows per BRO-ELL slice (a thread block)");
}

// The parameters of the ELLPACK-R kernels' build (build_ellr_t).
inline std::vector<KernelParamSpec> ellr_t_specs() {
  return {threads_per_row_spec({1, 2, 4, 8, 16, 32}, "the ELLR-T model's"),
          block_size_spec({32, 64, 128, 256, 512, 1024}, "the ELLR-T model's"), max_padding_spec()};
}

}  // namespace spmv::detail
