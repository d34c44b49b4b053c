// Conv followed by BatchNormalization (inference) -> one Conv with the normalization
// folded into its weights and bias:
//   s = scale / sqrt(var + epsilon),  W'[m] = W[m] * s[m],  B'[m] = (B[m] - mean[m]) * s[m] + bias[m]
// computed in double and rounded once. Value-changing (the Conv's products now carry s),
// so default mode only; it removes a pass over every such Conv's output.
#include <cmath>

#include "passes/graph_uses.h"
#include "passes/known_values.h"
#include "passes/passes.h"

namespace twinrt::passes {
namespace {

// The folded weights and bias, or nothing when the shapes do not fit.
std::optional<std::pair<Tensor, Tensor>> folded(const Tensor& w, const Tensor* b, const Tensor& scale,
                                                const Tensor& bias, const Tensor& mean, const Tensor& var,
                                                double epsilon) {
  const int64_t m = scale.numel(), per_channel = m == 0 ? 0 : w.numel() / m;
  auto w2 = Tensor::create(DataType::kFloat, w.shape());
  auto b2 = Tensor::create(DataType::kFloat, {m});
  if (!w2.is_ok() || !b2.is_ok()) return std::nullopt;
  const float *wv = w.data<float>(), *sv = scale.data<float>(), *bv = bias.data<float>();
  const float *mv = mean.data<float>(), *vv = var.data<float>();
  float *w2v = w2->data<float>(), *b2v = b2->data<float>();
  for (int64_t c = 0; c < m; ++c) {
    const double s = static_cast<double>(sv[c]) / std::sqrt(static_cast<double>(vv[c]) + epsilon);
    for (int64_t k = c * per_channel; k < (c + 1) * per_channel; ++k)
      w2v[k] = static_cast<float>(static_cast<double>(wv[k]) * s);
    const double conv_bias = b ? static_cast<double>(b->data<float>()[c]) : 0.0;
    b2v[c] = static_cast<float>((conv_bias - mv[c]) * s + bv[c]);
  }
  return std::make_pair(std::move(*w2), std::move(*b2));
}

}  // namespace

int fold_batch_norm(ir::Model& model) {
  if (model.opset("") < 7) return 0;  // BatchNormalization-6 and older: is_test, consumed_inputs
  ir::Graph& g = *model.graph;
  const GraphUses uses = graph_uses(g);
  const KnownValues known(g);
  std::set<std::string> graph_inputs;
  for (const ir::ValueInfo& in : g.inputs) graph_inputs.insert(in.name);
  std::map<std::string, size_t> conv_of;  // output name -> index of the plain Conv producing it
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const ir::Node& n = g.nodes[i];
    if (n.domain.empty() && n.op_type == "Conv" && n.outputs.size() == 1 && n.inputs.size() >= 2 &&
        n.inputs.size() <= 3 && !n.fused_residual && !n.fused_clamp && n.elementwise_steps.empty())
      conv_of[n.outputs[0]] = i;
  }
  std::vector<bool> removed(g.nodes.size(), false);
  std::set<std::string> replaced;  // initializers the folded Convs no longer read
  int folds = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const ir::Node& bn = g.nodes[i];
    if (!is_inference_batch_norm(bn)) continue;
    auto conv_it = conv_of.find(bn.inputs[0]);
    if (conv_it == conv_of.end() || !uses.only_read_once(bn.inputs[0])) continue;
    ir::Node& conv = g.nodes[conv_it->second];
    const Tensor* w = known.constant(conv.inputs[1]);
    if (!w || graph_inputs.count(conv.inputs[1]) || w->dtype() != DataType::kFloat || w->rank() < 3) continue;
    const int64_t m = w->shape()[0];
    const bool has_bias = conv.inputs.size() == 3 && !conv.inputs[2].empty();
    const Tensor* b = has_bias ? known.fixed_floats(conv.inputs[2], m) : nullptr;
    const Tensor* stats[4];
    bool all_known = !has_bias || b;
    for (int k = 0; k < 4; ++k) all_known = (stats[k] = known.fixed_floats(bn.inputs[k + 1], m)) && all_known;
    const std::string w_name = bn.outputs[0] + "/conv_weights_with_bn", b_name = bn.outputs[0] + "/conv_bias_with_bn";
    if (!all_known || g.initializers.count(w_name) || g.initializers.count(b_name)) continue;
    const ir::Attribute* eps = bn.attr("epsilon");
    auto weights = folded(*w, b, *stats[0], *stats[1], *stats[2], *stats[3], eps ? eps->f : 1e-5f);
    if (!weights) continue;
    replaced.insert(conv.inputs[1]);
    if (has_bias) replaced.insert(conv.inputs[2]);
    for (size_t k = 1; k < 5; ++k) replaced.insert(bn.inputs[k]);
    g.initializers.emplace(w_name, std::move(weights->first));
    g.initializers.emplace(b_name, std::move(weights->second));
    g.initializer_order.push_back(w_name);
    g.initializer_order.push_back(b_name);
    conv.inputs = {conv.inputs[0], w_name, b_name};
    conv.outputs[0] = bn.outputs[0];
    conv.fused_from.push_back(bn.name);
    conv_of.erase(conv_it);
    removed[i] = true;
    ++folds;
  }
  erase_nodes(g, removed);
  // The original weights and statistics, unless something else still reads them: their
  // memory would otherwise stay next to the folded copies.
  const GraphUses after = graph_uses(g);
  for (const std::string& name : replaced) {
    if (after.readers.count(name) || after.pinned.count(name) || graph_inputs.count(name)) continue;
    g.initializers.erase(name);
    std::erase(g.initializer_order, name);
  }
  return folds;
}

}  // namespace twinrt::passes
