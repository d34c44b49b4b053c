// Conv / Gemm / MatMul / BatchNormalization followed by Relu or Clip (constant bounds) ->
// one node whose kernel clamps its output (kernels/gemm/f32_gemm.h's epilogue; the
// normalization clamps each plane as it writes it: DenseNet's pre-activation BN + Relu). Bit-preserving: the
// clamp is the same comparison sequence as the Relu and Clip kernels, applied to the
// same rounded values.
#include "passes/graph_uses.h"
#include "passes/known_values.h"
#include "passes/passes.h"

namespace twinrt::passes {
namespace {

bool is_producer(const ir::Node& n) {
  return n.domain.empty() &&
         (n.op_type == "Conv" || n.op_type == "Gemm" || n.op_type == "MatMul" || n.op_type == "BatchNormalization") &&
         !n.fused_clamp && n.outputs.size() == 1;
}

}  // namespace

int fuse_clamp_activation(ir::Model& model) {
  ir::Graph& g = *model.graph;
  const KnownValues known(g);
  std::map<std::string, size_t> producer_of;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (is_producer(g.nodes[i])) producer_of[g.nodes[i].outputs[0]] = i;
  return fold_followers_into_producers(
      g, std::move(producer_of), [&](ir::Node& producer, const ir::Node& act, const std::string& value) {
        const std::optional<ir::FusedClamp> clamp = act.inputs[0] == value ? clamp_of(model, known, act) : std::nullopt;
        if (clamp) producer.fused_clamp = clamp;
        return clamp.has_value();
      });
}

}  // namespace twinrt::passes
