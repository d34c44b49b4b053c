// The expected float error of every tensor: a walk over the graph in topological order
// applying the per-operator rules of error_budget_ops.cc. Model: docs/parity.md,
// section "Expected float error".
#include <algorithm>
#include <cmath>
#include <set>

#include "parity/error_budget.h"
#include "parity/error_budget_ops.h"
#include "parity/metrics_parts.h"

namespace twinrt::parity {
namespace {

// Nodes in an order where every producer comes before its consumers (Kahn's algorithm,
// ties in file order). Names produced by no node (graph inputs, initializers, outer
// scope) are available from the start.
Result<std::vector<const ir::Node*>> topological_order(const ir::Graph& graph) {
  std::map<std::string, size_t> producer;
  for (size_t i = 0; i < graph.nodes.size(); ++i)
    for (const auto& out : graph.nodes[i].outputs)
      if (!out.empty()) producer[out] = i;
  std::vector<int> pending(graph.nodes.size(), 0);
  std::vector<std::vector<size_t>> consumers(graph.nodes.size());
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    std::set<size_t> deps;
    for (const auto& in : graph.nodes[i].inputs) {
      auto it = producer.find(in);
      if (!in.empty() && it != producer.end()) deps.insert(it->second);
    }
    pending[i] = static_cast<int>(deps.size());
    for (size_t d : deps) consumers[d].push_back(i);
  }
  std::set<size_t> ready;
  for (size_t i = 0; i < pending.size(); ++i) if (pending[i] == 0) ready.insert(i);
  std::vector<const ir::Node*> order;
  while (!ready.empty()) {
    const size_t i = *ready.begin();
    ready.erase(ready.begin());
    order.push_back(&graph.nodes[i]);
    for (size_t c : consumers[i]) if (--pending[c] == 0) ready.insert(c);
  }
  if (order.size() != graph.nodes.size())
    return invalid_model("expected error: graph '" + graph.name + "' has a cycle");
  return order;
}

class Walker {
 public:
  Walker(const ir::Graph& graph, const std::map<std::string, TensorSummary>& values)
      : graph_(graph), values_(values) {
    for (const auto* list : {&graph.inputs, &graph.outputs, &graph.value_info})
      for (const auto& vi : *list) declared_[vi.name] = &vi.type;
    for (const auto& n : graph.nodes) produced_.insert(n.outputs.begin(), n.outputs.end());
  }

  Result<std::map<std::string, ExpectedError>> run() {
    ASSIGN_OR_RETURN(auto order, topological_order(graph_));
    std::map<std::string, ExpectedError> out;
    for (const auto& [name, summary] : values_) {  // graph inputs and constants are exact
      if (!produced_.count(name)) out[name] = ExpectedError{};
    }
    for (const ir::Node* node : order) visit(*node, out);
    return out;
  }

 private:
  // Shape, dtype and magnitude of a tensor from what was observed, the initializers and
  // the declared types, in that order.
  OperandView view(const std::string& name) const {
    OperandView v;
    if (auto it = values_.find(name); it != values_.end()) {
      v.dtype = it->second.dtype;
      v.shape = it->second.shape;
      v.max_abs = it->second.max_abs;
    } else if (auto init = graph_.initializers.find(name); init != graph_.initializers.end()) {
      v.dtype = init->second.dtype();
      v.shape = init->second.shape();
    } else if (auto d = declared_.find(name); d != declared_.end() && d->second->is_tensor()) {
      v.dtype = d->second->elem;
      if (d->second->shape && ir::shape_is_static(*d->second->shape))
        v.shape = ir::static_dims(*d->second->shape);
    }
    if (auto r = carried_.find(name); r != carried_.end()) {
      v.relative = r->second.relative;
      v.saturated = r->second.saturated;
      v.not_estimable = r->second.not_estimable;
    }
    return v;
  }

  void visit(const ir::Node& node, std::map<std::string, ExpectedError>& out) {
    std::vector<OperandView> inputs;
    DataType first_float = DataType::kUndefined;
    for (const auto& name : node.inputs) {
      inputs.push_back(name.empty() ? OperandView{} : view(name));
      if (first_float == DataType::kUndefined && dtype_is_float(inputs.back().dtype))
        first_float = inputs.back().dtype;
    }
    for (const auto& name : node.outputs) {
      if (name.empty()) continue;
      OperandView output = view(name);
      if (output.dtype == DataType::kUndefined)  // not observed nor declared: follow the inputs
        output.dtype = first_float == DataType::kUndefined ? DataType::kFloat : first_float;
      const ExpectedError e = node_error(node, inputs, output);
      carried_[name] = e;
      if (auto it = values_.find(name); it != values_.end()) {
        ExpectedError entry = e;
        entry.absolute = e.relative * it->second.max_abs;
        out[name] = entry;
      }
    }
  }

  static ExpectedError node_error(const ir::Node& node, const std::vector<OperandView>& inputs,
                                  const OperandView& output) {
    // Shape and Size read no values; every other op passes on an input it cannot estimate.
    const bool reads_values = node.op_type != "Shape" && node.op_type != "Size";
    ExpectedError e;
    for (const auto& in : inputs) {
      if (!reads_values) break;
      e.saturated |= in.saturated;
      if (e.not_estimable.empty()) e.not_estimable = in.not_estimable;
    }
    own_and_carried(node, inputs, output, e);
    if (!e.not_estimable.empty()) {
      e.relative = 0;
    } else if (e.relative >= kSaturatedRelative) {
      e.relative = kSaturatedRelative;
      e.saturated = true;
    }
    return e;
  }

  // Fills e.own_relative, e.own_reduction_length and e.relative (before saturation).
  static void own_and_carried(const ir::Node& node, const std::vector<OperandView>& inputs,
                              const OperandView& output, ExpectedError& e) {
    double max_in = 0, max_integer_in = 0;
    for (const auto& in : inputs) {
      max_in = std::max(max_in, in.relative);
      if (!dtype_is_float(in.dtype)) max_integer_in = std::max(max_integer_in, in.relative);
    }
    const double u = unit_roundoff(output.dtype);
    OpClass op_class = classify(node, output.dtype, inputs);
    // DynamicQuantizeLinear's scale output is one float division of the input's range.
    if (op_class == OpClass::kToInteger && dtype_is_float(output.dtype)) op_class = OpClass::kCompute;
    // Integer arithmetic is exact: integers keep the error of the integers they come from
    // (the outputs of MatMulInteger, ConvInteger); floats become integers only by rounding.
    if (!dtype_is_float(output.dtype) && op_class != OpClass::kToInteger) {
      if (node.op_type != "Shape" && node.op_type != "Size") e.relative = max_integer_in;
      return;
    }
    switch (op_class) {
      case OpClass::kDataMovement:
        e.relative = inherited_relative(node, inputs, output);
        return;
      case OpClass::kCompute:
        e.own_reduction_length = reduction_length(node, inputs, output);
        e.own_relative = own_relative_error(u, accumulation_roundoff(output.dtype), e.own_reduction_length,
                                            final_rounding_units(node));
        e.relative = std::hypot(e.own_relative, inherited_relative(node, inputs, output));
        return;
      case OpClass::kNarrowingCast:
        e.own_relative = u;
        e.relative = std::hypot(u, max_in);
        return;
      case OpClass::kToInteger:
        // From the same inputs, two engines may round a value that sits on a half step
        // differently: one step. A float input that already carries error can land a whole
        // step away anywhere, and DynamicQuantizeLinear's steps move with its input's range:
        // no first-order estimate survives that.
        if (node.op_type != "Cast" && node.op_type != "CastLike")  // a cast truncates: exact
          e.own_relative = output.max_abs && *output.max_abs > 0 ? 1 / *output.max_abs : 1;
        e.relative = e.own_relative;
        for (const auto& in : inputs)
          if (dtype_is_float(in.dtype) && in.relative > 0 && e.not_estimable.empty())
            e.not_estimable = node.op_type + " rounds a float input that carries rounding error to integers";
        return;
      case OpClass::kSubgraph:
        e.own_relative = u;
        e.relative = std::hypot(u, max_in);
        return;
      case OpClass::kUnknown:
        e.own_relative = 2 * u;
        e.relative = std::hypot(2 * u, max_in);
        return;
    }
  }

  const ir::Graph& graph_;
  const std::map<std::string, TensorSummary>& values_;
  std::map<std::string, const ir::TypeInfo*> declared_;
  std::set<std::string> produced_;
  std::map<std::string, ExpectedError> carried_;  // every tensor seen, observed or not
};

}  // namespace

Result<std::map<std::string, ExpectedError>> expected_errors(
    const ir::Graph& graph, const std::map<std::string, TensorSummary>& values) {
  return Walker(graph, values).run();
}

TensorSummary summarize(const Tensor& t) {
  TensorSummary s;
  s.dtype = t.dtype();
  s.shape = t.shape();
  if (t.dtype() == DataType::kString || !t.defined()) return s;
  double sum_sq = 0;
  int64_t finite = 0;
  for (double v : to_doubles(t)) {
    if (!std::isfinite(v)) continue;
    s.max_abs = std::max(s.max_abs, std::fabs(v));
    sum_sq += v * v;
    ++finite;
  }
  s.rms = finite ? std::sqrt(sum_sq / static_cast<double>(finite)) : 0;
  return s;
}

}  // namespace twinrt::parity
