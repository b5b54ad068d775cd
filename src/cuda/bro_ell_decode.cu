// BRO-ELL (Tang et al. 2013, Algorithm 1): column indices decoded on the fly
// from bit-packed delta streams, then multiplied.
//
// One thread block per slice, one thread per stream (blockDim = h, the
// slice height). Thread t of slice i reads its stream with a SymbolReader
// at symbols[symbol_offset[i] + t], stride h: whenever a warp loads, its 32
// threads load 32 adjacent symbols (coalesced). The loop runs over the l_i
// columns of the slice; at column j every thread reads the same width b_j,
// so the reader's "load the next symbol?" branch goes the same way in all
// lanes (the paper's load-decode-compute without divergence). The widths
// are staged in shared memory, h at a time (one coalesced byte per thread,
// between two barriers), and every lane then reads the same address, a
// broadcast: a width starts each iteration's chain of dependent steps
// (width -> field -> column -> x), and shared memory answers with a short,
// fixed latency where a global load, even an L1 hit, takes longer.
// A field of 0 is padding: its value and x are not read. Plain values are
// streamed (evict-first, coalesced: column j of the slice's h streams is h
// adjacent values); with value codes a second reader decodes the code
// stream the same way and the value comes from the table through the
// read-only cache (a small table stays in L1). x goes through the read-only
// cache. With T threads per row, the T adjacent streams of a row are summed
// by a sub-warp shuffle reduction and the row's first thread writes y.
#include "cuda/bro_ell_device.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/device_build.hpp"
#include "cuda/device_loads.cuh"
#include "cuda/ellpack_r_device.hpp"
#include "cuda/format_kernels.hpp"
#include "formats/bro_symbols.hpp"

namespace spmv::detail {

namespace {

template <class T>
struct BroEllView {
  index_t rows = 0;
  const index_t* width_offset = nullptr;
  const std::uint8_t* widths = nullptr;
  const index_t* symbol_offset = nullptr;
  const bro_symbol_t* symbols = nullptr;
  const T* values = nullptr;  // without value codes
  const T* value_table = nullptr;
  int value_code_bits = 0;
  const index_t* code_symbol_offset = nullptr;
  const bro_symbol_t* code_symbols = nullptr;
};

// 1024: slices of up to 1024 streams (and staged widths); the kernel needs
// fewer than the 64 registers per thread this allows.
template <class T, int ThreadsPerRow, bool ValueCodes>
__global__ void __launch_bounds__(1024)
    spmv_bro_ell_decode_kernel(BroEllView<T> a, const T* __restrict__ x, T* __restrict__ y, T alpha, T beta) {
  const index_t slice = blockIdx.x;
  const int lane = threadIdx.x;  // the stream within the slice
  const int h = blockDim.x;
  const index_t first_column = load_cached(a.width_offset + slice);
  const index_t columns = load_cached(a.width_offset + slice + 1) - first_column;
  const std::uint8_t* const widths = a.widths + first_column;
  __shared__ std::uint8_t staged_widths[1024];
  SymbolReader index(a.symbols + load_cached(a.symbol_offset + slice) + lane, h);
  // Without codes (or with 0-bit codes) this reader never loads.
  SymbolReader codes(ValueCodes && a.code_symbols ? a.code_symbols + load_cached(a.code_symbol_offset + slice) + lane
                                                  : a.code_symbols,
                     h);
  std::size_t slot = static_cast<std::size_t>(first_column) * h + lane;
  index_t column = -1;
  T sum = 0;
  // The bounds depend on the slice only, so every thread meets every barrier.
  for (index_t chunk = 0; chunk < columns; chunk += h) {
    const index_t chunk_columns = min(h, columns - chunk);
    __syncthreads();  // the previous chunk's widths are no longer read
    if (lane < chunk_columns) staged_widths[lane] = load_streaming(widths + chunk + lane);
    __syncthreads();
    for (index_t j = 0; j < chunk_columns; ++j, slot += h) {
      const std::uint32_t delta = index.get(staged_widths[j]);
      const std::uint32_t code = ValueCodes ? codes.get(a.value_code_bits) : 0;
      column += static_cast<index_t>(delta);
      if (delta != 0) {
        const T value = ValueCodes ? load_cached(a.value_table + code) : load_streaming(a.values + slot);
        sum += value * load_cached(x + column);
      }
    }
  }
  // Every thread of the block reaches here (streams past the last row are
  // empty, not absent), so whole warps take part in the reduction.
  if (ThreadsPerRow > 1) sum = subwarp_sum<ThreadsPerRow>(sum, 0xffffffffu);
  const std::int64_t stream = static_cast<std::int64_t>(slice) * h + lane;
  const std::int64_t row = stream / ThreadsPerRow;
  if (stream % ThreadsPerRow == 0 && row < a.rows) store_result(y + row, sum, alpha, beta);
}

template <class T, int ThreadsPerRow>
void launch(const BroEllView<T>& a, bool value_codes, unsigned slices, int slice_height, const T* x, T* y, T alpha,
            T beta, cudaStream_t stream) {
  if (value_codes)
    spmv_bro_ell_decode_kernel<T, ThreadsPerRow, true><<<slices, slice_height, 0, stream>>>(a, x, y, alpha, beta);
  else
    spmv_bro_ell_decode_kernel<T, ThreadsPerRow, false><<<slices, slice_height, 0, stream>>>(a, x, y, alpha, beta);
  SPMV_LAUNCH_CHECK();
}

template <class T>
class BroEllDecode final : public FormatKernel<T> {
 public:
  BroEllDecode(DeviceBroEll<T>&& matrix, int max_padding) : max_padding_(max_padding), matrix_(std::move(matrix)) {}

  void spmv(const T* x, T* y, T alpha, T beta, cudaStream_t stream) const override {
    const BroEllShape& shape = matrix_.shape;
    if (shape.slices == 0) return;
    const BroEllView<T> a{shape.rows,
                          matrix_.width_offset.data(),
                          matrix_.widths.data(),
                          matrix_.symbol_offset.data(),
                          matrix_.symbols.data(),
                          matrix_.values.data(),
                          matrix_.value_table.data(),
                          matrix_.value_code_bits,
                          matrix_.code_symbol_offset.data(),
                          matrix_.code_symbols.data()};
    const auto slices = static_cast<unsigned>(shape.slices);
    const bool value_codes = shape.value_codes;
    const int slice_height = shape.slice_height;
    switch (matrix_.threads_per_row) {
      case 1: launch<T, 1>(a, value_codes, slices, slice_height, x, y, alpha, beta, stream); break;
      case 2: launch<T, 2>(a, value_codes, slices, slice_height, x, y, alpha, beta, stream); break;
      case 4: launch<T, 4>(a, value_codes, slices, slice_height, x, y, alpha, beta, stream); break;
      case 8: launch<T, 8>(a, value_codes, slices, slice_height, x, y, alpha, beta, stream); break;
      case 16: launch<T, 16>(a, value_codes, slices, slice_height, x, y, alpha, beta, stream); break;
      default: launch<T, 32>(a, value_codes, slices, slice_height, x, y, alpha, beta, stream); break;
    }
  }
  KernelParams params() const override {
    return {{"slice_height", matrix_.shape.slice_height},
            {"threads_per_row", matrix_.threads_per_row},
            {"value_codes", matrix_.shape.value_codes ? 1 : 0},
            {"max_padding", max_padding_}};
  }
  std::size_t device_bytes() const override { return matrix_.bytes(); }
  // All index and code data once; of the plain values only those of entries
  // (the padding's are skipped). See bro_ell_matrix_bytes.
  std::size_t matrix_bytes() const override { return bro_ell_matrix_bytes(matrix_.shape); }
  std::optional<CompressionMetrics> index_compression() const override { return bro_ell_metrics(matrix_.shape); }

 private:
  int max_padding_;
  DeviceBroEll<T> matrix_;
};

// value_codes: absent lets the builder decide (BroValueCodes::when_smaller).
BroValueCodes value_codes_param(const KernelParams& params) {
  switch (param_or(params, "value_codes", -1)) {
    case 0: return BroValueCodes::never;
    case 1: return BroValueCodes::always;
    default: return BroValueCodes::when_smaller;
  }
}

}  // namespace

template <class T>
std::unique_ptr<FormatKernel<T>> make_bro_ell_decode(const FormatSource<T>& source, const KernelParams& params) {
  const CsrView<T>& a = source.device;
  BroEllOptions options;
  options.slice_height = param_or(params, "slice_height", options.slice_height);
  // Default T: the ELLR-T configuration model's. The decomposition is the
  // same (T adjacent threads per row, a warp busy for its longest stream);
  // the model does not weigh that T > 1 widens the deltas by about log2(T) bits.
  if (params.count("threads_per_row")) {
    options.threads_per_row = param_or(params, "threads_per_row", 1);
  } else {
    const DeviceBuffer<index_t> lengths = device_row_lengths(a, source.stream);
    options.threads_per_row =
        ellrt_configuration(device_ellrt_warp_steps(lengths.data(), a.rows, source.stream), current_gpu_shape())
            .threads_per_row;
  }
  options.value_codes = value_codes_param(params);
  options.max_padding = max_padding_param(params);
  return make_bro_ell_decode_of(build_bro_ell_on_device(a, options, source.stream),
                                static_cast<int>(options.max_padding));
}

template <class T>
std::unique_ptr<FormatKernel<T>> make_bro_ell_decode_of(DeviceBroEll<T>&& matrix, int max_padding) {
  return std::make_unique<BroEllDecode<T>>(std::move(matrix), max_padding);
}

template std::unique_ptr<FormatKernel<float>> make_bro_ell_decode(const FormatSource<float>&, const KernelParams&);
template std::unique_ptr<FormatKernel<double>> make_bro_ell_decode(const FormatSource<double>&, const KernelParams&);
template std::unique_ptr<FormatKernel<float>> make_bro_ell_decode_of(DeviceBroEll<float>&&, int);
template std::unique_ptr<FormatKernel<double>> make_bro_ell_decode_of(DeviceBroEll<double>&&, int);

}  // namespace spmv::detail
