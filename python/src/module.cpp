// spmv._spmv: the compiled half of the Python package `spmv` (python/spmv
// holds the Python half, which converts SciPy, CuPy and PyTorch objects and
// hands raw pointers to this module). Only the public API is used.
#include <exception>

#include "bindings.hpp"
#include "spmv/error.hpp"
#include "spmv/version.hpp"

namespace spmv::python {
namespace {

// Library errors become the Python exceptions a caller expects, message kept.
void translate_library_errors(std::exception_ptr error) {
  try {
    if (error) std::rethrow_exception(error);
  } catch (const OutOfMemory& e) {
    PyErr_SetString(PyExc_MemoryError, e.what());
  } catch (const InvalidArgument& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const ParseError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const SizeError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const FormatLimitError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const IoError& e) {
    PyErr_SetString(PyExc_OSError, e.what());
  } catch (const Error& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
}

}  // namespace

PYBIND11_MODULE(_spmv, m) {
  m.doc() = "Compiled part of the spmv package (use `import spmv`).";
  py::register_exception_translator(&translate_library_errors);
  m.attr("__version__") = library_version();
  m.def("version_text", &version_text,
        "Library version, git commit, CUDA runtime and cuSPARSE versions, as `spmv --version` prints.");
  bind_matrices(m);
  bind_plans(m);
  bind_operators(m);
}

}  // namespace spmv::python
