// twinrt._twinrt.Engine: one of the parity engines (twinrt in its modes, ONNX Runtime
// native, web in Node or Chromium, twinrt's WebAssembly build) behind src/engines/engine.h,
// so export checks and sweeps run what `twinrt compare` runs.
#include <pybind11/stl.h>

#include "arrays.h"
#include "bindings.h"
#include "engines/engine.h"
#include "errors.h"

namespace py = pybind11;

namespace twinrt::python {

engines::TensorMap tensors_from_python(const py::dict& feeds) {
  engines::TensorMap map;
  for (auto [key, object] : feeds) {
    const std::string name = key.cast<std::string>();
    Value v = value_from_python(object, name);
    if (!v.is_tensor()) throw StatusError{invalid_argument("input '" + name + "' must be one array")};
    map.emplace(name, std::move(v.tensor));
  }
  return map;
}

py::dict tensors_to_python(engines::TensorMap tensors) {
  py::dict out;
  for (auto& [name, t] : tensors) out[py::str(name)] = value_to_python(Value::of(std::move(t)));
  return out;
}

void bind_engine(py::module_& m) {
  py::class_<engines::Engine>(m, "Engine", "A parity engine by name (twinrt.engines).")
      .def(py::init([](const std::string& name, int threads, const std::string& graph_optimization,
                       const std::map<std::string, int64_t>& dims) {
             engines::EngineOptions options;
             options.threads = threads;
             options.graph_optimization = graph_optimization;
             options.dim_overrides = dims;
             py::gil_scoped_release no_gil;
             return unwrap(engines::make_engine(name, options));
           }),
           py::arg("name"), py::arg("threads") = 1, py::arg("graph_optimization") = "all",
           py::arg("dims") = std::map<std::string, int64_t>{})
      .def_property_readonly("name", &engines::Engine::name)
      .def_property_readonly("description", &engines::Engine::description)
      .def("load", [](engines::Engine& e, const std::string& path) {
             py::gil_scoped_release no_gil;
             throw_if_error(e.load(path));
           })
      .def("run", [](engines::Engine& e, const py::dict& feeds, const std::vector<std::string>& outputs) {
             const engines::TensorMap inputs = tensors_from_python(feeds);
             Result<engines::TensorMap> result = invalid_argument("not run");
             {
               py::gil_scoped_release no_gil;
               result = e.run(inputs, outputs);
             }
             return tensors_to_python(unwrap(std::move(result)));
           }, py::arg("feeds"), py::arg("outputs") = std::vector<std::string>{});
}

}  // namespace twinrt::python
