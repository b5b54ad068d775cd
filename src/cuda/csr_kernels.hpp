// Factories of the CSR kernels, one per file src/cuda/csr_<algo>.cu; the
// registry (csr_registry.cu) lists them with their catalogue entries.
#pragma once

#include <memory>

#include "cuda/csr_algorithm.hpp"

namespace spmv::detail {

template <class T>
std::unique_ptr<CsrAlgorithm<T>> make_csr_scalar(const KernelParams& params);
template <class T>
std::unique_ptr<CsrAlgorithm<T>> make_csr_vector(const KernelParams& params);
template <class T>
std::unique_ptr<CsrAlgorithm<T>> make_csr_aligned(const KernelParams& params);
template <class T>
std::unique_ptr<CsrAlgorithm<T>> make_csr_vector_tuned(const KernelParams& params);
template <class T>
std::unique_ptr<CsrAlgorithm<T>> make_csr_pcsr(const KernelParams& params);
template <class T>
std::unique_ptr<CsrAlgorithm<T>> make_csr_merge(const KernelParams& params);
template <class T>
std::unique_ptr<CsrAlgorithm<T>> make_csr_adaptive(const KernelParams& params);
template <class T>
std::unique_ptr<CsrAlgorithm<T>> make_csr_hub(const KernelParams& params);

}  // namespace spmv::detail
