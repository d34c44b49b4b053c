#include "ops/training/autodiff.h"

#include <map>
#include <set>

#include "ops/training/gradient_rules.h"

namespace twinrt {
namespace {

// Indices of the nodes that compute `y`, stopping at `independent` names, in
// topological order (iterative post-order walk: no recursion depth to exhaust).
std::vector<size_t> nodes_computing(const ir::Graph& graph, const std::string& y,
                                    const std::set<std::string>& independent) {
  std::map<std::string, size_t> producer;
  for (size_t i = 0; i < graph.nodes.size(); ++i)
    for (const auto& o : graph.nodes[i].outputs)
      if (!o.empty()) producer.emplace(o, i);
  std::vector<size_t> order;
  std::vector<int> state(graph.nodes.size(), 0);  // 0 unseen, 1 on the stack, 2 done
  std::vector<std::pair<size_t, size_t>> stack;   // (node, next input to visit)
  auto push = [&](const std::string& name) {
    if (name.empty() || independent.count(name)) return;
    auto it = producer.find(name);
    if (it == producer.end() || state[it->second] != 0) return;  // constant, outer value, or seen
    state[it->second] = 1;
    stack.emplace_back(it->second, 0);
  };
  push(y);
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    const ir::Node& n = graph.nodes[node];
    if (next < n.inputs.size()) {
      push(n.inputs[next++]);  // may reallocate: `node`/`next` are not used after this
      continue;
    }
    state[node] = 2;
    order.push_back(node);
    stack.pop_back();
  }
  return order;
}

}  // namespace

Result<GradientPlan> plan_gradient(const ir::Graph& graph, std::vector<std::string> xs, std::vector<std::string> zs,
                                   std::string y, const std::vector<ir::TypeInfo>& input_types) {
  GradientPlan plan;
  std::set<std::string> independent(xs.begin(), xs.end());
  independent.insert(zs.begin(), zs.end());
  if (independent.size() != xs.size() + zs.size()) return invalid_model("xs and zs must name distinct values");
  const std::vector<size_t> order = nodes_computing(graph, y, independent);
  if (order.empty() && !independent.count(y))
    return invalid_model("y '" + y + "' is not computed by any node from xs and zs");

  plan.forward = std::make_shared<ir::Graph>();
  plan.forward->name = "gradient_of_" + y;
  std::vector<std::string> names = xs;
  names.insert(names.end(), zs.begin(), zs.end());
  for (size_t i = 0; i < names.size(); ++i)
    plan.forward->inputs.push_back({names[i], i < input_types.size() ? input_types[i] : ir::TypeInfo{}, {}});

  std::set<std::string> depends_on_x(xs.begin(), xs.end());
  std::set<std::string> listed;
  auto list_output = [&](const std::string& name) {
    if (!name.empty() && listed.insert(name).second) plan.forward_outputs.push_back(name);
  };
  list_output(y);
  for (size_t index : order) {
    const ir::Node& n = graph.nodes[index];
    bool differentiated = false;
    for (const auto& in : n.inputs) differentiated |= depends_on_x.count(in) > 0;
    if (differentiated) {
      if (!find_gradient_rule(n))
        return not_implemented("Gradient cannot differentiate " + n.describe() + " on the path from xs to y");
      for (const auto& o : n.outputs) depends_on_x.insert(o);
    }
    plan.forward->nodes.push_back(n);
    plan.differentiated.push_back(differentiated);
    for (const auto& in : n.inputs) list_output(in);
    for (const auto& o : n.outputs) list_output(o);
  }
  for (const auto& name : names) list_output(name);
  for (const auto& name : plan.forward_outputs) plan.forward->outputs.push_back({name, {}, {}});
  plan.xs = std::move(xs);
  plan.zs = std::move(zs);
  plan.y = std::move(y);
  return plan;
}

Result<std::vector<Tensor>> backpropagate(const GradientPlan& plan, const std::vector<Value>& forward_values) {
  if (forward_values.size() != plan.forward_outputs.size())
    return internal_error("the forward graph gave " + std::to_string(forward_values.size()) + " values");
  std::map<std::string, Tensor> values;
  for (size_t i = 0; i < forward_values.size(); ++i) {
    if (!forward_values[i].is_tensor())
      return not_implemented("Gradient: value '" + plan.forward_outputs[i] + "' is not a tensor");
    ASSIGN_OR_RETURN(values[plan.forward_outputs[i]], to_double_tensor(forward_values[i].tensor));
  }
  std::map<std::string, Tensor> grads;
  ASSIGN_OR_RETURN(grads[plan.y], filled_double(values.at(plan.y).shape(), 1.0));  // dy/dy
  const auto& nodes = plan.forward->nodes;
  for (size_t k = nodes.size(); k-- > 0;) {
    if (!plan.differentiated[k]) continue;
    const ir::Node& n = nodes[k];
    auto dy = grads.find(n.outputs[0]);  // rules serve single-output nodes
    if (dy == grads.end()) continue;       // no gradient flows back through this node
    NodeGradient ng;
    ng.node = &n;
    ng.output_grads.push_back(&dy->second);
    for (const auto& in : n.inputs) ng.inputs.push_back(in.empty() ? nullptr : &values.at(in));
    auto input_grads = find_gradient_rule(n)(ng);
    if (!input_grads) return input_grads.status().with_context("Gradient through " + n.describe() + ": ");
    for (size_t i = 0; i < n.inputs.size() && i < input_grads->size(); ++i) {
      Tensor& g = (*input_grads)[i];
      if (!g.defined() || n.inputs[i].empty()) continue;
      auto it = grads.find(n.inputs[i]);
      if (it == grads.end()) grads.emplace(n.inputs[i], std::move(g));
      else { ASSIGN_OR_RETURN(it->second, add_same_shape(it->second, g)); }
    }
  }
  std::vector<Tensor> out;
  for (const auto& x : plan.xs) {
    auto it = grads.find(x);
    if (it != grads.end()) out.push_back(it->second);
    else { ASSIGN_OR_RETURN(Tensor zero, filled_double(values.at(x).shape(), 0.0)); out.push_back(std::move(zero)); }
  }
  return out;
}

}  // namespace twinrt
