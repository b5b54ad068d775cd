// Internal: the factories behind plan(), one per backend. Each backend's
// directory defines its own; CUDA ones exist only when SPMV_HAVE_CUDA.
#pragma once

#include <memory>
#include <vector>

#include "spmv/formats/ellpack_r.hpp"
#include "spmv/operator.hpp"
#include "spmv/stats.hpp"

namespace spmv::detail {

template <class T>
std::unique_ptr<Operator<T>> make_reference_operator(const Csr<T>& a, const PlanOptions& options);
template <class T>
std::unique_ptr<Operator<T>> make_cpu_operator(const Csr<T>& a, const PlanOptions& options);
std::vector<KernelInfo> host_kernels();  // reference and cpu

#ifdef SPMV_HAVE_CUDA
template <class T>
std::unique_ptr<Operator<T>> make_cuda_operator(const Csr<T>& a, const PlanOptions& options);
template <class T>
std::unique_ptr<Operator<T>> make_cusparse_operator(const Csr<T>& a, const PlanOptions& options);
// The same for a CSR on the device, checked (check_device_csr).
template <class T>
std::unique_ptr<Operator<T>> make_cuda_operator(const DeviceCsrView<T>& a, const PlanOptions& options);
template <class T>
std::unique_ptr<Operator<T>> make_cusparse_operator(const DeviceCsrView<T>& a, const PlanOptions& options);
// Throws InvalidArgument unless `a`'s arrays are memory of device `device`
// holding a canonical CSR (validate()'s checks and messages).
template <class T>
void check_device_csr(const DeviceCsrView<T>& a, int device);
// analyse() of `a` (options.symmetry false) copying back only what it
// samples (analyse_fetched); `fingerprint` receives a hash of what was read.
template <class T>
MatrixStats analyse_on_device(const DeviceCsrView<T>& a, const StatsOptions& options, std::uint64_t& fingerprint);
std::vector<KernelInfo> cuda_kernels();      // cuda and cusparse
std::vector<KernelInfo> cusparse_kernels();  // cusparse only
bool cuda_device_present();
// "CUDA runtime 13.0, cuSPARSE 12.6.3": the libraries linked in (no device needed).
std::string cuda_library_versions();
// Multiprocessors and resident threads of the current device (for the
// ELLR-T model and the COO kernel's work split).
GpuShape current_gpu_shape();
// The current device's name, SM count and L2 size, and its copy bandwidth
// measured once per process and device (a few milliseconds).
DeviceProperties current_device_properties();
// The median of `runs` products on device operands, after `warmup` untimed
// ones (the measure mode's timer): y = A x, or with spmm_columns = k >= 2
// C = A B with k columns in `layout`.
template <class T>
double median_product_seconds(Operator<T>& op, int warmup, int runs, index_t spmm_columns = 0,
                              Layout layout = Layout::row_major);
#endif

}  // namespace spmv::detail
