#include "quantize/rewrite_common.h"

#include <memory>
#include <set>
#include <vector>

namespace twinrt::quantize {

namespace {

// Constant nodes whose `value` is a tensor -> initializers. A Constant that is also a graph
// output, or whose name an initializer or graph input already holds, stays a node.
void constants_to_initializers(ir::Graph& g) {
  std::set<std::string> taken;
  for (const ir::ValueInfo& v : g.outputs) taken.insert(v.name);
  for (const ir::ValueInfo& v : g.inputs) taken.insert(v.name);
  for (const auto& [name, t] : g.initializers) taken.insert(name);
  std::vector<ir::Node> kept;
  for (ir::Node& n : g.nodes) {
    const bool movable = n.op_type == "Constant" && n.domain.empty() && n.outputs.size() == 1 && n.attributes.size() == 1 &&
                         n.attributes[0].name == "value" && n.attributes[0].type == ir::Attribute::Type::kTensor &&
                         !taken.count(n.outputs[0]);
    if (!movable) {
      kept.push_back(std::move(n));
      continue;
    }
    g.initializers[n.outputs[0]] = std::move(n.attributes[0].t);
    g.initializer_order.push_back(n.outputs[0]);
  }
  g.nodes = std::move(kept);
}

}  // namespace

Status prepare_graph(ir::Model& model) {
  if (!model.graph) return invalid_model("model has no graph");
  model.graph = std::make_shared<ir::Graph>(*model.graph);
  constants_to_initializers(*model.graph);
  return Status::ok();
}

bool is_excluded(const QuantizeOptions& options, const ir::Node& n) {
  return options.exclude_nodes.count(n.name) || options.exclude_ops.count(n.op_type);
}

std::string describe(const ir::Node& n) { return "node '" + n.name + "' (" + n.op_type + ")"; }

}  // namespace twinrt::quantize
