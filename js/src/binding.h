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

// Records `status` for twinrt_last_error().
void set_error(const Status& status);

template <class T>
T* fail(const Status& status) {
  set_error(status);
  return nullptr;
}

}  // namespace twinrt::wasm
