// What the fusion passes need to know about who reads a value, and how they drop nodes.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace twinrt::passes {

struct GraphUses {
  std::map<std::string, int> readers;  // how many node inputs name each value
  std::set<std::string> pinned;        // graph outputs and names nested graphs read

  // A value that one node reads and nothing else sees: its producer may be merged into
  // that reader.
  bool only_read_once(const std::string& name) const;
};

GraphUses graph_uses(const ir::Graph& g);

// Removes the nodes marked in `removed` (indexed like g.nodes), keeping the others' order.
void erase_nodes(ir::Graph& g, const std::vector<bool>& removed);

}  // namespace twinrt::passes
