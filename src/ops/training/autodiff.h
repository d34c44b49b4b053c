// Reverse-mode differentiation for the Gradient op: finds the nodes of a graph that
// compute `y` from the independent values `xs` (differentiated) and `zs` (not), packs
// them into a forward graph the runtime can compile, and back-propagates through them
// with the rules of gradient_rules.h.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "twinrt/status.h"

namespace twinrt {

struct GradientPlan {
  std::vector<std::string> xs, zs;
  std::string y;
  // Inputs xs then zs, the nodes computing y in topological order, and as outputs every
  // value the backward pass reads (forward_outputs, in that order).
  std::shared_ptr<ir::Graph> forward;
  std::vector<std::string> forward_outputs;
  std::vector<bool> differentiated;  // per forward node: does it depend on some x?
};

// `input_types` are the types of xs then zs (as the Gradient node's inputs).
Result<GradientPlan> plan_gradient(const ir::Graph& graph, std::vector<std::string> xs, std::vector<std::string> zs,
                                   std::string y, const std::vector<ir::TypeInfo>& input_types);

// dy/dx for each x (float64 tensors shaped like x), from the forward graph's outputs.
Result<std::vector<Tensor>> backpropagate(const GradientPlan& plan, const std::vector<Value>& forward_values);

}  // namespace twinrt
