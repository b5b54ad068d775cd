// Operators in Python. The Python half has checked every operand (dtype,
// shape, contiguity, host or device) and passes raw addresses: NumPy's for
// host arrays, CuPy's and PyTorch's device pointers for device arrays, which
// the library uses in place. The GIL is released while the library works.
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "spmv/error.hpp"
#include "spmv/operator.hpp"
#include "spmv/plan.hpp"

#ifdef SPMV_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace spmv::python {
namespace {

using Address = std::uintptr_t;

template <class T>
const T* input(Address address) {
  return reinterpret_cast<const T*>(address);
}
template <class T>
T* output(Address address) {
  return reinterpret_cast<T*>(address);
}

// Binds the operator to the caller's stream (a cudaStream_t's address) when
// one is given; none leaves it as it is (host operands).
template <class T>
void use_stream(Operator<T>& op, std::optional<Address> stream) {
  const auto handle = stream ? reinterpret_cast<StreamHandle>(*stream) : op.stream();
  if (handle != op.stream()) op.set_stream(handle);
}

// apply or apply_transposed on the caller's stream.
template <class T, void (Operator<T>::*product)(const T*, T*, T, T)>
void vector_product(Operator<T>& op, Address x, Address y, T alpha, T beta, std::optional<Address> stream) {
  use_stream(op, stream);
  (op.*product)(input<T>(x), output<T>(y), alpha, beta);
}

py::dict describe_operator(const OperatorDescription& d) {
  py::dict out(py::arg("backend") = to_string(d.backend), py::arg("format") = d.format,
               py::arg("kernel") = d.kernel, py::arg("params") = d.params, py::arg("device_bytes") = d.device_bytes,
               py::arg("matrix_bytes") = d.matrix_bytes, py::arg("analysis_seconds") = d.analysis_seconds,
               py::arg("build_seconds") = d.build_seconds, py::arg("upload_seconds") = d.upload_seconds,
               py::arg("reordering") = to_string(d.reordering), py::arg("reorder_seconds") = d.reorder_seconds);
  if (d.index_compression) {
    const CompressionMetrics& c = *d.index_compression;
    out["index_compression"] = py::dict(
        py::arg("space_savings") = c.against_uncompressed.space_savings(),
        py::arg("space_savings_against_csr") = c.against_csr.space_savings(),
        py::arg("bytes_per_nonzero") = c.bytes_per_nonzero());
  }
  // What the first `op @ B` of each k and layout planned (an operator planned for the SpMV).
  py::list planned_spmm;
  for (const auto& p : d.planned_spmm)
    planned_spmm.append(py::dict(py::arg("k") = p.k, py::arg("layout") = p.layout == Layout::row_major ? "row" : "col",
                                 py::arg("kernel") = p.kernel));
  out["planned_spmm"] = planned_spmm;
  // The operator of A^T that apply_transposed runs, when the plan chose its kernel.
  out["transposed"] = d.transposed ? py::object(describe_operator(*d.transposed)) : py::object(py::none());
  return out;
}

#ifdef SPMV_HAVE_CUDA
void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw DeviceError(std::string(what) + ": " + cudaGetErrorString(status));
}

// Seconds per product of `repeats` batches of `batch` applies on device
// operands, each batch timed by CUDA events on `stream`, which the operator
// is bound to: the C++ operator's own figure, for comparing the Python call.
template <class T>
std::vector<double> time_products(Operator<T>& op, Address x, Address y, int batch, int repeats, Address stream) {
  if (batch < 1 || repeats < 1) throw InvalidArgument("time_products: batch and repeats must be at least 1");
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  check_cuda(cudaEventCreate(&start), "time_products: cudaEventCreate");
  check_cuda(cudaEventCreate(&stop), "time_products: cudaEventCreate");
  use_stream(op, stream);
  const auto events_stream = reinterpret_cast<cudaStream_t>(op.stream());
  std::vector<double> seconds;
  try {
    for (int r = 0; r < repeats; ++r) {
      check_cuda(cudaEventRecord(start, events_stream), "time_products: cudaEventRecord");
      for (int i = 0; i < batch; ++i) op.apply(input<T>(x), output<T>(y));
      check_cuda(cudaEventRecord(stop, events_stream), "time_products: cudaEventRecord");
      check_cuda(cudaEventSynchronize(stop), "time_products: cudaEventSynchronize");
      float milliseconds = 0;
      check_cuda(cudaEventElapsedTime(&milliseconds, start, stop), "time_products: cudaEventElapsedTime");
      seconds.push_back(milliseconds * 1e-3 / batch);
    }
  } catch (...) {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    throw;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return seconds;
}
#else
template <class T>
std::vector<double> time_products(Operator<T>&, Address, Address, int, int, Address) {
  throw Unavailable("time_products: this build of spmv has no CUDA backend");
}
#endif

template <class T>
void bind_operator(py::module_& m, const char* name) {
  using Op = Operator<T>;
  py::class_<Op>(m, name)
      .def_property_readonly("rows", &Op::rows)
      .def_property_readonly("cols", &Op::cols)
      .def_property_readonly_static("value_type", [](py::object) { return value_type_name<T>(); })
      .def("apply", &vector_product<T, &Op::apply>, py::arg("x"), py::arg("y"), py::arg("alpha"), py::arg("beta"),
           py::arg("stream"), py::call_guard<py::gil_scoped_release>())
      .def("apply_transposed", &vector_product<T, &Op::apply_transposed>, py::arg("x"), py::arg("y"),
           py::arg("alpha"), py::arg("beta"), py::arg("stream"), py::call_guard<py::gil_scoped_release>())
      .def(
          "spmm",
          [](Op& op, Address b, Address c, index_t k, bool row_major, T alpha, T beta, std::optional<Address> stream) {
            use_stream(op, stream);
            op.spmm(input<T>(b), output<T>(c), k, row_major ? Layout::row_major : Layout::col_major, alpha, beta);
          },
          py::arg("b"), py::arg("c"), py::arg("k"), py::arg("row_major"), py::arg("alpha"), py::arg("beta"),
          py::arg("stream"), py::call_guard<py::gil_scoped_release>())
      .def_property_readonly("stream", [](const Op& op) { return reinterpret_cast<Address>(op.stream()); })
      .def("describe", [](const Op& op) { return describe_operator(op.describe()); })
      .def("last_transfer_seconds", &Op::last_transfer_seconds)
      .def("time_products", &time_products<T>, py::arg("x"), py::arg("y"), py::arg("batch"), py::arg("repeats"),
           py::arg("stream"), py::call_guard<py::gil_scoped_release>());

  m.def("plan", static_cast<std::unique_ptr<Op> (*)(const Csr<T>&, const PlanOptions&)>(&plan<T>), py::arg("csr"),
        py::arg("options"), py::call_guard<py::gil_scoped_release>());
  m.def("plan", static_cast<std::unique_ptr<Op> (*)(const DeviceCsrView<T>&, const PlanOptions&)>(&plan<T>),
        py::arg("csr"), py::arg("options"), py::call_guard<py::gil_scoped_release>());
  m.def("make_operator", static_cast<std::unique_ptr<Op> (*)(const Plan&, const Csr<T>&)>(&make_operator<T>),
        py::arg("plan"), py::arg("csr"), py::call_guard<py::gil_scoped_release>());
  m.def("make_operator",
        static_cast<std::unique_ptr<Op> (*)(const Plan&, const DeviceCsrView<T>&)>(&make_operator<T>),
        py::arg("plan"), py::arg("csr"), py::call_guard<py::gil_scoped_release>());
}

py::list describe_kernels() {
  py::list kernels;
  for (const KernelInfo& k : kernel_catalogue())
    kernels.append(py::dict(py::arg("name") = k.name, py::arg("format") = k.format,
                            py::arg("backend") = to_string(k.backend), py::arg("summary") = k.summary,
                            py::arg("params") = params_text(k.params), py::arg("transposed") = k.transposed,
                            py::arg("spmm") = k.spmm, py::arg("spmm_only") = k.spmm_only));
  return kernels;
}

}  // namespace

void bind_operators(py::module_& m) {
  bind_operator<float>(m, "OperatorF32");
  bind_operator<double>(m, "OperatorF64");
  m.def("kernels", &describe_kernels, "Every kernel of this build, as `spmv kernels` lists them.");
  m.def("cuda_available", &cuda_available, "Whether this build has the CUDA backend and a GPU is present.");
}

}  // namespace spmv::python
