#include "passes/passes.h"

namespace twinrt::passes {

int fold_batch_norm(ir::Model& model);
int flush_denormal_weights(ir::Model& model);
int fuse_qdq(ir::Model& model);
int fuse_qdq_add(ir::Model& model);
int fuse_qdq_max_pool(ir::Model& model);
int fuse_matmul_integer_to_float(ir::Model& model);
int fold_transpose_into_matmul(ir::Model& model);
int fuse_matmul_scale(ir::Model& model);
int fuse_matmul_bias(ir::Model& model);
int fuse_residual_add(ir::Model& model);
int fuse_clamp_activation(ir::Model& model);
int fuse_channel_scale(ir::Model& model);
int fuse_normalized_input(ir::Model& model);
int fuse_elementwise(ir::Model& model);
int fold_elementwise_into_conv(ir::Model& model);
int layout_nhwc(ir::Model& model);

const std::vector<GraphPass>& all_passes() {
  // The residual Add first, so Conv + Add + Relu becomes one node; the chains that remain
  // then become elementwise groups.
  static const std::vector<GraphPass> passes = {
      // First, so that the folded Conv takes part in the fusions below.
      {"fold_batch_norm", NumericsEffect::kValueChanging, fold_batch_norm},
      // After fold_batch_norm, whose folded weights may be subnormal too.
      {"flush_denormal_weights", NumericsEffect::kValueChanging, flush_denormal_weights},
      // Before the float fusions, so that the Relu of a QDQ group is absorbed before it fuses into a float Conv.
      {"fuse_qdq", NumericsEffect::kValueChanging, fuse_qdq},
      // Before the float fusions, which would otherwise take the Add and Relu of a QDQ residual.
      {"fuse_qdq_add", NumericsEffect::kBitPreserving, fuse_qdq_add},
      {"fuse_qdq_max_pool", NumericsEffect::kBitPreserving, fuse_qdq_max_pool},
      // Before the float fusions, which would otherwise take the scaling Mul and the bias Add.
      {"fuse_matmul_integer_to_float", NumericsEffect::kBitPreserving, fuse_matmul_integer_to_float},
      {"fold_transpose_into_matmul", NumericsEffect::kBitPreserving, fold_transpose_into_matmul},
      // Before the bias and residual: the epilogue scales the product first.
      {"fuse_matmul_scale", NumericsEffect::kBitPreserving, fuse_matmul_scale},
      // Before fuse_residual_add: a MatMul takes its bias, then the residual after it.
      {"fuse_matmul_bias", NumericsEffect::kBitPreserving, fuse_matmul_bias},
      {"fuse_residual_add", NumericsEffect::kBitPreserving, fuse_residual_add},
      {"fuse_clamp_activation", NumericsEffect::kBitPreserving, fuse_clamp_activation},
      // After the residual and the clamp, which the Conv keeps; before fuse_elementwise,
      // which would take the Mul into a group.
      {"fuse_channel_scale", NumericsEffect::kBitPreserving, fuse_channel_scale},
      // After fold_batch_norm and the clamp, like fuse_channel_scale.
      {"fuse_normalized_input", NumericsEffect::kBitPreserving, fuse_normalized_input},
      {"fuse_elementwise", NumericsEffect::kBitPreserving, fuse_elementwise},
      {"fold_elementwise_into_conv", NumericsEffect::kBitPreserving, fold_elementwise_into_conv},
      // Last: after fuse_qdq and fuse_qdq_add made the QLinearConv and QdqAdd nodes it lays out.
      {"layout_nhwc", NumericsEffect::kBitPreserving, layout_nhwc},
  };
  return passes;
}

namespace {

// Gradient (ai.onnx.preview.training) differentiates the graph it sits in node by node,
// so that graph must keep the nodes the model wrote.
bool differentiates_itself(const ir::Graph& g) {
  for (const ir::Node& n : g.nodes)
    if (n.op_type == "Gradient" && n.domain == "ai.onnx.preview.training") return true;
  return false;
}

}  // namespace

std::vector<PassRun> optimize(ir::Model& model, OptimizationLevel level, Mode mode) {
  std::vector<PassRun> runs;
  if (!model.graph || level == OptimizationLevel::kNone || differentiates_itself(*model.graph)) return runs;
  for (const GraphPass& pass : all_passes()) {
    const bool value_changing = pass.effect == NumericsEffect::kValueChanging;
    if (value_changing && (level != OptimizationLevel::kAll || mode != Mode::kDefault)) continue;
    runs.push_back({&pass, pass.run(model)});
  }
  return runs;
}

}  // namespace twinrt::passes
