#include "parity/intermediates.h"

#include <algorithm>
#include <set>

#include "ir/graph_order.h"
#include "runtime/plan.h"
#include "runtime/session_impl.h"

namespace twinrt::parity {
namespace {

// Types twinrt infers for the main graph's values (name -> type), or an empty map when
// twinrt cannot compile the model (another engine may still run it).
std::map<std::string, ir::TypeInfo> inferred_types(const ir::Model& model, const std::map<std::string, int64_t>& dims) {
  ir::Model inlined = model;
  std::map<std::string, ir::TypeInfo> types;
  if (!inline_functions(inlined).is_ok()) return types;
  CompileOptions options;
  options.dim_overrides = dims;
  auto plan = compile_model(inlined, options);
  if (!plan) return types;
  const Subgraph& g = **plan;
  for (size_t i = 0; i < g.slot_names.size() && i < g.slot_types.size(); ++i)
    types.emplace(g.slot_names[i], g.slot_types[i]);
  return types;
}

ir::TypeInfo type_of(const Tensor& t) {
  ir::Shape shape;
  for (int64_t d : t.shape()) shape.push_back(ir::Dim::of(d));
  return ir::TypeInfo::tensor(t.dtype(), shape);
}

// Drops the initializers no node of `g` reads (and the graph inputs that only declared
// them, as IR < 4 lists them): a chunk or own-error model is written to a file per chunk,
// and one carrying every weight of the model (BERT: 435 MB, three files a chunk) filled the
// disk after 52 chunks.
void drop_unread_initializers(ir::Graph& g) {
  std::set<std::string> read;
  for (const auto& n : g.nodes) ir::collect_node_reads(n, read);
  for (const auto& o : g.outputs) read.insert(o.name);
  std::set<std::string> dropped;
  for (auto it = g.initializers.begin(); it != g.initializers.end();) {
    if (read.count(it->first)) {
      ++it;
      continue;
    }
    dropped.insert(it->first);
    it = g.initializers.erase(it);
  }
  const auto gone = [&](const auto& name) { return dropped.count(name) > 0; };
  const auto gone_input = [&](const ir::ValueInfo& v) { return gone(v.name); };
  g.inputs.erase(std::remove_if(g.inputs.begin(), g.inputs.end(), gone_input), g.inputs.end());
  auto& order = g.initializer_order;
  order.erase(std::remove_if(order.begin(), order.end(), gone), order.end());
}

}  // namespace

bool is_parameter_node(const ir::Node& node) {
  return node.op_type == "Constant" && (node.domain.empty() || node.domain == "ai.onnx");
}

std::map<std::string, Tensor> parameter_values(const ir::Graph& graph) {
  std::map<std::string, Tensor> values;
  for (const ir::Node& node : graph.nodes) {
    if (!is_parameter_node(node) || node.outputs.empty()) continue;
    for (const auto& a : node.attributes)
      if (a.name == "value" && a.type == ir::Attribute::Type::kTensor) values.emplace(node.outputs[0], a.t);
  }
  return values;
}

std::string node_label(const ir::Node& node, size_t index) {
  return node.name.empty() ? node.op_type + "#" + std::to_string(index) : node.name;
}

Result<ExposedModel> expose_intermediates(ir::Model model, const std::map<std::string, int64_t>& dims) {
  if (!model.graph) return invalid_model("model has no graph");
  const auto types = inferred_types(model, dims);
  ExposedModel out;
  for (const auto& [name, type] : types) {
    if (!type.is_tensor() || !type.shape || !ir::shape_is_static(*type.shape)) continue;
    int64_t n = static_cast<int64_t>(dtype_size(type.elem));
    for (int64_t d : ir::static_dims(*type.shape)) n *= d;
    out.bytes[name] = n;
  }
  model.graph = std::make_shared<ir::Graph>(*model.graph);  // Model copies share their graph
  ir::Graph& g = *model.graph;
  std::set<std::string> taken;
  for (const auto& o : g.outputs) taken.insert(o.name);
  for (const ir::Node& node : g.nodes) {
    if (is_parameter_node(node)) continue;
    for (const std::string& name : node.outputs) {
      if (name.empty() || !taken.insert(name).second) continue;
      auto it = types.find(name);
      // Unknown to twinrt: expose untyped and let the engine infer; known non-tensors stay.
      if (it != types.end() && it->second.kind != ir::TypeInfo::Kind::kTensor &&
          it->second.kind != ir::TypeInfo::Kind::kUnknown)
        continue;
      ir::ValueInfo info;
      info.name = name;
      if (it != types.end() && it->second.is_tensor()) info.type = ir::TypeInfo::tensor(it->second.elem);
      g.outputs.push_back(info);
      out.intermediates.push_back(name);
    }
  }
  out.model = std::move(model);
  return out;
}

Result<ir::Model> model_with_outputs(const ExposedModel& exposed, const std::vector<std::string>& outputs,
                                     const std::map<std::string, Tensor>& given, std::vector<std::string>* fed) {
  ir::Model model = exposed.model;
  model.graph = std::make_shared<ir::Graph>(*exposed.model.graph);
  ir::Graph& g = *model.graph;
  std::map<std::string, ir::ValueInfo> declared;
  for (const auto& o : g.outputs) declared.emplace(o.name, o);
  g.outputs.clear();
  std::set<std::string> needed;
  for (const auto& name : outputs) {
    auto it = declared.find(name);
    if (it == declared.end()) return invalid_argument("'" + name + "' is not an output of the exposed model");
    g.outputs.push_back(it->second);
    needed.insert(name);
  }
  // Walk back from the outputs: a node is kept when something needed and not given is one
  // of its outputs.
  std::vector<bool> keep(g.nodes.size(), false);
  for (size_t i = g.nodes.size(); i-- > 0;) {  // nodes as loaded may be out of order: repeat
    bool changed = false;
    for (size_t j = g.nodes.size(); j-- > 0;) {
      if (keep[j]) continue;
      for (const auto& o : g.nodes[j].outputs) {
        if (o.empty() || !needed.count(o) || given.count(o)) continue;
        keep[j] = changed = true;
        ir::collect_node_reads(g.nodes[j], needed);
        break;
      }
    }
    if (!changed) break;
  }
  std::vector<ir::Node> kept;
  for (size_t j = 0; j < g.nodes.size(); ++j)
    if (keep[j]) kept.push_back(std::move(g.nodes[j]));
  g.nodes = std::move(kept);
  drop_unread_initializers(g);
  for (const auto& [name, tensor] : given) {
    if (!needed.count(name)) continue;
    g.inputs.push_back(ir::ValueInfo{name, type_of(tensor), ""});
    if (fed) fed->push_back(name);
  }
  return model;
}

Result<OwnErrorModel> build_own_error_model(ir::Model model, const std::map<std::string, Tensor>& values,
                                           const std::set<std::string>* rerun) {
  if (!model.graph) return invalid_model("model has no graph");
  model.graph = std::make_shared<ir::Graph>(*model.graph);  // Model copies share their graph
  ir::Graph& g = *model.graph;
  std::set<std::string> produced;
  for (const auto& n : g.nodes)
    if (!is_parameter_node(n))
      for (const auto& o : n.outputs)
        if (!o.empty()) produced.insert(o);

  OwnErrorModel out;
  std::set<std::string> fed;
  std::vector<ir::Node> kept;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    ir::Node node = g.nodes[i];
    if (is_parameter_node(node)) {
      kept.push_back(std::move(node));
      continue;
    }
    if (rerun && std::none_of(node.outputs.begin(), node.outputs.end(),
                              [&](const std::string& o) { return rerun->count(o) > 0; }))
      continue;
    std::set<std::string> reads;
    ir::collect_node_reads(node, reads);
    bool complete = true;
    for (const auto& r : reads)
      if (produced.count(r) && !values.count(r)) complete = false;
    if (!complete) continue;
    for (const auto& r : reads)
      if (produced.count(r)) fed.insert(r);
    for (auto& o : node.outputs) {
      if (o.empty()) continue;
      o += kOwnSuffix;
      out.outputs.push_back(o);
    }
    kept.push_back(std::move(node));
  }
  g.nodes = std::move(kept);
  g.outputs.clear();
  g.value_info.clear();
  for (const auto& name : out.outputs) {
    ir::ValueInfo info;
    info.name = name;
    g.outputs.push_back(info);
  }
  drop_unread_initializers(g);
  for (const auto& name : fed) {
    g.inputs.push_back(ir::ValueInfo{name, type_of(values.at(name)), ""});
    out.feeds.push_back(name);
  }
  out.model = std::move(model);
  return out;
}

}  // namespace twinrt::parity
