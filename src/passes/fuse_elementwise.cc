// Groups of float32 elementwise nodes -> one FusedElementwise node (ops/fused), which
// reads the group's inputs and writes its output once instead of once per node: exported
// activations arrive as chains (HardSwish as Add, Clip, Mul, Div; affine Mul, Add after
// every Conv), and each link otherwise streams the whole tensor through memory.
//
// A group is a connected set of such nodes whose inner values nothing else reads, with
// one output; a single unary node (an activation) after a Conv is a group too, for the
// Conv to absorb. Bit-preserving: each step computes what its own kernel computes.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "passes/graph_uses.h"
#include "passes/known_values.h"
#include "passes/passes.h"

namespace twinrt::passes {
namespace {

constexpr size_t kMaxGroupValues = 31;  // inputs + steps; the kernel's buffers hold 32

// A node as a fusable step: its data inputs and the step it becomes (args filled later).
struct Candidate {
  std::vector<std::string> data;
  ir::ElementwiseStep step;
  bool float_evidence = false;  // the node itself says its type is float32 (float bounds)
};

bool no_attributes_but(const ir::Node& n, std::initializer_list<const char*> allowed) {
  return std::all_of(n.attributes.begin(), n.attributes.end(), [&](const ir::Attribute& a) {
    return a.type == ir::Attribute::Type::kFloat &&
           std::any_of(allowed.begin(), allowed.end(), [&](const char* name) { return a.name == name; });
  });
}

float attr_or(const ir::Node& n, const char* name, float def) {
  const ir::Attribute* a = n.attr(name);
  return a ? a->f : def;
}

std::optional<Candidate> as_candidate(const ir::Model& model, const KnownValues& known, const ir::Node& n) {
  if (!n.domain.empty() || n.outputs.size() != 1 || n.outputs[0].empty() || n.inputs.empty() ||
      std::any_of(n.inputs.begin(), n.inputs.end(), [](const std::string& s) { return s.empty(); }) ||
      !n.elementwise_steps.empty())
    return std::nullopt;
  Candidate c;
  c.step.op_type = n.op_type;
  const std::string& op = n.op_type;
  if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div") {
    if (n.inputs.size() != 2 || !n.attributes.empty()) return std::nullopt;
    c.data = n.inputs;
  } else if (op == "Clip") {
    auto clamp = clamp_of(model, known, n);
    if (!clamp) return std::nullopt;
    c.data = {n.inputs[0]};
    c.step.params = {clamp->min.value_or(-INFINITY), clamp->max.value_or(INFINITY)};
    c.float_evidence = model.opset("") >= 11 && n.inputs.size() > 1;  // float bounds: float data
  } else if (op == "HardSigmoid" || op == "LeakyRelu") {
    const bool hs = op == "HardSigmoid";
    if (n.inputs.size() != 1 || !(hs ? no_attributes_but(n, {"alpha", "beta"}) : no_attributes_but(n, {"alpha"})))
      return std::nullopt;
    c.data = n.inputs;
    if (hs) c.step.params = {attr_or(n, "alpha", 0.2f), attr_or(n, "beta", 0.5f)};
    else c.step.params = {attr_or(n, "alpha", 0.01f)};
  } else if (op == "Relu" || op == "Sigmoid" || op == "Tanh" || op == "Sqrt" || op == "Exp" || op == "Erf" ||
             op == "HardSwish") {
    if (n.inputs.size() != 1 || !n.attributes.empty()) return std::nullopt;
    c.data = n.inputs;
  } else {
    return std::nullopt;
  }
  return c;
}

struct DisjointSets {
  std::vector<size_t> parent;
  explicit DisjointSets(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), size_t{0}); }
  size_t find(size_t i) { return parent[i] == i ? i : parent[i] = find(parent[i]); }
  void join(size_t a, size_t b) { parent[find(a)] = find(b); }
};

}  // namespace

int fuse_elementwise(ir::Model& model) {
  if (model.opset("") < 7) return 0;  // older ops broadcast by attributes
  ir::Graph& g = *model.graph;
  const GraphUses uses = graph_uses(g);
  const KnownValues known(g);

  std::vector<std::optional<Candidate>> cand(g.nodes.size());
  std::map<std::string, size_t> producer;  // value -> candidate node making it
  std::map<std::string, int> data_reads;   // value -> reads as a candidate's data input
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    cand[i] = as_candidate(model, known, g.nodes[i]);
    if (!cand[i]) continue;
    producer[g.nodes[i].outputs[0]] = i;
    for (const std::string& v : cand[i]->data) ++data_reads[v];
  }
  // A value stays inside a group when only candidates read it, all as data.
  auto inner = [&](const std::string& v) {
    auto r = uses.readers.find(v);
    return !uses.pinned.count(v) && r != uses.readers.end() && r->second == data_reads[v];
  };
  const std::map<std::string, size_t> writers = value_producers(g);
  const auto follows_conv = [&](size_t m) {
    if (cand[m]->data.size() != 1) return false;
    auto w = writers.find(cand[m]->data[0]);
    return w != writers.end() && is_op(g.nodes[w->second], "Conv");
  };
  DisjointSets sets(g.nodes.size());
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (cand[i])
      for (const std::string& v : cand[i]->data)
        if (auto p = producer.find(v); p != producer.end() && inner(v)) sets.join(i, p->second);

  std::map<size_t, std::vector<size_t>> groups;  // root -> members in graph order
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (cand[i]) groups[sets.find(i)].push_back(i);

  std::vector<bool> removed(g.nodes.size(), false);
  int fused = 0;
  for (const auto& [root, members] : groups) {
    // A lone unary node (an activation) right after a Conv is a group too, which the Conv
    // then absorbs (fold_elementwise_into_conv): MobileNetV3's HardSwish after each Conv.
    if (members.size() < 2 && !(members.size() == 1 && follows_conv(members[0]))) continue;
    const size_t last = members.back();
    // One output: every other member's value is read inside the group only.
    if (!std::all_of(members.begin(), members.end() - 1, [&](size_t m) { return inner(g.nodes[m].outputs[0]); }))
      continue;
    std::set<std::string> made_inside;
    std::vector<std::string> inputs;
    bool is_float = false;
    for (size_t m : members) {
      is_float |= cand[m]->float_evidence;
      for (const std::string& v : cand[m]->data)
        if (!made_inside.count(v) && std::find(inputs.begin(), inputs.end(), v) == inputs.end()) {
          inputs.push_back(v);
          is_float |= known.dtype(v) == DataType::kFloat;
        }
      made_inside.insert(g.nodes[m].outputs[0]);
    }
    if (!is_float || inputs.size() + members.size() > kMaxGroupValues) continue;

    ir::Node f;
    f.name = g.nodes[members.front()].name;
    f.op_type = "FusedElementwise";
    f.domain = ir::kInternalDomain;
    f.inputs = inputs;
    f.outputs = {g.nodes[last].outputs[0]};
    std::map<std::string, int> index;  // value -> its index among the group's values
    for (size_t k = 0; k < inputs.size(); ++k) index[inputs[k]] = static_cast<int>(k);
    for (size_t m : members) {
      ir::ElementwiseStep step = cand[m]->step;
      for (const std::string& v : cand[m]->data) step.args.push_back(index.at(v));
      index[g.nodes[m].outputs[0]] = static_cast<int>(inputs.size() + f.elementwise_steps.size());
      f.elementwise_steps.push_back(std::move(step));
      if (m != members.front()) f.fused_from.push_back(g.nodes[m].name);
      removed[m] = m != last;
    }
    g.nodes[last] = std::move(f);
    ++fused;
  }
  erase_nodes(g, removed);
  return fused;
}

namespace {

// The output channels of a 2-D Conv whose weights are a known constant, else 0.
int64_t conv2d_channels(const KnownValues& known, const ir::Node& n) {
  if (n.inputs.size() < 2) return 0;
  const Tensor* w = known.constant(n.inputs[1]);
  return w && w->rank() == 4 ? w->dim(0) : 0;
}

// An operand that stays one value per output channel of a [N, C, H, W] result: a float32
// scalar of rank <= 4, or a [C, 1, 1] / [1, C, 1, 1] constant.
bool per_channel_operand(const KnownValues& known, const std::string& name, int64_t channels) {
  const Tensor* t = known.constant(name);
  if (!t || t->dtype() != DataType::kFloat || t->rank() > 4) return false;
  if (t->numel() == 1) return true;
  const std::vector<int64_t>& s = t->shape();
  const size_t c = s.size() == 3 ? 0 : 1;
  return (s.size() == 3 || (s.size() == 4 && s[0] == 1)) && s[c] == channels && s[c + 1] == 1 && s[c + 2] == 1;
}

}  // namespace

int fold_elementwise_into_conv(ir::Model& model) {
  ir::Graph& g = *model.graph;
  const GraphUses uses = graph_uses(g);
  const KnownValues known(g);
  std::map<std::string, size_t> conv_of;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const ir::Node& n = g.nodes[i];
    if (n.domain.empty() && n.op_type == "Conv" && n.outputs.size() == 1 && !n.fused_residual &&
        n.elementwise_steps.empty() && n.inputs.size() <= 3 && conv2d_channels(known, n) > 0)
      conv_of[n.outputs[0]] = i;
  }
  std::vector<bool> removed(g.nodes.size(), false);
  int folded = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    ir::Node& f = g.nodes[i];
    if (f.domain != ir::kInternalDomain || f.op_type != "FusedElementwise") continue;
    for (size_t k = 0; k < f.inputs.size(); ++k) {
      auto c = conv_of.find(f.inputs[k]);
      if (c == conv_of.end() || removed[c->second] || !uses.only_read_once(f.inputs[k])) continue;
      ir::Node& conv = g.nodes[c->second];
      const int64_t channels = conv2d_channels(known, conv);
      bool fits = true;
      for (size_t j = 0; j < f.inputs.size(); ++j) fits &= j == k || per_channel_operand(known, f.inputs[j], channels);
      if (!fits) continue;
      // Values of the group: input k becomes the Conv's result (0), the other inputs its
      // extra operands (1..), the steps follow.
      std::vector<int> remap(f.inputs.size());
      std::vector<std::string> extras;
      for (size_t j = 0; j < f.inputs.size(); ++j) {
        if (j == k) continue;
        remap[j] = static_cast<int>(extras.size() + 1);
        extras.push_back(f.inputs[j]);
      }
      conv.inputs.resize(3);  // an absent bias becomes ""
      conv.elementwise_first_input = 3;
      conv.inputs.insert(conv.inputs.end(), extras.begin(), extras.end());
      for (ir::ElementwiseStep step : f.elementwise_steps) {
        for (int& a : step.args)
          a = static_cast<size_t>(a) < f.inputs.size() ? remap[static_cast<size_t>(a)]
                                                       : a - static_cast<int>(f.inputs.size()) + static_cast<int>(extras.size() + 1);
        conv.elementwise_steps.push_back(std::move(step));
      }
      conv.outputs[0] = f.outputs[0];
      conv.fused_from.push_back(f.name);
      conv.fused_from.insert(conv.fused_from.end(), f.fused_from.begin(), f.fused_from.end());
      removed[i] = true;
      ++folded;
      break;
    }
  }
  erase_nodes(g, removed);
  return folded;
}

}  // namespace twinrt::passes
