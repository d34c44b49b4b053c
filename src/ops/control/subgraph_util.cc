#include "ops/control/subgraph_util.h"

namespace twinrt {

Result<std::shared_ptr<const Subgraph>> compile_graph_attribute(const KernelInit& init,
                                                                const std::string& name) {
  const ir::Attribute* a = init.attr(name);
  if (!a) return init.error("missing graph attribute '" + name + "'");
  if (a->type != ir::Attribute::Type::kGraph || !a->g)
    return init.error("attribute '" + name + "' must be a graph, got " +
                      ir::attribute_type_name(a->type));
  if (!init.compile_subgraph) return internal_error("no subgraph compiler for " + init.node.describe());
  auto sub = init.compile_subgraph(*a->g);
  if (!sub) return sub.status().with_context(init.node.describe() + ": in graph '" + name + "': ");
  return sub;
}

const ir::TypeInfo& subgraph_output_type(const Subgraph& g, size_t i) {
  static const ir::TypeInfo unknown;
  if (i >= g.output_slots.size()) return unknown;
  const auto slot = static_cast<size_t>(g.output_slots[i]);
  return slot < g.slot_types.size() ? g.slot_types[slot] : unknown;
}

ir::TypeInfo common_type(const ir::TypeInfo& a, const ir::TypeInfo& b) {
  if (a.kind != b.kind) return {};
  ir::TypeInfo t;
  t.kind = a.kind;
  switch (a.kind) {
    case ir::TypeInfo::Kind::kTensor:
      if (a.elem != b.elem) return {};
      t.elem = a.elem;
      if (a.shape && b.shape && a.shape->size() == b.shape->size()) {
        ir::Shape s;
        for (size_t i = 0; i < a.shape->size(); ++i)
          s.push_back((*a.shape)[i] == (*b.shape)[i] ? (*a.shape)[i] : ir::Dim{});
        t.shape = std::move(s);
      }
      return t;
    case ir::TypeInfo::Kind::kSequence:
    case ir::TypeInfo::Kind::kOptional:
      if (!a.inner || !b.inner) return {};
      t.inner = std::make_shared<ir::TypeInfo>(common_type(*a.inner, *b.inner));
      return t;
    default:
      return {};
  }
}

ir::TypeInfo with_leading_unknown_dim(const ir::TypeInfo& t) {
  if (!t.is_tensor()) return {};
  ir::TypeInfo out = ir::TypeInfo::tensor(t.elem);
  if (t.shape) {
    ir::Shape s = *t.shape;
    s.insert(s.begin(), ir::Dim{});
    out.shape = std::move(s);
  }
  return out;
}

std::vector<int64_t> element_shape_or_zero(const ir::TypeInfo& t) {
  std::vector<int64_t> dims;
  if (t.is_tensor() && t.shape)
    for (const ir::Dim& d : *t.shape) dims.push_back(d.known() ? d.value : 0);
  return dims;
}

}  // namespace twinrt
