// twinrt._twinrt: the C++ core for the Python package (python/twinrt/).
#include "bindings.h"
#include "cli/version.h"
#include "errors.h"

PYBIND11_MODULE(_twinrt, m) {
  m.doc() = "twinrt's C++ core; use the twinrt package, not this module.";
  m.attr("__version__") = twinrt::cli::kVersion;
  twinrt::python::bind_errors(m);
  twinrt::python::bind_session(m);
  twinrt::python::bind_engine(m);
  twinrt::python::bind_parity(m);
}
