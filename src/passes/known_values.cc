#include "passes/known_values.h"

#include <set>

namespace twinrt::passes {
namespace {

// ai.onnx ops whose outputs have the element type of their input `data` (their type
// constraints tie them), so a type known at the graph's inputs carries through an exported
// graph that declares no value_info (PyTorch's exports declare none).
std::optional<size_t> type_source(const ir::Node& n) {
  static const std::set<std::string> first_input = {
      "Abs", "Add", "AveragePool", "BatchNormalization", "Clip", "Concat", "Conv", "ConvTranspose", "Div",
      "Dropout", "Elu", "Erf", "Exp", "Expand", "Flatten", "Gather", "Gelu", "Gemm", "GlobalAveragePool",
      "GlobalMaxPool", "HardSigmoid", "HardSwish", "Identity", "InstanceNormalization", "LayerNormalization",
      "LeakyRelu", "MatMul", "MaxPool", "Mul", "Neg", "Pad", "Pow", "ReduceMax", "ReduceMean", "ReduceMin",
      "ReduceSum", "Relu", "Reshape", "Resize", "Sigmoid", "Slice", "Softmax", "Split", "Sqrt", "Squeeze",
      "Sub", "Tanh", "Tile", "Transpose", "Unsqueeze"};
  // passes/fuse_channel_scale.cc, passes/fuse_normalized_input.cc
  if (n.domain == ir::kInternalDomain && (n.op_type == "ChannelScaledConv" || n.op_type == "NormalizedConv")) return 0;
  if (!n.domain.empty() || n.inputs.empty()) return std::nullopt;
  if (n.op_type == "Where") return n.inputs.size() == 3 ? std::optional<size_t>(1) : std::nullopt;
  return first_input.count(n.op_type) ? std::optional<size_t>(0) : std::nullopt;
}

}  // namespace

KnownValues::KnownValues(const ir::Graph& g) {
  for (const auto& [name, t] : g.initializers) constants_[name] = &t;
  for (const ir::Node& n : g.nodes)
    if (n.op_type == "Constant" && n.domain.empty() && n.outputs.size() == 1)
      if (const ir::Attribute* v = n.attr("value"); v && v->type == ir::Attribute::Type::kTensor)
        constants_[n.outputs[0]] = &v->t;
  for (const ir::ValueInfo& in : g.inputs) graph_inputs_.insert(in.name);  // an Identity of one is not constant
  for (const ir::Node& n : g.nodes)  // in graph order: a chain's first Identity comes first
    if (n.op_type == "Identity" && n.domain.empty() && n.inputs.size() == 1 && n.outputs.size() == 1 &&
        !graph_inputs_.count(n.inputs[0]) && constants_.count(n.inputs[0])) {
      constants_[n.outputs[0]] = constants_[n.inputs[0]];
      identity_of_[n.outputs[0]] = source(n.inputs[0]);
    }
  for (const auto* list : {&g.inputs, &g.outputs, &g.value_info})
    for (const ir::ValueInfo& vi : *list)
      if (vi.type.kind == ir::TypeInfo::Kind::kTensor) declared_[vi.name] = vi.type.elem;
  for (const ir::Node& n : g.nodes) {  // in graph order: a node's inputs come first
    const std::optional<size_t> source = type_source(n);
    if (!source) continue;
    const DataType t = dtype(n.inputs[*source]);
    if (t == DataType::kUndefined) continue;
    // The first output has the type; of the others only Split's (MaxPool's indices are
    // int64, BatchNormalization's and LayerNormalization's statistics may be another float).
    const size_t typed = n.op_type == "Split" ? n.outputs.size() : 1;
    for (size_t o = 0; o < typed && o < n.outputs.size(); ++o)
      if (!n.outputs[o].empty()) declared_.emplace(n.outputs[o], t);
  }
}

const Tensor* KnownValues::constant(const std::string& name) const {
  auto it = constants_.find(name);
  return it == constants_.end() ? nullptr : it->second;
}

std::string KnownValues::source(const std::string& name) const {
  auto it = identity_of_.find(name);
  return it == identity_of_.end() ? name : it->second;
}

std::optional<float> KnownValues::float_scalar(const std::string& name) const {
  const Tensor* t = constant(name);
  if (!t || t->dtype() != DataType::kFloat || t->numel() != 1) return std::nullopt;
  return t->data<float>()[0];
}

DataType KnownValues::dtype(const std::string& name) const {
  if (const Tensor* t = constant(name)) return t->dtype();
  auto it = declared_.find(name);
  return it == declared_.end() ? DataType::kUndefined : it->second;
}

std::optional<ir::FusedClamp> clamp_of(const ir::Model& model, const KnownValues& known, const ir::Node& n) {
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
    auto v = known.float_scalar(n.inputs[i]);
    if (!v) return std::nullopt;
    (i == 1 ? c.min : c.max) = *v;
  }
  return c;
}

const Tensor* KnownValues::fixed_floats(const std::string& name, int64_t n) const {
  const Tensor* t = constant(name);
  if (!t || graph_inputs_.count(name) || t->dtype() != DataType::kFloat || t->numel() != n) return nullptr;
  return t;
}

}  // namespace twinrt::passes
