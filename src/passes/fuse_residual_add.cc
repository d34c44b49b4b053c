// Conv followed by Add (a residual connection: Conv(x) + r or r + Conv(x)) -> one Conv
// node that takes r as an extra last input and adds it to its output (the tile kernels'
// epilogue, kernels/gemm/f32_gemm.h). Bit-preserving: the Conv's output is rounded
// before r is added, as the separate Add does, and float addition is commutative. An r
// that broadcasts or a float16 Conv takes the unfused route inside the kernel.
#include "passes/graph_uses.h"
#include "passes/passes.h"

namespace twinrt::passes {

int fuse_residual_add(ir::Model& model) {
  if (model.opset("") < 7) return 0;  // Add-6 and older broadcast by attributes
  ir::Graph& g = *model.graph;
  const GraphUses uses = graph_uses(g);
  std::map<std::string, size_t> conv_of;  // output name -> index of the Conv producing it
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const ir::Node& n = g.nodes[i];
    if (n.domain.empty() && n.op_type == "Conv" && n.outputs.size() == 1 && !n.fused_residual && !n.fused_clamp &&
        n.inputs.size() <= 3)
      conv_of[n.outputs[0]] = i;
  }
  std::vector<bool> removed(g.nodes.size(), false);
  int fused = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const ir::Node& add = g.nodes[i];
    if (!add.domain.empty() || add.op_type != "Add" || add.inputs.size() != 2 || add.outputs.size() != 1 ||
        !add.attributes.empty() || add.inputs[0] == add.inputs[1])
      continue;
    for (size_t side = 0; side < 2; ++side) {
      auto conv = conv_of.find(add.inputs[side]);
      if (conv == conv_of.end() || !uses.only_read_once(add.inputs[side])) continue;
      ir::Node& producer = g.nodes[conv->second];
      producer.inputs.resize(3);  // an absent bias stays "" so the residual is input 3
      producer.inputs.push_back(add.inputs[1 - side]);
      producer.fused_residual = true;
      producer.outputs[0] = add.outputs[0];
      producer.fused_from.push_back(add.name);
      conv_of.erase(conv);
      removed[i] = true;
      ++fused;
      break;
    }
  }
  erase_nodes(g, removed);
  return fused;
}

}  // namespace twinrt::passes
