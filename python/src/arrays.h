// numpy arrays <-> twinrt values. Inputs are wrapped without a copy when the array is
// C-contiguous, aligned and in native byte order (the Python layer makes it so); outputs
// become arrays over twinrt's buffer when nothing else (a weight, an input, another
// output) shares it, and are copied otherwise so every returned array is writable and
// independent of the session.
#pragma once

#include <map>
#include <string>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "twinrt/tensor.h"

namespace twinrt::python {

// `name` is the input the array is fed to, for error messages.
Value value_from_python(const pybind11::handle& object, const std::string& name);

// Tensor -> ndarray, sequence -> list of ndarrays, optional -> its value or None.
pybind11::object value_to_python(Value value);

}  // namespace twinrt::python
