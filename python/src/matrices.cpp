// Matrices between NumPy and the library: the Csr classes the operators are
// planned from (built from CSR arrays, validated and canonicalised by the
// library), and the readers and generators, which hand their arrays to NumPy
// without copying them.
#include <pybind11/stl.h>

#include <string>

#include "bindings.hpp"
#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/io.hpp"
#include "spmv/matrix.hpp"

namespace spmv::python {
namespace {

// A copy of a contiguous vector of Value (the Python half passes exact dtypes).
template <class Value>
std::vector<Value> to_vector(const py::buffer& array, const char* what) {
  const py::buffer_info info = array.request();
  if (info.ndim != 1 || info.itemsize != static_cast<py::ssize_t>(sizeof(Value)) ||
      info.strides[0] != info.itemsize)
    throw InvalidArgument(std::string(what) + " must be a contiguous vector of " +
                          std::to_string(sizeof(Value)) + "-byte values");
  const auto* data = static_cast<const Value*>(info.ptr);
  return std::vector<Value>(data, data + info.size);
}

template <class Value>
void bind_owned_array(py::module_& m, const char* name) {
  py::class_<OwnedArray<Value>>(m, name, py::buffer_protocol())
      .def_buffer([](OwnedArray<Value>& a) {
        return py::buffer_info(a.values.data(), static_cast<py::ssize_t>(a.values.size()), /*readonly=*/false);
      });
}

// (indptr, indices, data, (rows, cols)): scipy.sparse.csr_matrix's arguments.
template <class T>
py::tuple csr_arrays(Csr<T>&& a) {
  const index_t rows = a.rows;
  const index_t cols = a.cols;
  return py::make_tuple(to_python_buffer(std::move(a.row_ptr)), to_python_buffer(std::move(a.col_idx)),
                        to_python_buffer(std::move(a.values)), py::make_tuple(rows, cols));
}

template <class T>
void bind_csr(py::module_& m, const char* name) {
  py::class_<Csr<T>>(m, name, "A canonical host CSR matrix of the library (copied from the arrays).")
      .def(py::init([](index_t rows, index_t cols, const py::buffer& indptr, const py::buffer& indices,
                       const py::buffer& data) {
             return csr_from_arrays<T>(rows, cols, to_vector<index_t>(indptr, "indptr"),
                                       to_vector<index_t>(indices, "indices"), to_vector<T>(data, "data"));
           }),
           py::arg("rows"), py::arg("cols"), py::arg("indptr"), py::arg("indices"), py::arg("data"))
      .def_readonly("rows", &Csr<T>::rows)
      .def_readonly("cols", &Csr<T>::cols)
      .def_property_readonly("nnz", &Csr<T>::nnz)
      .def_property_readonly_static("value_type", [](py::object) { return value_type_name<T>(); });
}

// A CSR on the GPU, by the addresses of its arrays (CuPy, PyTorch): the
// Python side keeps the arrays alive while a plan reads them.
template <class T>
void bind_device_csr(py::module_& m, const char* name) {
  py::class_<DeviceCsrView<T>>(m, name, "A CSR matrix on a CUDA device, by the addresses of its arrays.")
      .def(py::init([](index_t rows, index_t cols, index_t nnz, std::uintptr_t indptr, std::uintptr_t indices,
                       std::uintptr_t data) {
             return DeviceCsrView<T>{rows, cols, nnz, reinterpret_cast<const index_t*>(indptr),
                                     reinterpret_cast<const index_t*>(indices), reinterpret_cast<const T*>(data)};
           }),
           py::arg("rows"), py::arg("cols"), py::arg("nnz"), py::arg("indptr"), py::arg("indices"), py::arg("data"))
      .def_readonly("rows", &DeviceCsrView<T>::rows)
      .def_readonly("cols", &DeviceCsrView<T>::cols)
      .def_readonly("nnz", &DeviceCsrView<T>::nnz);
}

template <class T>
py::tuple read_matrix_arrays(const std::string& path) {
  return csr_arrays(read_matrix<T>(path));
}

template <class T>
py::tuple read_libsvm_arrays(const std::string& path) {
  LabeledMatrix<T> data = read_libsvm<T>(path);
  return py::make_tuple(csr_arrays(std::move(data.features)), to_python_buffer(std::move(data.labels)));
}

py::list describe_generator_kinds() {
  py::list kinds;
  for (const GeneratorKind& kind : generator_kinds()) {
    py::dict params;
    for (const GeneratorParam& p : kind.params)
      params[py::str(p.name)] = py::dict(py::arg("default") = p.default_value, py::arg("help") = p.help);
    kinds.append(py::dict(py::arg("name") = kind.name, py::arg("help") = kind.help, py::arg("params") = params));
  }
  return kinds;
}

}  // namespace

void bind_matrices(py::module_& m) {
  bind_owned_array<index_t>(m, "IndexArray");
  bind_owned_array<float>(m, "F32Array");
  bind_owned_array<double>(m, "F64Array");
  bind_csr<float>(m, "CsrF32");
  bind_csr<double>(m, "CsrF64");
  bind_device_csr<float>(m, "DeviceCsrF32");
  bind_device_csr<double>(m, "DeviceCsrF64");
  m.def("read_matrix_f32", &read_matrix_arrays<float>, py::arg("path"));
  m.def("read_matrix_f64", &read_matrix_arrays<double>, py::arg("path"));
  m.def("read_libsvm_f32", &read_libsvm_arrays<float>, py::arg("path"));
  m.def("read_libsvm_f64", &read_libsvm_arrays<double>, py::arg("path"));
  m.def("generate", [](const std::string& spec) { return csr_arrays(generate(parse_generator_spec(spec))); },
        py::arg("spec"), "CSR arrays (float64) of a generated matrix, e.g. 'stencil27:n=150'.");
  m.def("generator_kinds", &describe_generator_kinds);
}

}  // namespace spmv::python
