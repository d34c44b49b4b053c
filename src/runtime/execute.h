// Runs a compiled Subgraph: one frame of value slots per call, so concurrent runs of the
// same plan share nothing mutable.
#pragma once

#include <vector>

#include "runtime/plan.h"
#include "runtime/thread_pool.h"

namespace twinrt {

struct ExecOptions {
  Mode mode = Mode::kDefault;
  ThreadPool* pool = nullptr;
};

// `inputs` follow g.input_slots, `outer` follows g.outer_names; `overrides` replace
// overridable initializers (slot, value). Returns values in g.output_slots order.
Result<std::vector<Value>> execute(const Subgraph& g, std::vector<Value> inputs,
                                   std::vector<Value> outer, const ExecOptions& options,
                                   std::vector<std::pair<int, Value>> overrides = {});

}  // namespace twinrt
