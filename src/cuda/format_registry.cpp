// The catalogue of non-CSR format kernels of the cuda backend.
#include "core/determinism.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/format_kernels.hpp"
#include "cuda/param_specs.hpp"
#include "spmv/formats/blocked.hpp"
#include "spmv/formats/sell.hpp"

namespace spmv::detail {

GpuShape current_gpu_shape() {
  int device = 0;
  SPMV_CUDA_CHECK(cudaGetDevice(&device));
  GpuShape shape;
  SPMV_CUDA_CHECK(cudaDeviceGetAttribute(&shape.multiprocessors, cudaDevAttrMultiProcessorCount, device));
  SPMV_CUDA_CHECK(
      cudaDeviceGetAttribute(&shape.threads_per_multiprocessor, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  return shape;
}

template <class T>
const std::vector<FormatKernelEntry<T>>& format_kernel_registry() {
  // Every format kernel forms its sums in an order fixed by the format and
  // its parameters (carries between warps and blocks in later passes, not
  // atomics; dense-cublas: cuBLAS gemv, which cuBLAS documents as bitwise
  // reproducible on one architecture and SM count).
  static const std::vector<FormatKernelEntry<T>> registry = {
      {deterministic_kernel({"coo", "coo", Backend::cuda,
                             "warp-level segmented reduction over row-ordered triplets (Bell & Garland)",
                             {block_size_spec()}}),
       make_coo_segmented<T>},
      {deterministic_kernel({"bro-coo", "bro-coo", Backend::cuda,
                             "COO with delta-encoded, bit-packed row indices per warp interval; the coo kernel's "
                             "segmented reduction",
                             {interval_spec(), block_size_spec()}}),
       make_bro_coo_segmented<T>},
      {deterministic_kernel({"ell", "ell", Backend::cuda,
                             "ELLPACK, one thread per row, column-major slots padded to the longest row",
                             {block_size_spec(), max_padding_spec()}}),
       make_ell_thread_per_row<T>},
      {deterministic_kernel({"ellr-t", "ellpack-r", Backend::cuda,
                             "ELLPACK-R, T threads per row (ELLR-T); T and BS from the configuration model unless "
                             "given",
                             ellr_t_specs()}),
       make_ellr_t<T>},
      {deterministic_kernel({"hyb", "hyb", Backend::cuda,
                             "ELL part of width K plus COO remainder; K by the Bell-Garland rule unless given",
                             {ell_width_spec(), block_size_spec(), max_padding_spec()}}),
       make_hyb_ell_coo<T>},
      {deterministic_kernel({"dia", "dia", Backend::cuda,
                             "diagonal format, one thread per row, for banded and stencil matrices",
                             {block_size_spec(), max_padding_spec()}}),
       make_dia_thread_per_row<T>},
      {deterministic_kernel({"sell", "sell-c-sigma", Backend::cuda,
                             "SELL-C-sigma: chunks of C rows sorted within windows of sigma, one thread per row",
                             {one_of("chunk_rows", {8, 16, 32, 64, 128}, std::to_string(SellOptions{}.chunk_rows),
                                     "rows per chunk (C)"),
                              in_range("sigma", 1, INT_MAX, std::to_string(SellOptions{}.sigma),
                                       "rows per sorting window: 1 (no sorting) or a multiple of chunk_rows"),
                              block_size_spec(), max_padding_spec()}}),
       make_sell_thread_per_row<T>},
      {deterministic_kernel({"blocked", "blocked", Backend::cuda,
                             "Baskaran's run-time blocked format: b_r x b_c blocks, x of each block staged in shared "
                             "memory",
                             {one_of("block_rows", {1, 2, 4, 8}, std::to_string(BlockedOptions{}.block_rows),
                                     "rows per block (b_r)"),
                              in_range("block_cols", blocked_alignment, blocked_max_block_cols,
                                       std::to_string(BlockedOptions{}.block_cols),
                                       "columns per block (b_c), a multiple of " + std::to_string(blocked_alignment)),
                              max_padding_spec()}}),
       make_blocked_shared_x<T>},
      {deterministic_kernel({"segmented-scan", "segmented", Backend::cuda,
                             "products, head flags, segmented scan, gather (Sengupta/CUDPP; the papers' baseline)",
                             {}}),
       make_segmented_scan<T>},
      {deterministic_kernel({"dense-cublas", "dense", Backend::cuda,
                             "dense column-major copy, cuBLAS gemv (sparse-vs-dense crossover)",
                             {in_range("max_dense_mib", 1, INT_MAX, std::to_string(default_max_dense_mib),
                                       "the largest dense copy it builds, in MiB")}}),
       make_dense_cublas<T>},
      {deterministic_kernel({"bro-ell", "bro-ell", Backend::cuda,
                             "BRO-ELL: delta-encoded column indices bit-packed per slice column, decoded on the fly "
                             "(Tang et al. Algorithm 1); T streams per row (default by the ELLR-T model), exact value "
                             "codes when they save bytes",
                             {bro_slice_height_spec(), threads_per_row_spec({1, 2, 4, 8, 16, 32}, "the ELLR-T model's"),
                              one_of("value_codes", {0, 1}, "1 when they save bytes",
                                     "1: values as codes into a table of the distinct values"),
                              max_padding_spec()}}),
       make_bro_ell_decode<T>},
      {deterministic_kernel({"bro-hyb", "bro-hyb", Backend::cuda,
                             "HYB's split (K by the Bell-Garland rule unless given) into a BRO-ELL part (bro-ell "
                             "kernel) and a BRO-COO remainder (bro-coo kernel)",
                             {ell_width_spec(), bro_slice_height_spec(),
                              threads_per_row_spec({1, 2, 4, 8, 16, 32}, "1"), interval_spec(), block_size_spec(),
                              max_padding_spec()}}),
       make_bro_hyb_ell_coo<T>},
  };
  return registry;
}
template const std::vector<FormatKernelEntry<float>>& format_kernel_registry();
template const std::vector<FormatKernelEntry<double>>& format_kernel_registry();

}  // namespace spmv::detail
