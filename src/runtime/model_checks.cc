#include "runtime/model_checks.h"

#include <map>
#include <set>

namespace twinrt {

Status check_opset_imports(const ir::Model& model) {
  const int64_t version = model.opset("");
  if (version > kMaxDefaultOpset)
    return not_implemented("the model imports ai.onnx opset " + std::to_string(version) +
                           "; twinrt implements opsets up to " + std::to_string(kMaxDefaultOpset));
  return Status::ok();
}

Status check_graph_names(const ir::Graph& graph) {
  const std::string where = graph.name.empty() ? "graph" : "graph '" + graph.name + "'";
  std::set<std::string> inputs;
  for (const ir::ValueInfo& in : graph.inputs)
    if (!inputs.insert(in.name).second)
      return invalid_model(where + ": input '" + in.name + "' is listed twice");
  std::map<std::string, const ir::Node*> producer;
  for (const ir::Node& node : graph.nodes)
    for (const std::string& out : node.outputs) {
      if (out.empty()) continue;
      auto [it, fresh] = producer.emplace(out, &node);
      if (!fresh)
        return invalid_model(node.describe() + ": output '" + out + "' is also produced by " +
                             (it->second == &node ? std::string("this node") : it->second->describe()));
      if (inputs.count(out) || graph.initializers.count(out))
        return invalid_model(node.describe() + ": output '" + out + "' is already a graph input or initializer");
    }
  return Status::ok();
}

Status check_duplicate_attributes(const ir::Node& node) {
  std::set<std::string> seen;
  for (const ir::Attribute& a : node.attributes)
    if (!seen.insert(a.name).second)
      return invalid_model(node.describe() + ": attribute '" + a.name + "' is given twice");
  return Status::ok();
}

// Attributes of ai.onnx opsets before 7 that never changed what inference computes
// (in-place hints and the train/test switch): exporters of that era wrote them everywhere.
bool is_legacy_no_op_attribute(const KernelInit& init, const std::string& name) {
  return init.opset < 7 && ir::canonical_domain(init.node.domain).empty() &&
         (name == "consumed_inputs" || name == "is_test");
}

Status check_unknown_attributes(const KernelInit& init, bool lenient, std::vector<std::string>* warnings) {
  for (const ir::Attribute& a : init.node.attributes) {
    if (init.attributes_read.count(a.name) || is_legacy_no_op_attribute(init, a.name)) continue;
    const std::string message = init.node.describe() + ": unknown attribute '" + a.name + "'";
    if (!lenient) return invalid_model(message + " (the op does not use it; --lenient ignores it with a warning)");
    if (warnings) warnings->push_back(message + " is ignored");
  }
  return Status::ok();
}

}  // namespace twinrt
