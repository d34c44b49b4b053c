// The boundary between a caller's feeds and the graph: every fed value is checked against
// the input's declaration before anything runs, and bool tensors are normalised.
#pragma once

#include <string>

#include "ir/ir.h"
#include "twinrt/tensor.h"

namespace twinrt {

// `v` checked against `type` (tensor: dtype and fixed dims; sequence: element dtype and
// dims of every element; optional: its value, when present). Returns the value to run
// with: `v` itself, or a copy whose bool tensors hold only 0 and 1. `what` names the input.
Result<Value> conform_feed(const ir::TypeInfo& type, const Value& v, const std::string& what);

}  // namespace twinrt
