#include "errors.h"

#include <map>

namespace py = pybind11;

namespace twinrt::python {
namespace {

// Borrowed by the translator; the module keeps them alive.
std::map<StatusCode, PyObject*> g_classes;

PyObject* new_class(py::module_& m, const char* name, PyObject* bases, const char* doc) {
  const std::string qualified = std::string("twinrt.") + name;
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
  if (!cls) throw py::error_already_set();
  m.add_object(name, py::reinterpret_steal<py::object>(cls));
  return cls;
}

}  // namespace

void bind_errors(py::module_& m) {
  PyObject* base = new_class(m, "TwinrtError", PyExc_RuntimeError,
                             "An error reported by twinrt; .args[0] is twinrt's message.");
  struct Entry {
    StatusCode code;
    const char* name;
    PyObject* builtin;  // a second base, so `except ValueError` and the like catch it too
    const char* doc;
  };
  const Entry entries[] = {
      {StatusCode::kInvalidModel, "InvalidModel", PyExc_ValueError, "The model is malformed or violates the ONNX spec."},
      {StatusCode::kInvalidArgument, "InvalidArgument", PyExc_ValueError, "A bad input, option or argument."},
      {StatusCode::kNotImplemented, "NotImplementedByTwinrt", PyExc_NotImplementedError,
       "Valid ONNX that twinrt cannot run (yet)."},
      {StatusCode::kIoError, "IoError", PyExc_OSError, "A file is missing or unreadable."},
      {StatusCode::kOutOfMemory, "OutOfMemory", PyExc_MemoryError, "An allocation was refused or a size overflowed."},
      {StatusCode::kInternal, "InternalError", nullptr, "A bug in twinrt."},
      {StatusCode::kUnavailable, "EngineUnavailable", nullptr, "An engine or tool is not installed or cannot start."},
  };
  for (const Entry& e : entries) {
    py::tuple bases = e.builtin ? py::make_tuple(py::handle(base), py::handle(e.builtin)) : py::make_tuple(py::handle(base));
    g_classes[e.code] = new_class(m, e.name, bases.ptr(), e.doc);
  }
  g_classes[StatusCode::kOk] = base;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const StatusError& e) {
      auto it = g_classes.find(e.status.code());
      PyErr_SetString(it != g_classes.end() ? it->second : g_classes[StatusCode::kOk], e.status.message().c_str());
    }
  });
}

}  // namespace twinrt::python
