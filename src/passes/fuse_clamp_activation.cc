// Conv / Gemm / MatMul followed by Relu or Clip (constant bounds) -> one node whose
// kernel clamps its output (kernels/gemm/f32_gemm.h's epilogue). Bit-preserving: the
// clamp is the same comparison sequence as the Relu and Clip kernels, applied to the
// same rounded values.
#include "passes/graph_uses.h"
#include "passes/known_values.h"
#include "passes/passes.h"

namespace twinrt::passes {
namespace {

bool is_producer(const ir::Node& n) {
  return n.domain.empty() && (n.op_type == "Conv" || n.op_type == "Gemm" || n.op_type == "MatMul") &&
         !n.fused_clamp && n.outputs.size() == 1;
}

}  // namespace

int fuse_clamp_activation(ir::Model& model) {
  ir::Graph& g = *model.graph;
  const GraphUses uses = graph_uses(g);
  const KnownValues known(g);
  std::map<std::string, size_t> producer_of;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (is_producer(g.nodes[i])) producer_of[g.nodes[i].outputs[0]] = i;
  std::vector<bool> removed(g.nodes.size(), false);
  int fused = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const ir::Node& act = g.nodes[i];
    if (act.inputs.empty()) continue;
    auto p = producer_of.find(act.inputs[0]);
    if (p == producer_of.end() || !uses.only_read_once(act.inputs[0])) continue;
    auto clamp = clamp_of(model, known, act);
    if (!clamp) continue;
    ir::Node& producer = g.nodes[p->second];
    producer.fused_clamp = clamp;
    producer.fused_from.push_back(act.name);
    producer.outputs[0] = act.outputs[0];
    removed[i] = true;
    ++fused;
  }
  erase_nodes(g, removed);
  return fused;
}

}  // namespace twinrt::passes
