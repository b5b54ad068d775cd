// The catalogue of non-CSR format kernels of the cuda backend.
#include "core/determinism.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/format_kernels.hpp"

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

namespace {
// Every kernel whose format pads takes max_padding.
const char* const padding_limit = "max_padding=1.. (multiple of the CSR bytes, default 3)";
std::string with_limit(const std::string& params) { return params + " " + padding_limit; }
}  // namespace

template <class T>
const std::vector<FormatKernelEntry<T>>& format_kernel_registry() {
  // Every format kernel forms its sums in an order fixed by the format and
  // its parameters (carries between warps and blocks in later passes, not
  // atomics; dense-cublas: cuBLAS gemv, which cuBLAS documents as bitwise
  // reproducible on one architecture and SM count).
  static const std::vector<FormatKernelEntry<T>> registry = {
      {deterministic_kernel({"coo", "coo", Backend::cuda,
        "warp-level segmented reduction over row-ordered triplets (Bell & Garland)",
        "block_size=64..1024"}),
       {"block_size"},
       make_coo_segmented<T>},
      {deterministic_kernel({"bro-coo", "bro-coo", Backend::cuda,
        "COO with delta-encoded, bit-packed row indices per warp interval; the coo kernel's segmented reduction",
        "interval=32.. (multiple of 32; default one per resident warp) block_size=64..1024"}),
       {"interval", "block_size"},
       make_bro_coo_segmented<T>},
      {deterministic_kernel({"ell", "ell", Backend::cuda,
        "ELLPACK, one thread per row, column-major slots padded to the longest row",
        with_limit("block_size=64..1024")}),
       {"block_size", "max_padding"},
       make_ell_thread_per_row<T>},
      {deterministic_kernel({"ellr-t", "ellpack-r", Backend::cuda,
        "ELLPACK-R, T threads per row (ELLR-T); T and BS from the configuration model unless given",
        with_limit("threads_per_row=1|2|4|8|16|32 block_size=32..1024")}),
       {"threads_per_row", "block_size", "max_padding"},
       make_ellr_t<T>},
      {deterministic_kernel({"hyb", "hyb", Backend::cuda,
        "ELL part of width K plus COO remainder; K by the Bell-Garland rule unless given",
        with_limit("ell_width=0.. block_size=64..1024")}),
       {"ell_width", "block_size", "max_padding"},
       make_hyb_ell_coo<T>},
      {deterministic_kernel({"dia", "dia", Backend::cuda,
        "diagonal format, one thread per row, for banded and stencil matrices",
        with_limit("block_size=64..1024")}),
       {"block_size", "max_padding"},
       make_dia_thread_per_row<T>},
      {deterministic_kernel({"sell", "sell-c-sigma", Backend::cuda,
        "SELL-C-sigma: chunks of C rows sorted within windows of sigma, one thread per row",
        with_limit("chunk_rows=8|16|32|64|128 sigma=1|multiple of chunk_rows block_size=64..1024")}),
       {"chunk_rows", "sigma", "block_size", "max_padding"},
       make_sell_thread_per_row<T>},
      {deterministic_kernel({"blocked", "blocked", Backend::cuda,
        "Baskaran's run-time blocked format: b_r x b_c blocks, x of each block staged in shared memory",
        with_limit("block_rows=1|2|4|8 block_cols=16..1024 (multiple of 16)")}),
       {"block_rows", "block_cols", "max_padding"},
       make_blocked_shared_x<T>},
      {deterministic_kernel({"segmented-scan", "segmented", Backend::cuda,
        "products, head flags, segmented scan, gather (Sengupta/CUDPP; the papers' baseline)", ""}),
       {},
       make_segmented_scan<T>},
      {deterministic_kernel({"dense-cublas", "dense", Backend::cuda,
        "dense column-major copy, cuBLAS gemv (sparse-vs-dense crossover)",
        "max_dense_mib=1.. (default 1024)"}),
       {"max_dense_mib"},
       make_dense_cublas<T>},
      {deterministic_kernel({"bro-ell", "bro-ell", Backend::cuda,
        "BRO-ELL: delta-encoded column indices bit-packed per slice column, decoded on the fly (Tang et al. "
        "Algorithm 1); T streams per row (default by the ELLR-T model), exact value codes when they save bytes",
        with_limit("slice_height=32|64|128|256|512|1024 threads_per_row=1|2|4|8|16|32 value_codes=0|1")}),
       {"slice_height", "threads_per_row", "value_codes", "max_padding"},
       make_bro_ell_decode<T>},
      {deterministic_kernel({"bro-hyb", "bro-hyb", Backend::cuda,
        "HYB's split (K by the Bell-Garland rule unless given) into a BRO-ELL part (bro-ell kernel) and a BRO-COO "
        "remainder (bro-coo kernel)",
        with_limit("ell_width=0.. slice_height=32|64|..|1024 threads_per_row=1|2|..|32 (default 1) interval=32.. "
                   "(multiple of 32; default one per resident warp) block_size=64..1024")}),
       {"ell_width", "slice_height", "threads_per_row", "interval", "block_size", "max_padding"},
       make_bro_hyb_ell_coo<T>},
  };
  return registry;
}
template const std::vector<FormatKernelEntry<float>>& format_kernel_registry();
template const std::vector<FormatKernelEntry<double>>& format_kernel_registry();

}  // namespace spmv::detail
