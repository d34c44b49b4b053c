// Small graph rewrites for the quantizers: fresh names, new initializers, and nodes placed
// before a given node (the graph stays topologically sorted).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/attributes.h"
#include "ir/ir.h"
#include "twinrt/tensor.h"

namespace twinrt::quantize {

class GraphEditor {
 public:
  explicit GraphEditor(ir::Graph& g);

  ir::Graph& graph() { return g_; }
  // `base`, or `base` with a number appended, unused by any value, node or initializer.
  std::string fresh(const std::string& base);
  // Adds an initializer under a fresh name derived from `base`; returns the name.
  std::string add_initializer(const std::string& base, Tensor t);
  // Queues `n` to run right before original node `before` (g.nodes.size(): at the end).
  void insert_before(size_t before, ir::Node n);
  // Queues `n` to run right after original node `after`, or first when `after` is npos.
  void insert_after(size_t after, ir::Node n);
  // The node that produces `value`, or npos for graph inputs and initializers.
  size_t producer(const std::string& value) const;
  // Drops original node `index`.
  void remove(size_t index);
  // Applies the queued insertions and removals, then drops initializers nothing reads.
  void commit();

 private:
  ir::Graph& g_;
  std::set<std::string> names_;
  std::map<std::string, size_t> producer_;
  std::map<size_t, std::vector<ir::Node>> before_, after_;
  std::vector<ir::Node> first_;
  std::vector<bool> removed_;
};

ir::Node make_node(const std::string& op, const std::string& name, std::vector<std::string> inputs,
                   std::vector<std::string> outputs, std::vector<ir::Attribute> attributes = {});
using ir::int_attribute;
// The constant tensor named `value` (an initializer), or null.
const Tensor* constant(const ir::Graph& g, const std::string& value);

}  // namespace twinrt::quantize
