#include "passes/known_values.h"

namespace twinrt::passes {

KnownValues::KnownValues(const ir::Graph& g) {
  for (const auto& [name, t] : g.initializers) constants_[name] = &t;
  for (const ir::Node& n : g.nodes)
    if (n.op_type == "Constant" && n.domain.empty() && n.outputs.size() == 1)
      if (const ir::Attribute* v = n.attr("value"); v && v->type == ir::Attribute::Type::kTensor)
        constants_[n.outputs[0]] = &v->t;
  for (const auto* list : {&g.inputs, &g.outputs, &g.value_info})
    for (const ir::ValueInfo& vi : *list)
      if (vi.type.kind == ir::TypeInfo::Kind::kTensor) declared_[vi.name] = vi.type.elem;
}

const Tensor* KnownValues::constant(const std::string& name) const {
  auto it = constants_.find(name);
  return it == constants_.end() ? nullptr : it->second;
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

}  // namespace twinrt::passes
