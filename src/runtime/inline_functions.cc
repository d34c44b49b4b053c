// Model-local functions (FunctionProto) are expanded into their callers before compiling,
// so the runtime only ever sees primitive ops.
#include <algorithm>

#include "runtime/session_impl.h"

namespace twinrt {
namespace {

constexpr int kMaxInlineDepth = 32;  // a function that calls itself would never end
// Functions that call each other in fan-out (2 calls x 30 levels: 2^30 nodes) would inline
// for hours; real models have well under 100,000 nodes.
constexpr uint64_t kMaxInlinedNodes = uint64_t{1} << 20;

const ir::Function* find_function(const ir::Model& m, const ir::Node& n) {
  for (const auto& f : m.functions)
    if (f.name == n.op_type && ir::canonical_domain(f.domain) == ir::canonical_domain(n.domain)) return &f;
  return nullptr;
}

Status inline_graph(const ir::Model& m, ir::Graph& g, int depth, int& counter);
// Appends `nodes` to `out`, replacing each function call by the function's body.
Status inline_nodes(const ir::Model& m, std::vector<ir::Node> nodes, std::vector<ir::Node>& out,
                    int depth, int& counter);

// Inlines calls inside the graphs a node carries as attributes (If/Loop/Scan bodies).
Status inline_attribute_graphs(const ir::Model& m, ir::Node& n, int depth, int& counter) {
  for (auto& a : n.attributes) {
    if (a.g) TRY(inline_graph(m, *a.g, depth + 1, counter));
    for (auto& sg : a.graphs)
      if (sg) TRY(inline_graph(m, *sg, depth + 1, counter));
  }
  return Status::ok();
}

// Rewrites one call into the function body's nodes, appended to `out`.
Status expand_call(const ir::Model& m, const ir::Function& f, const ir::Node& call,
                   std::vector<ir::Node>& out, int depth, int& counter) {
  if (depth > kMaxInlineDepth)
    return invalid_model(call.describe() + ": functions nest deeper than " +
                         std::to_string(kMaxInlineDepth) + " (recursive function?)");
  std::map<std::string, std::string> rename;
  for (size_t i = 0; i < f.inputs.size(); ++i)
    rename[f.inputs[i]] = i < call.inputs.size() ? call.inputs[i] : "";
  for (size_t i = 0; i < f.outputs.size(); ++i)
    rename[f.outputs[i]] = i < call.outputs.size() ? call.outputs[i] : "";
  const std::string prefix = "__" + f.name + "_" + std::to_string(counter++) + "/";
  auto map_name = [&](const std::string& n) {
    if (n.empty()) return n;
    auto it = rename.find(n);
    return it != rename.end() ? it->second : prefix + n;
  };
  std::vector<ir::Node> body;
  for (const ir::Node& src : f.nodes) {
    ir::Node n = src;
    n.name = prefix + src.name;
    for (auto& in : n.inputs) in = map_name(in);
    for (auto& o : n.outputs) o = map_name(o);
    std::vector<ir::Attribute> attrs;
    for (const auto& a : src.attributes) {
      if (a.ref_attr_name.empty()) {
        attrs.push_back(a);
        continue;
      }
      const ir::Attribute* bound = call.attr(a.ref_attr_name);
      if (!bound)
        for (const auto& d : f.attribute_defaults)
          if (d.name == a.ref_attr_name) bound = &d;
      if (!bound) continue;  // unbound reference: the attribute is absent
      ir::Attribute b = *bound;
      b.name = a.name;
      attrs.push_back(std::move(b));
    }
    n.attributes = std::move(attrs);
    body.push_back(std::move(n));
  }
  return inline_nodes(m, std::move(body), out, depth, counter);
}

Status inline_nodes(const ir::Model& m, std::vector<ir::Node> nodes, std::vector<ir::Node>& out,
                    int depth, int& counter) {
  for (ir::Node& n : nodes) {
    if (const ir::Function* f = find_function(m, n)) {
      TRY(expand_call(m, *f, n, out, depth + 1, counter));
      continue;
    }
    TRY(inline_attribute_graphs(m, n, depth, counter));
    out.push_back(std::move(n));
  }
  return Status::ok();
}

Status inline_graph(const ir::Model& m, ir::Graph& g, int depth, int& counter) {
  if (depth > kMaxInlineDepth) return invalid_model("graphs nest deeper than " + std::to_string(kMaxInlineDepth));
  std::vector<ir::Node> out;
  TRY(inline_nodes(m, std::move(g.nodes), out, depth, counter));
  g.nodes = std::move(out);
  return Status::ok();
}

// Nodes a graph has once every call is inlined, counted without inlining (each function's
// count is remembered) and saturating just above kMaxInlinedNodes.
class InlinedSize {
 public:
  explicit InlinedSize(const ir::Model& m) : m_(m) {}

  Result<uint64_t> of_nodes(const std::vector<ir::Node>& nodes, int depth) {
    if (depth > kMaxInlineDepth)
      return invalid_model("graphs and functions nest deeper than " + std::to_string(kMaxInlineDepth) +
                           " (recursive function?)");
    uint64_t total = 0;
    for (const ir::Node& n : nodes) {
      ASSIGN_OR_RETURN(uint64_t size, of_node(n, depth));
      total = std::min(total + size, kMaxInlinedNodes + 1);
    }
    return total;
  }

 private:
  Result<uint64_t> of_node(const ir::Node& n, int depth) {
    if (const ir::Function* f = find_function(m_, n)) {
      if (auto it = known_.find(f); it != known_.end()) return it->second;
      ASSIGN_OR_RETURN(uint64_t size, of_nodes(f->nodes, depth + 1));
      known_[f] = size;
      return size;
    }
    uint64_t total = 1;
    for (const auto& a : n.attributes) {
      std::vector<const ir::Graph*> graphs;
      if (a.g) graphs.push_back(a.g.get());
      for (const auto& sg : a.graphs) if (sg) graphs.push_back(sg.get());
      for (const ir::Graph* sg : graphs) {
        ASSIGN_OR_RETURN(uint64_t size, of_nodes(sg->nodes, depth + 1));
        total = std::min(total + size, kMaxInlinedNodes + 1);
      }
    }
    return total;
  }

  const ir::Model& m_;
  std::map<const ir::Function*, uint64_t> known_;
};

}  // namespace

Status inline_functions(ir::Model& model) {
  if (model.functions.empty() || !model.graph) return Status::ok();
  ASSIGN_OR_RETURN(uint64_t nodes, InlinedSize(model).of_nodes(model.graph->nodes, 0));
  if (nodes > kMaxInlinedNodes)
    return invalid_model("inlining the model's functions would make more than " + std::to_string(kMaxInlinedNodes) +
                         " nodes (functions that call each other in fan-out)");
  int counter = 0;
  return inline_graph(model, *model.graph, 0, counter);
}

}  // namespace twinrt
