// Graph → plan: validate names, order nodes, choose kernels, infer types, plan frees.
#include <algorithm>
#include <set>

#include "ir/graph_order.h"
#include "kernels/cpu/isa.h"
#include "onnx/file_bytes.h"
#include "runtime/execute.h"
#include "runtime/model_checks.h"
#include "runtime/plan.h"
#include "runtime/planner.h"

namespace twinrt {
namespace {


struct Scope {
  Scope* parent = nullptr;
  Subgraph* g = nullptr;
  std::map<std::string, int> slots;

  bool can_resolve(const std::string& name) const {
    for (const Scope* s = this; s; s = s->parent)
      if (s->slots.count(name)) return true;
    return false;
  }
  // Slot of `name`, pulling it in from an enclosing scope if needed; -1 if undefined.
  int resolve(const std::string& name) {
    auto it = slots.find(name);
    if (it != slots.end()) return it->second;
    if (!parent || !parent->can_resolve(name)) return -1;
    int outer = parent->resolve(name);
    int slot = new_slot(name, parent->g->slot_types[static_cast<size_t>(outer)]);
    g->outer_names.push_back(name);
    g->outer_slots.push_back(slot);
    return slot;
  }
  int new_slot(const std::string& name, ir::TypeInfo type) {
    int slot = g->num_slots++;
    g->slot_types.push_back(std::move(type));
    g->slot_names.push_back(name);
    slots[name] = slot;
    return slot;
  }
};

class Compiler {
 public:
  Compiler(const ir::Model& model, const CompileOptions& options) : model_(model), options_(options) {}

  Result<std::shared_ptr<Subgraph>> compile(const ir::Graph& graph, Scope* parent, bool is_main);

 private:
  Status compile_node(const ir::Node& node, Scope& scope, const ir::Graph& graph,
                      std::map<int, Value>& constants);
  void add_constants(const ir::Node& node, std::vector<Value> values, Scope& scope,
                     const ir::Graph& graph, std::map<int, Value>& constants);
  bool try_fold(const Step& step, const std::vector<const Value*>& inputs, Scope& scope,
                const ir::Graph& graph, std::map<int, Value>& constants);
  ir::TypeInfo apply_overrides(ir::TypeInfo t) const;
  void watch_constant_readers(const ir::Graph& graph);
  void note_readers(const ir::Node& node, const Scope& scope, size_t steps_before, const std::map<int, Value>& constants);
  const ir::Model& model_;
  const CompileOptions& options_;
  ThreadPool fold_pool_{1};
  // Main-graph initializers whose bytes may be released: readers not compiled yet, and
  // whether a compiled one reads the bytes while running.
  struct Readers {
    int left = 0;
    bool read = false;
  };
  std::map<std::string, Readers> readers_;
};

// Every name that nodes of graphs nested in `g` read (they may read outer values).
void names_read_by_bodies(const ir::Graph& g, bool nested, std::set<std::string>& names) {
  for (const ir::Node& n : g.nodes) {
    if (nested) names.insert(n.inputs.begin(), n.inputs.end());
    for (const ir::Attribute& a : n.attributes) {
      if (a.g) names_read_by_bodies(*a.g, true, names);
      for (const auto& body : a.graphs)
        if (body) names_read_by_bodies(*body, true, names);
    }
  }
  if (nested)
    for (const auto& out : g.outputs) names.insert(out.name);
}

void Compiler::watch_constant_readers(const ir::Graph& graph) {
  std::set<std::string> pinned;  // read by a nested graph, a graph output, or replaceable by a feed
  names_read_by_bodies(graph, false, pinned);
  for (const auto& out : graph.outputs) pinned.insert(out.name);
  for (const auto& in : graph.inputs) pinned.insert(in.name);
  for (const ir::Node& n : graph.nodes)
    for (const std::string& in : n.inputs)
      if (!in.empty() && graph.initializers.count(in) && !pinned.count(in)) ++readers_[in].left;
}

// After `node` compiled: counts its reads of watched initializers, and releases the bytes of
// those whose last reader was compiled now if no reader reads them while running.
void Compiler::note_readers(const ir::Node& node, const Scope& scope, size_t steps_before,
                            const std::map<int, Value>& constants) {
  const bool runs = scope.g->steps.size() > steps_before;  // else folded or known from types
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    auto it = readers_.find(node.inputs[i]);
    if (it == readers_.end()) continue;
    Readers& r = it->second;
    if (runs) {
      if (!scope.g->steps.back().kernel->keeps_copy_of_input(i)) r.read = true;
    }
    if (--r.left > 0 || r.read) continue;
    auto slot = scope.slots.find(it->first);
    auto c = slot == scope.slots.end() ? constants.end() : constants.find(slot->second);
    if (c == constants.end() || !c->second.is_tensor()) continue;
    const Tensor& t = c->second.tensor;
    if (t.storage()) t.storage()->release(t.byte_offset(), t.nbytes());
  }
}

// True when inference gave every requested output's value (and no name clashes).
bool known_from_types(const ir::Node& node, const std::vector<Value>& values, const Scope& scope) {
  if (values.size() != node.outputs.size()) return false;
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    if (node.outputs[i].empty()) continue;
    if (values[i].kind == Value::Kind::kNone || scope.slots.count(node.outputs[i])) return false;
  }
  return true;
}

// Ops whose outputs are random must run every time, never be folded.
bool is_nondeterministic(const ir::Node& n) {
  static const std::set<std::string> ops = {"RandomNormal", "RandomUniform", "RandomNormalLike",
                                            "RandomUniformLike", "Multinomial", "Bernoulli", "Dropout"};
  return n.domain.empty() && ops.count(n.op_type);
}

ir::TypeInfo Compiler::apply_overrides(ir::TypeInfo t) const {
  if (t.is_tensor() && t.shape)
    for (ir::Dim& d : *t.shape) {
      auto it = options_.dim_overrides.find(d.symbol);
      if (!d.known() && it != options_.dim_overrides.end()) d.value = it->second;
    }
  return t;
}

const ir::TypeInfo* declared_type(const ir::Graph& g, const std::string& name) {
  for (const auto& v : g.value_info)
    if (v.name == name) return &v.type;
  for (const auto& v : g.outputs)
    if (v.name == name) return &v.type;
  return nullptr;
}

ir::TypeInfo merge_types(ir::TypeInfo inferred, const ir::TypeInfo* declared) {
  if (!declared || declared->kind == ir::TypeInfo::Kind::kUnknown) return inferred;
  if (inferred.kind == ir::TypeInfo::Kind::kUnknown) return *declared;
  if (inferred.is_tensor() && declared->is_tensor() && !inferred.shape && declared->shape &&
      (inferred.elem == declared->elem || inferred.elem == DataType::kUndefined)) {
    inferred.shape = declared->shape;
    inferred.elem = declared->elem;
  }
  return inferred;
}

Result<std::shared_ptr<Subgraph>> Compiler::compile(const ir::Graph& graph, Scope* parent,
                                                    bool is_main) {
  TRY(check_graph_names(graph));
  auto sub = std::make_shared<Subgraph>();
  sub->name = graph.name;
  Scope scope;
  scope.parent = parent;
  scope.g = sub.get();
  std::map<int, Value> constants;  // initializers and folded values; map nodes never move

  for (const auto& name : graph.initializer_order) {
    const Tensor& t = graph.initializers.at(name);
    if (scope.slots.count(name)) return invalid_model("initializer '" + name + "' is defined twice");
    int slot = scope.new_slot(name, ir::TypeInfo::tensor(t.dtype(), ir::shape_of(t.shape())));
    constants[slot] = Value::of(t);
  }
  std::vector<std::pair<int, Value>> defaults;  // initial values that a feed may replace
  for (const auto& in : graph.inputs) {
    auto init = scope.slots.find(in.name);
    if (init != scope.slots.end()) {
      // An initializer listed as a graph input is only a default: kernels must not treat
      // it as constant (no folding, no pre-packed weights) since a feed may replace it.
      if (is_main) {
        int slot = init->second;
        sub->overridable.emplace_back(in.name, slot);
        scope.g->slot_types[static_cast<size_t>(slot)] =
            merge_types(in.type, &scope.g->slot_types[static_cast<size_t>(slot)]);
        defaults.emplace_back(slot, std::move(constants.at(slot)));
        constants.erase(slot);
      }
      continue;
    }
    if (in.name.empty()) return invalid_model("graph '" + graph.name + "' has an input with no name");
    int slot = scope.new_slot(in.name, apply_overrides(in.type));
    // The plan's declared input carries the overrides, so feeds are checked against them.
    sub->inputs.push_back({in.name, scope.g->slot_types[static_cast<size_t>(slot)], in.doc});
    sub->input_slots.push_back(slot);
  }

  ASSIGN_OR_RETURN(auto order, ir::topological_order(graph));
  const bool release = is_main && options_.release_kept_constants;
  if (release) watch_constant_readers(graph);
  for (const ir::Node* node : order) {
    const size_t steps_before = sub->steps.size();
    TRY(compile_node(*node, scope, graph, constants));
    if (release) note_readers(*node, scope, steps_before, constants);
  }
  for (auto& [slot, v] : constants) sub->constants.emplace_back(slot, std::move(v));
  for (auto& d : defaults) sub->constants.push_back(std::move(d));

  for (const auto& out : graph.outputs) {
    int slot = scope.resolve(out.name);
    if (slot < 0)
      return invalid_model("graph output '" + out.name + "' is not produced by any node, input or initializer");
    sub->outputs.push_back(out);
    sub->output_slots.push_back(slot);
  }

  LastUsePlanner().plan(*sub);
  return sub;
}

Status Compiler::compile_node(const ir::Node& node, Scope& scope, const ir::Graph& graph,
                              std::map<int, Value>& constants) {
  Step step;
  step.node = &node;
  std::vector<ir::TypeInfo> in_types;
  std::vector<const Tensor*> in_consts;
  std::vector<const Value*> in_values;  // constant inputs as values, for folding
  bool all_constant = true;
  for (const auto& in : node.inputs) {
    int slot = in.empty() ? -1 : scope.resolve(in);
    if (!in.empty() && slot < 0)
      return invalid_model(node.describe() + ": input '" + in +
                           "' is not produced by any earlier node, graph input or initializer");
    step.inputs.push_back(slot);
    in_types.push_back(slot < 0 ? ir::TypeInfo{} : scope.g->slot_types[static_cast<size_t>(slot)]);
    auto c = constants.find(slot);
    bool known = c != constants.end();
    in_consts.push_back(known && c->second.is_tensor() ? &c->second.tensor : nullptr);
    in_values.push_back(known ? &c->second : nullptr);
    all_constant &= known || slot < 0;
  }

  int64_t opset = model_.opset(node.domain);
  // Nodes the graph passes create (they carry steps or the names of the nodes they
  // replace, which a model file cannot set): version 1 of twinrt's own domain.
  if (opset == 0 && node.domain == ir::kInternalDomain && (!node.elementwise_steps.empty() || !node.fused_from.empty()))
    opset = 1;
  if (opset == 0 && !node.domain.empty() && node.domain != "ai.onnx")
    return invalid_model(node.describe() + ": domain '" + node.domain + "' is not imported by the model");
  if (opset == 0) opset = model_.opset("");

  std::vector<std::shared_ptr<const Subgraph>> children;
  KernelInit init{node, opset, options_.mode, in_types, in_consts, {}, &graph};
  init.isa = options_.isa;
  init.value_changing_kernels = options_.value_changing_kernels;
  init.compile_subgraph = [&](const ir::Graph& body) -> Result<std::shared_ptr<const Subgraph>> {
    ASSIGN_OR_RETURN(auto child, compile(body, &scope, false));
    children.push_back(child);
    return std::shared_ptr<const Subgraph>(child);
  };
  TRY(check_duplicate_attributes(node));
  auto kernel = create_kernel(node.domain, init);
  if (!kernel) return kernel.status();
  step.kernel = std::move(kernel).value();
  TRY(check_unknown_attributes(init, options_.lenient, options_.warnings));

  std::set<std::string> seen;
  for (const auto& child : children)
    for (const auto& name : child->outer_names)
      if (seen.insert(name).second) step.implicit_inputs.emplace_back(name, scope.resolve(name));

  if (all_constant && children.empty() && !is_nondeterministic(node) &&
      try_fold(step, in_values, scope, graph, constants))
    return Status::ok();

  InferContext ictx{node, opset, in_types, in_consts, std::vector<ir::TypeInfo>(node.outputs.size())};
  TRY(step.kernel->infer(ictx).with_context(node.describe() + ": "));
  if (children.empty() && !is_nondeterministic(node) && known_from_types(node, ictx.output_values, scope)) {
    add_constants(node, std::move(ictx.output_values), scope, graph, constants);
    return Status::ok();
  }

  for (size_t i = 0; i < node.outputs.size(); ++i) {
    const std::string& out = node.outputs[i];
    if (out.empty()) {
      step.outputs.push_back(-1);
      continue;
    }
    if (scope.slots.count(out))
      return invalid_model(node.describe() + ": output '" + out + "' is already defined elsewhere in the graph");
    step.outputs.push_back(scope.new_slot(out, merge_types(ictx.output_types[i], declared_type(graph, out))));
  }
  scope.g->steps.push_back(std::move(step));
  return Status::ok();
}

// Runs a node whose inputs are all known now and records its outputs as constants, so
// the plan skips it and later nodes see the values (shape inference, weight packing).
bool Compiler::try_fold(const Step& step, const std::vector<const Value*>& inputs, Scope& scope,
                        const ir::Graph& graph, std::map<int, Value>& constants) {
  const ir::Node& node = *step.node;
  for (const auto& out : node.outputs)
    if (!out.empty() && scope.slots.count(out)) return false;  // let compile_node report it
  std::vector<Value> results(node.outputs.size());
  std::vector<Value*> outs;
  for (size_t i = 0; i < node.outputs.size(); ++i) outs.push_back(node.outputs[i].empty() ? nullptr : &results[i]);
  ExecOptions eo{options_.mode, &fold_pool_};
  KernelContext ctx(inputs, outs, {}, eo);
  if (!step.kernel->run(ctx).is_ok()) return false;  // the error will surface when the graph runs
  for (size_t i = 0; i < node.outputs.size(); ++i)
    if (outs[i] && results[i].kind == Value::Kind::kNone) return false;
  add_constants(node, std::move(results), scope, graph, constants);
  return true;
}

void Compiler::add_constants(const ir::Node& node, std::vector<Value> values, Scope& scope,
                             const ir::Graph& graph, std::map<int, Value>& constants) {
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    if (node.outputs[i].empty()) continue;
    const Value& v = values[i];
    ir::TypeInfo t = v.is_tensor() ? ir::TypeInfo::tensor(v.tensor.dtype(), ir::shape_of(v.tensor.shape()))
                                   : merge_types(ir::TypeInfo{}, declared_type(graph, node.outputs[i]));
    constants[scope.new_slot(node.outputs[i], t)] = std::move(values[i]);
  }
}

}  // namespace

Result<std::shared_ptr<const Subgraph>> compile_model(const ir::Model& model,
                                                      const CompileOptions& options) {
  if (!model.graph) return invalid_model("model has no graph");
  TRY(check_opset_imports(model));
  CompileOptions resolved = options;
  ASSIGN_OR_RETURN(resolved.isa, kernels::resolve_isa(options.isa));
  Compiler compiler(model, resolved);
  ASSIGN_OR_RETURN(auto g, compiler.compile(*model.graph, nullptr, true));
  return std::shared_ptr<const Subgraph>(g);
}

}  // namespace twinrt
