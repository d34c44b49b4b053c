// BatchNormalization (inference, constant statistics) [+ its fused Relu/Clip] whose output
// only a 1x1 Conv reads, as its X -> NormalizedConv(x, W, B, [residual,] scale, bias, mean,
// var) of twinrt's domain, with the normalization's epsilon and clamp as attributes. This is
// the pre-activation order (BatchNormalization, Relu, then Conv: DenseNet's layers and
// transitions, pre-activation ResNets), which fold_batch_norm cannot fold into weights
// because of the clamp between them. The Conv's tiles normalize each input element as they
// pack their panels (ops/nn/conv.cc), instead of the normalization writing its whole output
// and the Conv reading it back; at 2 threads that output was also written by channels and
// read by positions, half of it across the cores (DenseNet-121's normalizations took 2.3x
// their 1-thread time). Bit-preserving: each element gets the normalization's float
// operations in its order, and the Conv sums them as it would.
//
// Runs after fold_batch_norm (a normalization after a Conv folds into it instead) and
// fuse_clamp_activation (the Relu joins the normalization first).
#include "ir/attributes.h"
#include "passes/graph_uses.h"
#include "passes/known_values.h"
#include "passes/passes.h"

namespace twinrt::passes {
namespace {

// Whether scale, B, mean and var are fixed float32 constants of one element per channel.
bool fixed_statistics(const ir::Node& bn, const KnownValues& known) {
  const Tensor* scale = known.constant(bn.inputs[1]);
  if (!scale) return false;
  for (size_t k = 1; k < 5; ++k)
    if (!known.fixed_floats(known.source(bn.inputs[k]), scale->numel())) return false;
  return scale->numel() > 0;
}

}  // namespace

int fuse_normalized_input(ir::Model& model) {
  if (model.opset("") < 7) return 0;  // BatchNormalization-6 and older: is_test, consumed_inputs
  ir::Graph& g = *model.graph;
  const KnownValues known(g);
  return fold_into_pointwise_conv(g, "NormalizedConv", [&](const ir::Node& bn, ir::Node& conv)
                                                           -> std::optional<std::vector<std::string>> {
    if (!is_inference_batch_norm(bn) || bn.fused_residual || !bn.elementwise_steps.empty() ||
        !fixed_statistics(bn, known))
      return std::nullopt;
    const ir::Attribute* epsilon = bn.attr("epsilon");
    conv.attributes.push_back(ir::float_attribute("epsilon", epsilon ? epsilon->f : 1e-5f));
    if (bn.fused_clamp && bn.fused_clamp->min) conv.attributes.push_back(ir::float_attribute("input_min", *bn.fused_clamp->min));
    if (bn.fused_clamp && bn.fused_clamp->max) conv.attributes.push_back(ir::float_attribute("input_max", *bn.fused_clamp->max));
    // The initializers themselves, which the kernel reads when it is made.
    std::vector<std::string> stats;
    for (size_t k = 1; k < 5; ++k) stats.push_back(known.source(bn.inputs[k]));
    return stats;
  });
}

}  // namespace twinrt::passes
