// Conv or MatMul followed by Add (a residual connection: Conv(x) + r or r + Conv(x)) -> one
// node that takes r as input 3 and adds it to its output (the tile kernels' epilogue,
// kernels/gemm/f32_gemm.h). Bit-preserving: the product is rounded before r is added, as
// the separate Add does, and float addition is commutative. An r that broadcasts or a
// float16 Conv takes the unfused route inside the kernel. A MatMul takes a residual only
// with a constant float32 B, so that its product is float32 (fuse_matmul_bias likewise).
#include "passes/graph_uses.h"
#include "passes/known_values.h"
#include "passes/passes.h"

namespace twinrt::passes {

int fuse_residual_add(ir::Model& model) {
  const ir::Graph& g = *model.graph;
  const KnownValues known(g);
  const auto float_b = [&](const ir::Node& n) {
    const Tensor* b = n.inputs.size() > 1 ? known.constant(n.inputs[1]) : nullptr;
    return b && b->dtype() == DataType::kFloat;
  };
  std::map<std::string, size_t> producers;  // output name -> index of the Conv or MatMul writing it
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const ir::Node& n = g.nodes[i];
    if (n.domain.empty() && (n.op_type == "Conv" || (n.op_type == "MatMul" && float_b(n))) && n.outputs.size() == 1 &&
        !n.fused_residual && !n.fused_clamp && n.inputs.size() <= 3)
      producers[n.outputs[0]] = i;
  }
  return fold_adds_into_producers(
      model, std::move(producers), [](const ir::Node&, const std::string&) { return true; },
      [](ir::Node& producer, const std::string& residual) {
        producer.inputs.resize(3);  // an absent bias is "": the residual is input 3
        producer.inputs.push_back(residual);
        producer.fused_residual = true;
      });
}

}  // namespace twinrt::passes
