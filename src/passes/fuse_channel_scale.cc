// Mul(a, b) whose product only a 1x1 Conv reads, as its X (stride 1, no padding, one group)
// -> ChannelScaledConv(a, W, B, [residual,] b) of twinrt's domain: the Conv of a * b. Where b is
// one factor per channel (a squeeze-and-excitation block's scale: EfficientNet, MobileNetV3,
// RegNetY), the convolution multiplies each input element by its channel's factor as it
// packs its panels, instead of the Mul writing the whole product to memory and the Conv
// reading it back; any other shapes take a separate multiplication inside the kernel
// (ops/nn/conv.cc). Bit-preserving: each product is the Mul's rounded float product, and the
// Conv sums them in the same order. (Default mode with value-changing kernels, like its
// Winograd, may scale the weights instead: ops/nn/channel_map.h.)
//
// Runs after fuse_residual_add and fuse_clamp_activation (the Conv keeps what they fused)
// and before fuse_elementwise, which would otherwise merge the Mul into a group.
#include "passes/graph_uses.h"
#include "passes/passes.h"

namespace twinrt::passes {
namespace {

// x * f(x) (SiLU as x * Sigmoid(x), HardSwish as x * HardSigmoid(x)): an activation, which
// fuse_elementwise folds into the node that writes x.
bool gates_itself(const ir::Graph& g, const std::map<std::string, size_t>& producers, const ir::Node& mul) {
  for (int k : {0, 1}) {
    auto p = producers.find(mul.inputs[k]);
    if (p != producers.end() && !g.nodes[p->second].inputs.empty() && g.nodes[p->second].inputs[0] == mul.inputs[1 - k])
      return true;
  }
  return false;
}

}  // namespace

int fuse_channel_scale(ir::Model& model) {
  if (model.opset("") < 7) return 0;  // Mul-6 and older broadcast by attributes
  ir::Graph& g = *model.graph;
  const std::map<std::string, size_t> producers = value_producers(g);
  // ChannelScaledConv's inputs: the Conv's, X replaced by the Mul's first operand, then its
  // second, always last.
  return fold_into_pointwise_conv(g, "ChannelScaledConv", [&](const ir::Node& mul, ir::Node&)
                                                              -> std::optional<std::vector<std::string>> {
    if (!is_op(mul, "Mul") || mul.inputs.size() != 2 || mul.outputs.size() != 1 || mul.inputs[1].empty() ||
        gates_itself(g, producers, mul))
      return std::nullopt;
    return std::vector<std::string>{mul.inputs[1]};
  });
}

}  // namespace twinrt::passes
