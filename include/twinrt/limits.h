// Resource limits against hostile models and inputs (docs/security.md): every size a model
// or an input declares, and every value a run makes, is checked against them before it is
// allocated, so a bomb fails fast with an error naming the limit.
//
//   twinrt::set_resource_limits({.max_tensor_bytes = 1ull << 30, .max_memory_bytes = 4ull << 30});
//   auto session = twinrt::Session::load("model.onnx", {});  // keeps these limits
#pragma once

#include <cstdint>

namespace twinrt {

struct ResourceLimits {
  // The largest tensor: initializers, declared and inferred shapes, feeds, values made while
  // running. 0: the default, an eighth of physical memory (WebAssembly: half the heap's maximum).
  uint64_t max_tensor_bytes = 0;
  // The weights, and the values alive during one run. 0: the default, a quarter of physical
  // memory (WebAssembly: the heap's maximum).
  uint64_t max_memory_bytes = 0;
};

// The limits of sessions loaded after the call, and of the files the CLI reads; each session
// keeps the limits it was loaded with. Thread-safe.
void set_resource_limits(const ResourceLimits& limits);
// What set_resource_limits last set (0 where the default applies).
ResourceLimits resource_limits();

}  // namespace twinrt
