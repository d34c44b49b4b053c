#include "quantize/graph_edit.h"

#include "ir/graph_order.h"

namespace twinrt::quantize {

GraphEditor::GraphEditor(ir::Graph& g) : g_(g), removed_(g.nodes.size(), false) {
  for (const auto& v : g.inputs) names_.insert(v.name);
  for (const auto& v : g.outputs) names_.insert(v.name);
  for (const auto& [name, t] : g.initializers) names_.insert(name);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    names_.insert(g.nodes[i].name);
    for (const auto& v : g.nodes[i].inputs) names_.insert(v);
    for (const auto& v : g.nodes[i].outputs) {
      names_.insert(v);
      producer_[v] = i;
    }
  }
}

std::string GraphEditor::fresh(const std::string& base) {
  std::string name = base;
  for (int i = 1; names_.count(name); ++i) name = base + "_" + std::to_string(i);
  names_.insert(name);
  return name;
}

std::string GraphEditor::add_initializer(const std::string& base, Tensor t) {
  const std::string name = fresh(base);
  g_.initializers[name] = std::move(t);
  g_.initializer_order.push_back(name);
  return name;
}

void GraphEditor::insert_before(size_t before, ir::Node n) { before_[before].push_back(std::move(n)); }

void GraphEditor::insert_after(size_t after, ir::Node n) {
  if (after == std::string::npos) first_.push_back(std::move(n));
  else after_[after].push_back(std::move(n));
}

size_t GraphEditor::producer(const std::string& value) const {
  auto it = producer_.find(value);
  return it == producer_.end() ? std::string::npos : it->second;
}

void GraphEditor::remove(size_t index) { removed_[index] = true; }

void GraphEditor::commit() {
  std::vector<ir::Node> nodes = std::move(first_);
  for (size_t i = 0; i < g_.nodes.size(); ++i) {
    for (auto& n : before_[i]) nodes.push_back(std::move(n));
    if (!removed_[i]) nodes.push_back(std::move(g_.nodes[i]));
    for (auto& n : after_[i]) nodes.push_back(std::move(n));
  }
  for (auto& n : before_[g_.nodes.size()]) nodes.push_back(std::move(n));
  g_.nodes = std::move(nodes);
  std::set<std::string> read;
  for (const ir::Node& n : g_.nodes) read.insert(n.inputs.begin(), n.inputs.end());
  for (const auto& o : g_.outputs) read.insert(o.name);
  for (const ir::Node& n : g_.nodes)
    for (const ir::Attribute& a : n.attributes) {
      if (a.g) ir::collect_free_names(*a.g, read);
      for (const auto& body : a.graphs) ir::collect_free_names(*body, read);
    }
  std::vector<std::string> order;
  std::set<std::string> dropped;
  for (const std::string& name : g_.initializer_order) {
    if (read.count(name)) {
      order.push_back(name);
    } else {
      g_.initializers.erase(name);
      dropped.insert(name);
    }
  }
  g_.initializer_order = std::move(order);
  // A graph input that doubled as an initializer's declaration goes with it.
  std::vector<ir::ValueInfo> inputs;
  for (auto& v : g_.inputs)
    if (!dropped.count(v.name)) inputs.push_back(std::move(v));
  g_.inputs = std::move(inputs);
}

ir::Node make_node(const std::string& op, const std::string& name, std::vector<std::string> inputs,
                   std::vector<std::string> outputs, std::vector<ir::Attribute> attributes) {
  ir::Node n;
  n.op_type = op;
  n.name = name;
  n.inputs = std::move(inputs);
  n.outputs = std::move(outputs);
  n.attributes = std::move(attributes);
  return n;
}

const Tensor* constant(const ir::Graph& g, const std::string& value) {
  auto it = g.initializers.find(value);
  return it == g.initializers.end() ? nullptr : &it->second;
}

}  // namespace twinrt::quantize
