// Per-op rules of reverse-mode differentiation, used by the Gradient op. A rule gets the
// forward input values and the gradients of the node's outputs, and returns the
// gradients of its inputs. All tensors here are float64: the backward pass computes in
// double whatever the model's type. Adding an op means adding one rule to the table in
// gradient_rules.cc.
#pragma once

#include <string>
#include <vector>

#include "ir/ir.h"
#include "twinrt/status.h"
#include "twinrt/tensor.h"

namespace twinrt {

struct NodeGradient {
  const ir::Node* node = nullptr;
  std::vector<const Tensor*> inputs;        // forward values, null for omitted inputs
  std::vector<const Tensor*> output_grads;  // null where no gradient flows back
};

// Input gradients (an undefined Tensor where none flows), one per node input.
using GradientRule = Result<std::vector<Tensor>> (*)(const NodeGradient&);

// The rule for an ai.onnx op, or null when twinrt cannot differentiate it.
GradientRule find_gradient_rule(const ir::Node& node);

// Double-precision helpers shared by rules and the backward pass.
Result<Tensor> to_double_tensor(const Tensor& t);
Result<Tensor> filled_double(const std::vector<int64_t>& shape, double value);
// a + b with identical shapes (accumulating gradients of one value).
Result<Tensor> add_same_shape(const Tensor& a, const Tensor& b);

}  // namespace twinrt
