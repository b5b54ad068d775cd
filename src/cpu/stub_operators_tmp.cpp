// TEMPORARY until the CPU backend lands.
#include "core/backends.hpp"
#include "spmv/error.hpp"
namespace spmv::detail {
template <class T> std::unique_ptr<Operator<T>> make_reference_operator(const Csr<T>&, const PlanOptions&) { throw Unavailable("todo"); }
template <class T> std::unique_ptr<Operator<T>> make_cpu_operator(const Csr<T>&, const PlanOptions&) { throw Unavailable("todo"); }
template std::unique_ptr<Operator<float>> make_reference_operator(const Csr<float>&, const PlanOptions&);
template std::unique_ptr<Operator<double>> make_reference_operator(const Csr<double>&, const PlanOptions&);
template std::unique_ptr<Operator<float>> make_cpu_operator(const Csr<float>&, const PlanOptions&);
template std::unique_ptr<Operator<double>> make_cpu_operator(const Csr<double>&, const PlanOptions&);
std::vector<KernelInfo> host_kernels() { return {}; }
}
