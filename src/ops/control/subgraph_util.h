// Helpers shared by the ops that own nested graphs (If, Loop, Scan, SequenceMap).
#pragma once

#include <memory>
#include <string>

#include "ir/ir.h"
#include "ops/op.h"
#include "runtime/plan.h"

namespace twinrt {

// Compiles the node's graph attribute `name` (an error when it is absent or not a graph).
Result<std::shared_ptr<const Subgraph>> compile_graph_attribute(const KernelInit& init,
                                                                const std::string& name);

// The type inferred (or declared) for output i of a compiled graph.
const ir::TypeInfo& subgraph_output_type(const Subgraph& g, size_t i);

// What is certain about a value that may have either type: the common kind, element type
// and the dims on which both agree (unknown elsewhere).
ir::TypeInfo common_type(const ir::TypeInfo& a, const ir::TypeInfo& b);

// The tensor type `t` with a new leading dimension of unknown size (a stacked scan output).
ir::TypeInfo with_leading_unknown_dim(const ir::TypeInfo& t);

// Fixed dims of a tensor type for an empty scan output: unknown dims become 0. An unknown
// rank gives a rank-0 element (the stacked result is then [0]).
std::vector<int64_t> element_shape_or_zero(const ir::TypeInfo& t);

}  // namespace twinrt
