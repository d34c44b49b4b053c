// The parts of the twinrt._twinrt extension module, each registered by module.cc.
#pragma once

#include <pybind11/pybind11.h>

#include "engines/engine.h"

namespace twinrt::python {

void bind_session(pybind11::module_& m);
void bind_engine(pybind11::module_& m);
void bind_parity(pybind11::module_& m);

// Name -> array dicts as engine tensors and back (engine_binding.cc).
engines::TensorMap tensors_from_python(const pybind11::dict& feeds);
pybind11::dict tensors_to_python(engines::TensorMap tensors);

}  // namespace twinrt::python
