// Shared by the two halves of the WebAssembly C ABI (binding.cc, binding_values.cc).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "twinrt/session.h"

namespace twinrt::wasm {

// A session as JavaScript holds it (binding.cc), with the threads it took from the pool.
struct SessionHandle {
  std::unique_ptr<Session> session;
  int threads = 1;
};

// Named inputs of one run, built value by value from JavaScript.
struct Feeds {
  std::map<std::string, Value> values;
};

// A run's outputs, by name.
struct Outputs {
  std::vector<std::pair<std::string, Value>> entries;
};

// That the tensors a value holds (itself, an optional's content, a sequence's elements) have
// element type `dtype`: a kernel chosen for the declared type would read another type's
// bytes, past the end of a narrower one. `what` names the value in the error.
Status check_value_elements(const Value& value, DataType dtype, const std::string& what);

// Records `status` for twinrt_last_error().
void set_error(const Status& status);

template <class T>
T* fail(const Status& status) {
  set_error(status);
  return nullptr;
}

}  // namespace twinrt::wasm
