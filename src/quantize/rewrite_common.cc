#include "quantize/rewrite_common.h"

#include <memory>

namespace twinrt::quantize {

Status prepare_graph(ir::Model& model) {
  if (!model.graph) return invalid_model("model has no graph");
  model.graph = std::make_shared<ir::Graph>(*model.graph);
  return Status::ok();
}

bool is_excluded(const QuantizeOptions& options, const ir::Node& n) {
  return options.exclude_nodes.count(n.name) || options.exclude_ops.count(n.op_type);
}

std::string describe(const ir::Node& n) { return "node '" + n.name + "' (" + n.op_type + ")"; }

}  // namespace twinrt::quantize
