// twinrt._twinrt.Session: the C++ Session for the Python package's InferenceSession
// (python/twinrt/session.py), which adds onnxruntime's names on top.
#include <pybind11/stl.h>

#include "arrays.h"
#include "bindings.h"
#include "errors.h"
#include "runtime/session_impl.h"
#include "twinrt/session.h"

namespace py = pybind11;

namespace twinrt::python {
namespace {

struct LoadArgs {
  std::string mode, isa, optimization;
  int threads = 1;
  bool lenient = false;
  std::map<std::string, int64_t> dims;
};

SessionOptions session_options(const LoadArgs& a) {
  SessionOptions o;
  o.mode = unwrap(parse_mode(a.mode));
  o.isa = unwrap(parse_isa(a.isa));
  o.optimization = unwrap(parse_optimization(a.optimization));
  if (a.threads < 0 || a.threads > 256)
    throw StatusError{invalid_argument("threads must be 0 (all hardware threads) to 256, got " + std::to_string(a.threads))};
  o.threads = a.threads;
  o.lenient = a.lenient;
  o.dim_overrides = a.dims;
  return o;
}

std::unique_ptr<Session> load(const py::object& model, const LoadArgs& args) {
  const SessionOptions options = session_options(args);
  if (py::isinstance<py::bytes>(model)) {
    const std::string_view bytes = model.cast<std::string_view>();
    py::gil_scoped_release no_gil;
    return unwrap(Session::load_bytes(bytes.data(), bytes.size(), options));
  }
  const std::string path = model.cast<std::string>();
  py::gil_scoped_release no_gil;
  return unwrap(Session::load(path, options));
}

py::dict io_dict(const IoInfo& io) {
  py::dict d;
  d["name"] = io.name;
  d["kind"] = io.type;
  d["dtype"] = dtype_name(io.dtype);
  d["has_shape"] = io.has_shape;
  d["dims"] = io.dims;
  d["dim_names"] = io.dim_names;
  return d;
}

py::list io_list(const std::vector<IoInfo>& ios) {
  py::list l;
  for (const IoInfo& io : ios) l.append(io_dict(io));
  return l;
}

py::dict metadata(const Session& s) {
  const ir::Model& m = s.impl().model();
  py::dict d;
  d["producer_name"] = m.producer_name;
  d["producer_version"] = m.producer_version;
  d["domain"] = m.domain;
  d["version"] = m.model_version;
  d["description"] = m.doc;
  d["ir_version"] = m.ir_version;
  d["graph_name"] = m.graph ? m.graph->name : "";
  d["graph_description"] = m.graph ? m.graph->doc : "";
  py::dict custom;
  for (const auto& [key, value] : m.metadata_props) custom[py::str(key)] = value;
  d["custom_metadata_map"] = custom;
  py::dict opsets;
  for (const auto& [domain, version] : m.opset_imports) opsets[py::str(domain)] = version;
  d["opsets"] = opsets;
  return d;
}

// Feeds converted while holding the GIL, the graph run without it, outputs converted
// with it again (zero-copy where twinrt's buffer is not shared).
py::dict run(const Session& s, const py::dict& feeds) {
  std::map<std::string, Value> values;
  for (auto [key, object] : feeds) {
    const std::string name = key.cast<std::string>();
    values.emplace(name, value_from_python(object, name));
  }
  Result<std::map<std::string, Value>> outputs = invalid_argument("not run");
  {
    py::gil_scoped_release no_gil;
    outputs = s.run(values);
  }
  std::map<std::string, Value> results = unwrap(std::move(outputs));
  py::dict out;
  for (auto& [name, value] : results) out[py::str(name)] = value_to_python(std::move(value));
  return out;
}

}  // namespace

void bind_session(py::module_& m) {
  py::class_<Session>(m, "Session", "A loaded model (twinrt::Session); see twinrt.InferenceSession.")
      .def(py::init([](const py::object& model, const std::string& mode, int threads, const std::string& isa,
                       const std::string& optimization, bool lenient, const std::map<std::string, int64_t>& dims) {
             return load(model, LoadArgs{mode, isa, optimization, threads, lenient, dims});
           }),
           py::arg("model"), py::arg("mode") = "default", py::arg("threads") = 1, py::arg("isa") = "auto",
           py::arg("optimization") = "all", py::arg("lenient") = false,
           py::arg("dims") = std::map<std::string, int64_t>{})
      .def_property_readonly("inputs", [](const Session& s) { return io_list(s.inputs()); })
      .def_property_readonly("outputs", [](const Session& s) { return io_list(s.outputs()); })
      .def_property_readonly("warnings", &Session::warnings)
      .def_property_readonly("mode", [](const Session& s) { return mode_name(s.options().mode); })
      .def_property_readonly("threads", [](const Session& s) { return s.options().threads; })
      .def_property_readonly("optimization",
                             [](const Session& s) { return optimization_name(s.options().optimization); })
      .def("metadata", &metadata)
      .def("run", &run, py::arg("feeds"), "Runs the graph; returns every output by name.");
}

}  // namespace twinrt::python
