// The Gradient op (ai.onnx.preview.training): dy/dx for the xs, ys and zs attributes,
// evaluated at the node's inputs (values for xs then zs).
#pragma once

#include "ops/op.h"

namespace twinrt {

// Builds the kernel for a Gradient node that lives in `graph`.
Result<std::unique_ptr<OpKernel>> create_gradient_kernel(const KernelInit& init, const ir::Graph& graph);

}  // namespace twinrt
