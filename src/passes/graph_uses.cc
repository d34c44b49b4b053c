#include "passes/graph_uses.h"

#include "ir/graph_order.h"

namespace twinrt::passes {

bool GraphUses::only_read_once(const std::string& name) const {
  auto it = readers.find(name);
  return it != readers.end() && it->second == 1 && !pinned.count(name);
}

GraphUses graph_uses(const ir::Graph& g) {
  GraphUses uses;
  for (const auto& out : g.outputs) uses.pinned.insert(out.name);
  for (const ir::Node& n : g.nodes) {
    for (const std::string& in : n.inputs)
      if (!in.empty()) ++uses.readers[in];
    for (const ir::Attribute& a : n.attributes) {
      if (a.g) ir::collect_free_names(*a.g, uses.pinned);
      for (const auto& body : a.graphs) ir::collect_free_names(*body, uses.pinned);
    }
  }
  return uses;
}

int fold_adds_into_producers(ir::Model& model, std::map<std::string, size_t> producers,
                             const std::function<bool(const ir::Node&, const std::string&)>& fits,
                             const std::function<void(ir::Node&, const std::string&)>& fold) {
  if (model.opset("") < 7) return 0;  // Add-6 and older broadcast by attributes
  return fold_followers_into_producers(
      *model.graph, std::move(producers), [&](ir::Node& producer, const ir::Node& add, const std::string& value) {
        if (!add.domain.empty() || add.op_type != "Add" || add.inputs.size() != 2 || add.outputs.size() != 1 ||
            !add.attributes.empty() || add.inputs[0] == add.inputs[1])
          return false;
        const std::string& other = add.inputs[add.inputs[0] == value ? 1 : 0];
        if (!fits(producer, other)) return false;
        fold(producer, other);
        return true;
      });
}

int fold_followers_into_producers(ir::Graph& g, std::map<std::string, size_t> producers,
                                  const std::function<bool(ir::Node&, const ir::Node&, const std::string&)>& fold) {
  const GraphUses uses = graph_uses(g);
  std::vector<bool> removed(g.nodes.size(), false);
  int folded = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const ir::Node& follower = g.nodes[i];
    for (const std::string& in : follower.inputs) {
      const auto found = producers.find(in);
      if (found == producers.end() || !uses.only_read_once(in)) continue;
      ir::Node& producer = g.nodes[found->second];
      if (!fold(producer, follower, in)) continue;
      producer.fused_from.push_back(follower.name);
      producer.outputs[0] = follower.outputs[0];
      producers.erase(found);
      removed[i] = true;
      ++folded;
      break;
    }
  }
  erase_nodes(g, removed);
  return folded;
}

void erase_nodes(ir::Graph& g, const std::vector<bool>& removed) {
  std::vector<ir::Node> kept;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (!removed[i]) kept.push_back(std::move(g.nodes[i]));
  g.nodes = std::move(kept);
}

std::map<std::string, size_t> value_producers(const ir::Graph& g) {
  std::map<std::string, size_t> producers;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (const std::string& out : g.nodes[i].outputs) producers[out] = i;
  return producers;
}

const Tensor* per_tensor_8bit_scale(const ir::Graph& g, const ir::Node& n) {
  if (n.inputs.size() != 3 || n.outputs.size() != 1) return nullptr;
  for (const ir::Attribute& a : n.attributes)
    if (a.name != "axis") return nullptr;
  auto s = g.initializers.find(n.inputs[1]);
  auto z = g.initializers.find(n.inputs[2]);
  if (s == g.initializers.end() || z == g.initializers.end()) return nullptr;
  const bool scalars = s->second.dtype() == DataType::kFloat && s->second.numel() == 1 && z->second.numel() == 1;
  return scalars && is_8bit(z->second.dtype()) ? &s->second : nullptr;
}

const ir::Node* live_producer(const ir::Graph& g, const std::map<std::string, size_t>& producers,
                              const std::vector<bool>& removed, const std::string& value) {
  auto it = producers.find(value);
  return it == producers.end() || removed[it->second] ? nullptr : &g.nodes[it->second];
}

std::optional<size_t> sole_reader(const ir::Graph& g, const GraphUses& uses, const std::vector<bool>& removed,
                                  const std::string& value) {
  if (!uses.only_read_once(value)) return std::nullopt;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (!removed[i])
      for (const std::string& in : g.nodes[i].inputs)
        if (in == value) return i;
  return std::nullopt;
}

int fold_into_pointwise_conv(
    ir::Graph& g, const char* op_type,
    const std::function<std::optional<std::vector<std::string>>(const ir::Node& producer, ir::Node& conv)>& take) {
  const GraphUses uses = graph_uses(g);
  const std::map<std::string, size_t> producers = value_producers(g);
  std::vector<bool> removed(g.nodes.size(), false);
  int folded = 0;
  for (ir::Node& conv : g.nodes) {
    if (!is_pointwise_conv(conv, g) || !uses.only_read_once(conv.inputs[0])) continue;
    auto p = producers.find(conv.inputs[0]);
    if (p == producers.end() || removed[p->second]) continue;
    const ir::Node& producer = g.nodes[p->second];
    if (producer.inputs.empty() || producer.inputs[0].empty()) continue;
    const std::optional<std::vector<std::string>> extra = take(producer, conv);
    if (!extra) continue;
    conv.inputs[0] = producer.inputs[0];
    if (conv.inputs.size() < 3) conv.inputs.resize(3);
    conv.inputs.insert(conv.inputs.end(), extra->begin(), extra->end());
    conv.domain = ir::kInternalDomain;
    conv.op_type = op_type;
    conv.fused_from.insert(conv.fused_from.begin(), producer.fused_from.begin(), producer.fused_from.end());
    conv.fused_from.insert(conv.fused_from.begin(), producer.name);
    removed[p->second] = true;
    ++folded;
  }
  erase_nodes(g, removed);
  return folded;
}

bool is_inference_batch_norm(const ir::Node& n) {
  if (!is_op(n, "BatchNormalization") || n.inputs.size() != 5 || n.outputs.size() != 1) return false;
  for (const std::string& in : n.inputs)
    if (in.empty()) return false;
  const ir::Attribute* training = n.attr("training_mode");
  const ir::Attribute* spatial = n.attr("spatial");  // opsets 7-8: 0 means statistics per element
  return (!training || training->i == 0) && (!spatial || spatial->i == 1);
}

namespace {

// Whether the ints attribute `name` is absent or every value in it is `value`.
bool all_equal(const ir::Node& n, const char* name, int64_t value) {
  const ir::Attribute* a = n.attr(name);
  if (!a) return true;
  for (int64_t v : a->ints)
    if (v != value) return false;
  return a->type == ir::Attribute::Type::kInts;
}

}  // namespace

bool is_pointwise_conv(const ir::Node& n, const ir::Graph& g) {
  if (!is_op(n, "Conv") || n.inputs.size() < 2 || n.outputs.size() != 1 || !n.elementwise_steps.empty()) return false;
  const ir::Attribute* auto_pad = n.attr("auto_pad");
  if (auto_pad && auto_pad->s != "NOTSET" && auto_pad->s != "VALID") return false;
  if (!all_equal(n, "strides", 1) || !all_equal(n, "pads", 0)) return false;
  const ir::Attribute* group = n.attr("group");
  if (group && (group->type != ir::Attribute::Type::kInt || group->i != 1)) return false;
  // The kernel's size: from kernel_shape, else from W's dims when W is an initializer.
  if (const ir::Attribute* k = n.attr("kernel_shape")) return all_equal(n, "kernel_shape", 1) && !k->ints.empty();
  auto w = g.initializers.find(n.inputs[1]);
  if (w == g.initializers.end() || w->second.rank() < 3) return false;
  for (size_t d = 2; d < w->second.shape().size(); ++d)
    if (w->second.dim(d) != 1) return false;
  return true;
}

}  // namespace twinrt::passes
