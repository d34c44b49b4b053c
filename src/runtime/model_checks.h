// Strict validation done while a model compiles, so that a malformed model is an error
// naming the node instead of a plausible wrong answer (docs/security.md, "Strictness").
#pragma once

#include <string>
#include <vector>

#include "ir/ir.h"
#include "ops/op.h"

namespace twinrt {

// The highest ai.onnx opset twinrt implements. A newer opset may have changed the meaning
// of an op twinrt would otherwise run with its older semantics, so it is refused.
inline constexpr int64_t kMaxDefaultOpset = 18;

// The model imports no ai.onnx opset newer than kMaxDefaultOpset.
Status check_opset_imports(const ir::Model& model);

// Names in one graph: inputs are distinct, and every node output is produced once (not by
// two nodes, twice by one node, or also by a graph input or initializer).
Status check_graph_names(const ir::Graph& graph);

// No attribute is given twice on a node.
Status check_duplicate_attributes(const ir::Node& node);

// After the op's factory ran: every attribute of the node was asked for by the op. Unknown
// attributes are errors, or warnings appended to `warnings` when `lenient`.
Status check_unknown_attributes(const KernelInit& init, bool lenient, std::vector<std::string>* warnings);

}  // namespace twinrt
