// Which names a node reads, and a stable topological order of a graph's nodes.
#include "ir/graph_order.h"

#include <map>

namespace twinrt::ir {

void collect_node_reads(const Node& n, std::set<std::string>& out) {
  for (const auto& in : n.inputs)
    if (!in.empty()) out.insert(in);
  for (const auto& a : n.attributes) {
    if (a.g) collect_free_names(*a.g, out);
    for (const auto& sg : a.graphs)
      if (sg) collect_free_names(*sg, out);
  }
}

void collect_free_names(const Graph& g, std::set<std::string>& out) {
  std::set<std::string> defined;
  for (const auto& i : g.inputs) defined.insert(i.name);
  for (const auto& [name, t] : g.initializers) defined.insert(name);
  for (const auto& n : g.nodes)
    for (const auto& o : n.outputs) defined.insert(o);
  std::set<std::string> reads;
  for (const auto& n : g.nodes) collect_node_reads(n, reads);
  for (const auto& o : g.outputs) reads.insert(o.name);
  for (const auto& r : reads)
    if (!defined.count(r)) out.insert(r);
}

// Kahn's algorithm, stable: nodes already in order stay in order. A cycle is an error.
Result<std::vector<const Node*>> topological_order(const Graph& g) {
  std::map<std::string, size_t> producer;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (const auto& o : g.nodes[i].outputs)
      if (!o.empty()) producer.emplace(o, i);
  size_t n = g.nodes.size();
  std::vector<std::vector<size_t>> consumers(n);
  std::vector<size_t> pending(n, 0);
  for (size_t i = 0; i < n; ++i) {
    std::set<std::string> reads;
    collect_node_reads(g.nodes[i], reads);
    for (const auto& r : reads) {
      auto it = producer.find(r);
      if (it == producer.end()) continue;
      if (it->second == i)
        return invalid_model(g.nodes[i].describe() + " reads its own output '" + r + "'");
      consumers[it->second].push_back(i);
      ++pending[i];
    }
  }
  std::set<size_t> ready;
  for (size_t i = 0; i < n; ++i)
    if (!pending[i]) ready.insert(i);
  std::vector<const Node*> order;
  while (!ready.empty()) {
    size_t i = *ready.begin();
    ready.erase(ready.begin());
    order.push_back(&g.nodes[i]);
    for (size_t c : consumers[i])
      if (--pending[c] == 0) ready.insert(c);
  }
  if (order.size() != n) {
    for (size_t i = 0; i < n; ++i)
      if (pending[i]) return invalid_model("graph has a cycle through " + g.nodes[i].describe());
  }
  return order;
}

}  // namespace twinrt::ir
