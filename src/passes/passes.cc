#include "passes/passes.h"

namespace twinrt::passes {

int fuse_qdq(ir::Model& model);
int fuse_residual_add(ir::Model& model);
int fuse_clamp_activation(ir::Model& model);

const std::vector<GraphPass>& all_passes() {
  // The residual Add first, so Conv + Add + Relu becomes one node.
  static const std::vector<GraphPass> passes = {
      // First, so that the Relu of a QDQ group is absorbed before it fuses into a float Conv.
      {"fuse_qdq", NumericsEffect::kValueChanging, fuse_qdq},
      {"fuse_residual_add", NumericsEffect::kBitPreserving, fuse_residual_add},
      {"fuse_clamp_activation", NumericsEffect::kBitPreserving, fuse_clamp_activation},
  };
  return passes;
}

std::vector<PassRun> optimize(ir::Model& model, OptimizationLevel level, Mode mode) {
  std::vector<PassRun> runs;
  if (!model.graph || level == OptimizationLevel::kNone) return runs;
  for (const GraphPass& pass : all_passes()) {
    const bool value_changing = pass.effect == NumericsEffect::kValueChanging;
    if (value_changing && (level != OptimizationLevel::kAll || mode != Mode::kDefault)) continue;
    runs.push_back({&pass, pass.run(model)});
  }
  return runs;
}

}  // namespace twinrt::passes
