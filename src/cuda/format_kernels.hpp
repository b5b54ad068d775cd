// Factories of the format kernels, one per file src/cuda/<format>_<algo>.cu
// (the registry, format_registry.cpp, lists them with their catalogue
// entries), and what those files share.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <utility>

#include "core/backends.hpp"
#include "cuda/csr_algorithm.hpp"
#include "cuda/format_kernel.hpp"
#include "spmv/error.hpp"
#include "spmv/formats/ellpack_r.hpp"

namespace spmv::detail {

template <class T>
std::unique_ptr<FormatKernel<T>> make_coo_segmented(const FormatSource<T>& a, const KernelParams& params);
template <class T>
std::unique_ptr<FormatKernel<T>> make_bro_coo_segmented(const FormatSource<T>& a, const KernelParams& params);
template <class T>
std::unique_ptr<FormatKernel<T>> make_ell_thread_per_row(const FormatSource<T>& a, const KernelParams& params);
template <class T>
std::unique_ptr<FormatKernel<T>> make_ellr_t(const FormatSource<T>& a, const KernelParams& params);
template <class T>
std::unique_ptr<FormatKernel<T>> make_hyb_ell_coo(const FormatSource<T>& a, const KernelParams& params);
template <class T>
std::unique_ptr<FormatKernel<T>> make_dia_thread_per_row(const FormatSource<T>& a, const KernelParams& params);
template <class T>
std::unique_ptr<FormatKernel<T>> make_sell_thread_per_row(const FormatSource<T>& a, const KernelParams& params);
template <class T>
std::unique_ptr<FormatKernel<T>> make_blocked_shared_x(const FormatSource<T>& a, const KernelParams& params);
template <class T>
std::unique_ptr<FormatKernel<T>> make_segmented_scan(const FormatSource<T>& a, const KernelParams& params);
template <class T>
std::unique_ptr<FormatKernel<T>> make_dense_cublas(const FormatSource<T>& a, const KernelParams& params);
template <class T>
std::unique_ptr<FormatKernel<T>> make_bro_ell_decode(const FormatSource<T>& a, const KernelParams& params);
template <class T>
std::unique_ptr<FormatKernel<T>> make_bro_hyb_ell_coo(const FormatSource<T>& a, const KernelParams& params);

// The padding limit of a kernel's format: parameter max_padding, a whole
// multiple of the CSR bytes.
inline int max_padding_param(const KernelParams& params) {
  return param_or(params, "max_padding", static_cast<int>(default_max_padding));
}

// The ELL width K of the hybrid kernels: parameter ell_width (0 puts
// everything in the COO part), -1 (the Bell-Garland rule) when absent.
inline index_t ell_width_param(const KernelParams& params) { return param_or(params, "ell_width", -1); }

// dense-cublas refuses a dense copy above this many MiB unless told more.
inline constexpr int default_max_dense_mib = 1024;

// Runs build() and adds the seconds it took to `seconds`.
template <class Build>
auto timed_build(double& seconds, Build build) {
  const auto start = std::chrono::steady_clock::now();
  auto built = build();
  seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return built;
}

}  // namespace spmv::detail
