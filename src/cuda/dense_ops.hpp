// Small dense helpers on device vectors.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace spmv::detail {

// y = beta * y for n entries; beta == 0 writes zeros without reading y.
template <class T>
void scale_vector(T* y, std::size_t n, T beta, cudaStream_t stream);

}  // namespace spmv::detail
