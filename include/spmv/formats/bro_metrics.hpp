// How much a BRO format (Tang et al. 2013) compresses, in the paper's terms
// and against what our own uncompressed formats store.
//
// The paper's space savings eta = 1 - C / O compares the compressed index
// data C with the index data O of the uncompressed format the BRO format
// extends (ELLPACK's column indices for BRO-ELL, COO's row indices for
// BRO-COO); the compression ratio kappa = O / C. Beside it we report the
// same against CSR (col_idx + row_ptr, the canonical form every product
// here starts from), bytes per non-zero of the whole format, and the
// effective arithmetic intensity of one product.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace spmv {

struct IndexCompression {
  std::size_t original_index_bytes = 0;    // O
  std::size_t compressed_index_bytes = 0;  // C

  // eta = 1 - C / O (0 when there is no index data).
  double space_savings() const {
    return original_index_bytes == 0
               ? 0.0
               : 1.0 - static_cast<double>(compressed_index_bytes) / static_cast<double>(original_index_bytes);
  }
  // kappa = O / C (1 when there is no index data at all).
  double compression_ratio() const {
    if (compressed_index_bytes == 0)
      return original_index_bytes == 0 ? 1.0 : std::numeric_limits<double>::infinity();
    return static_cast<double>(original_index_bytes) / static_cast<double>(compressed_index_bytes);
  }
};

struct CompressionMetrics {
  // Against the uncompressed format the BRO format extends (the paper's eta).
  IndexCompression against_uncompressed;
  // Against CSR's column indices and row pointers.
  IndexCompression against_csr;
  std::size_t matrix_bytes = 0;  // the format's compulsory bytes: what one product reads of A
  std::size_t vector_bytes = 0;  // x and y of one product: (cols + rows) * sizeof(value)
  std::int64_t nnz = 0;

  // matrix_bytes / nnz (0 for a matrix without entries).
  double bytes_per_nonzero() const {
    return nnz == 0 ? 0.0 : static_cast<double>(matrix_bytes) / static_cast<double>(nnz);
  }
  // Flops per compulsory byte of one product, 2 nnz / (matrix + x + y bytes):
  // the paper's EAI with the bytes a product must move (Fig. 5).
  double effective_arithmetic_intensity() const {
    const std::size_t bytes = matrix_bytes + vector_bytes;
    return bytes == 0 ? 0.0 : 2.0 * static_cast<double>(nnz) / static_cast<double>(bytes);
  }
};

}  // namespace spmv
