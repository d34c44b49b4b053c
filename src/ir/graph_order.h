// Which names nodes read (including through nested graphs) and the order to run them in.
// Shared by the runtime's compiler and the parity toolkit's graph analyses.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "twinrt/status.h"

namespace twinrt::ir {

// Names a graph reads that it does not define itself (inputs of nested graphs count).
void collect_free_names(const Graph& g, std::set<std::string>& out);

// Every name node `n` reads: its inputs and the free names of its subgraphs.
void collect_node_reads(const Node& n, std::set<std::string>& out);

// Kahn's algorithm, stable: nodes already in order stay in order. A cycle is an error.
Result<std::vector<const Node*>> topological_order(const Graph& g);

}  // namespace twinrt::ir
