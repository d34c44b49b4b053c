// Conv / Gemm / MatMul followed by Relu or Clip (constant bounds) -> one node whose
// kernel clamps its output (kernels/gemm/f32_gemm.h's epilogue). Bit-preserving: the
// clamp is the same comparison sequence as the Relu and Clip kernels, applied to the
// same rounded values.
#include "passes/graph_uses.h"
#include "passes/passes.h"

namespace twinrt::passes {
namespace {

bool is_producer(const ir::Node& n) {
  return n.domain.empty() && (n.op_type == "Conv" || n.op_type == "Gemm" || n.op_type == "MatMul") &&
         !n.fused_clamp && n.outputs.size() == 1;
}

// The value of a float scalar known before running: an initializer or a Constant output.
std::optional<float> constant_scalar(const ir::Graph& g, const std::string& name) {
  const Tensor* t = nullptr;
  auto init = g.initializers.find(name);
  if (init != g.initializers.end()) t = &init->second;
  for (const ir::Node& n : g.nodes)
    if (!t && n.op_type == "Constant" && n.domain.empty() && n.outputs.size() == 1 && n.outputs[0] == name)
      if (const ir::Attribute* v = n.attr("value"); v && v->type == ir::Attribute::Type::kTensor) t = &v->t;
  if (!t || t->dtype() != DataType::kFloat || t->numel() != 1) return std::nullopt;
  return t->data<float>()[0];
}

// The clamp a Relu or Clip node applies, when it is known before running.
std::optional<ir::FusedClamp> clamp_of(const ir::Model& model, const ir::Graph& g, const ir::Node& n) {
  if (!n.domain.empty() || n.inputs.empty() || n.outputs.size() != 1) return std::nullopt;
  if (n.op_type == "Relu") return ir::FusedClamp{0.0f, std::nullopt};
  if (n.op_type != "Clip") return std::nullopt;
  ir::FusedClamp c;
  if (model.opset("") < 11) {
    if (const ir::Attribute* a = n.attr("min")) c.min = a->f;
    if (const ir::Attribute* a = n.attr("max")) c.max = a->f;
    return c;
  }
  // Bounds are inputs; a float bound also means float data (Clip's types agree).
  for (size_t i = 1; i < 3 && i < n.inputs.size(); ++i) {
    if (n.inputs[i].empty()) continue;
    auto v = constant_scalar(g, n.inputs[i]);
    if (!v) return std::nullopt;
    (i == 1 ? c.min : c.max) = *v;
  }
  return c;
}

}  // namespace

int fuse_clamp_activation(ir::Model& model) {
  ir::Graph& g = *model.graph;
  const GraphUses uses = graph_uses(g);
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
    auto clamp = clamp_of(model, g, act);
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
