// twinrt's Status as Python exceptions: one class per StatusCode under twinrt.TwinrtError,
// each carrying twinrt's own message.
#pragma once

#include <utility>

#include <pybind11/pybind11.h>

#include "twinrt/status.h"

namespace twinrt::python {

// Creates the exception classes in `m` and the translator that raises them.
void bind_errors(pybind11::module_& m);

// Thrown through pybind11 and turned into the class for its code.
struct StatusError {
  Status status;
};

inline void throw_if_error(const Status& s) {
  if (!s.is_ok()) throw StatusError{s};
}

template <class T>
T unwrap(Result<T> r) {
  if (!r) throw StatusError{r.status()};
  return std::move(r).value();
}

}  // namespace twinrt::python
