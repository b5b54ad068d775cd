// Plans in Python: the options a plan is made with, and the Plan value itself
// (read-only attributes mirroring spmv::Plan, JSON out and back).
#include <pybind11/stl.h>

#include <string>

#include "bindings.hpp"
#include "spmv/error.hpp"
#include "spmv/plan.hpp"

namespace spmv::python {
namespace {

Tuning tuning_from_name(const std::string& name) {
  if (name == "model") return Tuning::model;
  if (name == "measure") return Tuning::measure;
  throw InvalidArgument("tuning must be 'model' or 'measure' (got '" + name + "')");
}

PlanOptions make_options(const std::string& backend, const std::string& kernel, const KernelParams& params,
                         bool explicit_transpose, bool spmv_only, int device, const std::string& reordering,
                         double expected_products, const std::string& tuning, int measured_candidates,
                         const std::string& plan_cache, index_t spmm_columns, const std::string& spmm_layout,
                         const std::string& selector_model, const std::string& spmm_selector_model) {
  PlanOptions options;
  options.backend = backend_from_string(backend.c_str());
  options.kernel = kernel;
  options.params = params;
  options.explicit_transpose = explicit_transpose;
  options.spmv_only = spmv_only;
  options.device = device;
  options.reordering = reordering_from_string(reordering);
  options.expected_products = expected_products;
  options.tuning = tuning_from_name(tuning);
  options.measured_candidates = measured_candidates;
  options.plan_cache = plan_cache;
  options.spmm_columns = spmm_columns;
  options.selector_model = selector_model;
  options.spmm_selector_model = spmm_selector_model;
  try {
    options.spmm_layout = layout_from_string(spmm_layout.c_str());
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(std::string("spmm_layout: ") + e.what());
  }
  return options;
}

py::dict candidate_dict(const PlanCandidate& c) {
  return py::dict(py::arg("backend") = to_string(c.backend), py::arg("kernel") = c.kernel,
                  py::arg("format") = c.format, py::arg("params") = c.params,
                  py::arg("predicted_seconds") = c.predicted_seconds,
                  py::arg("predicted_setup_seconds") = c.predicted_setup_seconds,
                  py::arg("predicted_cost_seconds") = c.predicted_cost_seconds,
                  py::arg("measured_seconds") = c.measured_seconds,
                  py::arg("measured_setup_seconds") = c.measured_setup_seconds, py::arg("refusal") = c.refusal);
}

py::object device_dict(const std::optional<DeviceProperties>& device) {
  if (!device) return py::none();
  return py::dict(py::arg("name") = device->name, py::arg("multiprocessors") = device->multiprocessors,
                  py::arg("l2_bytes") = device->l2_bytes,
                  py::arg("copy_bandwidth_gbs") = device->copy_bandwidth_gbs);
}

}  // namespace

void bind_plans(py::module_& m) {
  py::class_<PlanOptions>(m, "PlanOptions");
  m.def("plan_options", &make_options, py::arg("backend"), py::arg("kernel"), py::arg("params"),
        py::arg("explicit_transpose"), py::arg("spmv_only"), py::arg("device"), py::arg("reordering"),
        py::arg("expected_products"), py::arg("tuning"), py::arg("measured_candidates"), py::arg("plan_cache"),
        py::arg("spmm_columns"), py::arg("spmm_layout"), py::arg("selector_model"),
        py::arg("spmm_selector_model"));

  py::class_<Plan>(m, "Plan", "Which backend, format, kernel and parameters an operator uses, and why.")
      .def_property_readonly("backend", [](const Plan& p) { return to_string(p.options.backend); })
      .def_property_readonly("kernel", [](const Plan& p) { return p.options.kernel; })
      .def_property_readonly("params", [](const Plan& p) { return p.options.params; })
      .def_property_readonly("reordering", [](const Plan& p) { return to_string(p.options.reordering); })
      .def_property_readonly("spmm_columns", [](const Plan& p) { return p.options.spmm_columns; })
      .def_property_readonly("spmm_layout",
                             [](const Plan& p) { return p.options.spmm_layout == Layout::row_major ? "row" : "col"; })
      .def_readonly("format", &Plan::format)
      .def_readonly("value_type", &Plan::value_type)
      .def_property_readonly("shape", [](const Plan& p) { return py::make_tuple(p.rows, p.cols); })
      .def_readonly("nnz", &Plan::nnz)
      .def_readonly("predicted_seconds", &Plan::predicted_seconds)
      .def_readonly("predicted_setup_seconds", &Plan::predicted_setup_seconds)
      .def_readonly("expected_products", &Plan::expected_products)
      .def_readonly("tuning", &Plan::tuning)
      .def_readonly("reason", &Plan::reason)
      .def_readonly("selector_model", &Plan::selector_model)
      .def_readonly("analysis_seconds", &Plan::analysis_seconds)
      .def_readonly("selection_seconds", &Plan::selection_seconds)
      .def_readonly("measurement_seconds", &Plan::measurement_seconds)
      .def_property_readonly("device", [](const Plan& p) { return device_dict(p.device); })
      .def_readonly("features", &Plan::features)
      .def_property_readonly("candidates",
                             [](const Plan& p) {
                               py::list list;
                               for (const PlanCandidate& c : p.candidates) list.append(candidate_dict(c));
                               return list;
                             })
      .def_property_readonly(
          "transposed",
          [](const Plan& p) { return p.transposed ? py::cast(Plan(*p.transposed)) : py::object(py::none()); },
          "The plan of A^T (explicit_transpose on the cuda backend, no kernel named), else None.")
      .def("to_json", &plan_to_json, "The plan as JSON text (spmv plan's format).")
      .def_static("from_json", &plan_from_json, py::arg("text"), "A plan read back from to_json()'s text.")
      .def("__repr__", [](const Plan& p) {
        return "<spmv.Plan " + std::string(to_string(p.options.backend)) + "/" + p.options.kernel + " (" +
               p.format + ", " + p.value_type + ", " + std::to_string(p.rows) + "x" + std::to_string(p.cols) +
               "): " + p.reason + ">";
      });

  m.def("make_plan", static_cast<Plan (*)(const Csr<float>&, const PlanOptions&)>(&make_plan<float>),
        py::arg("csr"), py::arg("options"), py::call_guard<py::gil_scoped_release>());
  m.def("make_plan", static_cast<Plan (*)(const Csr<double>&, const PlanOptions&)>(&make_plan<double>),
        py::arg("csr"), py::arg("options"), py::call_guard<py::gil_scoped_release>());
  m.def("make_plan", static_cast<Plan (*)(const DeviceCsrView<float>&, const PlanOptions&)>(&make_plan<float>),
        py::arg("csr"), py::arg("options"), py::call_guard<py::gil_scoped_release>());
  m.def("make_plan", static_cast<Plan (*)(const DeviceCsrView<double>&, const PlanOptions&)>(&make_plan<double>),
        py::arg("csr"), py::arg("options"), py::call_guard<py::gil_scoped_release>());
}

}  // namespace spmv::python
