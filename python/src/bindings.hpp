// The pieces of the extension module spmv._spmv, one file each; module.cpp
// puts them together.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace spmv::python {

namespace py = pybind11;

// Csr classes, readers and generators (matrices.cpp).
void bind_matrices(py::module_& m);
// PlanOptions, Plan, make_plan (plans.cpp).
void bind_plans(py::module_& m);
// Operators, plan(), make_operator(), the kernel catalogue (operators.cpp).
void bind_operators(py::module_& m);

// A read-only buffer (Python's buffer protocol) that owns `values` (moved,
// not copied); numpy.asarray() views it without a copy. The buffer protocol,
// not pybind11's NumPy API, so that one build works with NumPy 1 and 2.
template <class Value>
struct OwnedArray {
  std::vector<Value> values;
};

template <class Value>
py::object to_python_buffer(std::vector<Value>&& values) {
  return py::cast(OwnedArray<Value>{std::move(values)});
}

// Python's name for a value type: "f32" or "f64", as Plan::value_type.
template <class T>
constexpr const char* value_type_name() {
  return sizeof(T) == 4 ? "f32" : "f64";
}

}  // namespace spmv::python
