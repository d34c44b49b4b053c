#include "parity/localization.h"

#include <cmath>
#include <limits>
#include <set>

#include "ir/graph_order.h"
#include "onnx/loader.h"
#include "onnx/writer.h"
#include "parity/comparison.h"
#include "parity/error_budget.h"
#include "parity/expected_outputs.h"
#include "parity/intermediates.h"
#include "parity/node_text.h"

namespace twinrt::parity {
namespace {

// Each node re-run by `engine` from the values in `from` (the other run's tensors).
// Returns the "<name>::own" outputs keyed by the plain name, and who computed them.
struct OwnOutputs {
  engines::TensorMap values;
  std::string source;
};

Result<OwnOutputs> run_own_error_model(const LocalizeSetup& s, const ir::Model& model_b,
                                       const engines::TensorMap& from) {
  ASSIGN_OR_RETURN(OwnErrorModel own, build_own_error_model(model_b, from));
  const std::string path = s.work_dir + "/own_error.onnx";
  TRY(onnx::write_model_file(own.model, path));
  InputCase feeds = s.input;
  for (const auto& name : own.feeds) feeds.tensors[name] = from.at(name);
  InputSet one{{feeds}, "", nullptr};
  OwnOutputs out;
  out.source = s.engine_b;
  EngineRun run = run_cases_on(s.engine_b, s.options, s.label_b, path, one, {});
  if (!run.entry.ok) {  // e.g. an engine that refuses many inputs: fall back to twinrt's reference
    out.source = "twinrt-ref (" + s.engine_b + " could not run the own-error model)";
    run = run_cases_on("twinrt-ref", s.options, "twinrt-ref", path, one, {});
    if (!run.entry.ok) return Status(run.failure, "own-error model: " + run.entry.error);
  }
  const std::string suffix = kOwnSuffix;
  for (auto& [name, t] : run.per_case.front())
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      out.values.emplace(name.substr(0, name.size() - suffix.size()), std::move(t));
  return out;
}

double max_abs_difference(const Tensor& a, const Tensor& b) {
  auto m = compare_tensors(a, b, CompareOptions{});
  if (!m) return std::numeric_limits<double>::infinity();  // shapes or dtypes differ
  if (m->nan_mismatches || m->inf_mismatches) return std::numeric_limits<double>::infinity();
  return m->max_abs + static_cast<double>(m->exact_mismatches);
}

// Graph outputs reachable from each value, by walking consumers.
std::map<std::string, std::set<std::string>> downstream_outputs(const ir::Graph& g,
                                                                const std::vector<const ir::Node*>& order) {
  std::set<std::string> outputs;
  for (const auto& o : g.outputs) outputs.insert(o.name);
  std::map<std::string, std::set<std::string>> reach;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const ir::Node& n = **it;
    std::set<std::string> from_node;
    for (const auto& o : n.outputs) {
      if (o.empty()) continue;
      if (outputs.count(o)) from_node.insert(o);
      from_node.insert(reach[o].begin(), reach[o].end());
    }
    std::set<std::string> reads;
    ir::collect_node_reads(n, reads);
    for (const auto& r : reads) reach[r].insert(from_node.begin(), from_node.end());
    for (const auto& o : n.outputs)
      if (!o.empty()) reach[o].insert(from_node.begin(), from_node.end());
  }
  return reach;
}

// The graph outputs of the two runs under the default (fp32) policy, so the report shows
// how much of the divergence reaches the outputs.
Status add_output_comparisons(const LocalizeSetup& s, const engines::TensorMap& a, const engines::TensorMap& b,
                              const std::map<std::string, ExpectedError>& expected, const ir::Graph& g,
                              Report& report) {
  EngineRun run_a, run_b;
  run_a.entry.name = s.label_a;
  run_b.entry.name = s.label_b;
  run_a.per_case = {a};
  run_b.per_case = {b};
  std::vector<std::string> outputs;
  for (const auto& o : g.outputs)
    if (a.count(o.name) && b.count(o.name)) outputs.push_back(o.name);
  ASSIGN_OR_RETURN(Policy fp32, builtin_policy("fp32"));
  ASSIGN_OR_RETURN(report.outputs, compare_runs(run_a, run_b, outputs, single_policy(fp32), expected));
  return Status::ok();
}

}  // namespace

Result<Report> localize(const LocalizeSetup& s) {
  ASSIGN_OR_RETURN(ir::Model model_a, onnx::load_model_file(s.model_a));
  ASSIGN_OR_RETURN(ir::Model model_b, onnx::load_model_file(s.model_b));
  ASSIGN_OR_RETURN(engines::TensorMap a, run_with_intermediates(s.engine_a, s.options, s.label_a, model_a,
                                                     s.work_dir + "/a_all_outputs.onnx", s.input));
  ASSIGN_OR_RETURN(engines::TensorMap b, run_with_intermediates(s.engine_b, s.options, s.label_b, model_b,
                                                     s.work_dir + "/b_all_outputs.onnx", s.input));
  engines::TensorMap a_with_inputs = a;
  for (const auto& [name, t] : s.input.tensors) a_with_inputs.emplace(name, t);
  ASSIGN_OR_RETURN(OwnOutputs own, run_own_error_model(s, model_b, a_with_inputs));

  std::map<std::string, TensorSummary> summaries;
  for (const auto& [name, t] : a_with_inputs) summaries[name] = summarize(t);
  for (const auto& [name, t] : parameter_values(*model_a.graph)) summaries[name] = summarize(t);
  ASSIGN_OR_RETURN(auto expected, expected_errors(*model_a.graph, summaries));

  const ir::Graph& g = *model_b.graph;
  ASSIGN_OR_RETURN(auto order, ir::topological_order(g));
  const auto reach = downstream_outputs(g, order);
  std::map<std::string, double> output_error;
  for (const auto& o : g.outputs)
    if (a.count(o.name) && b.count(o.name)) output_error[o.name] = max_abs_difference(a.at(o.name), b.at(o.name));

  Report report;
  report.command = "localize";
  report.models = {s.model_a};
  if (s.model_b != s.model_a) report.models.push_back(s.model_b);
  report.baseline = s.label_a;
  report.inputs = s.input.name;
  std::map<const ir::Node*, size_t> index_of;
  for (size_t i = 0; i < g.nodes.size(); ++i) index_of[&g.nodes[i]] = i;
  for (size_t step = 0; step < order.size(); ++step) {
    const ir::Node& node = *order[step];
    if (is_parameter_node(node)) continue;
    for (const std::string& t : node.outputs) {
      if (t.empty() || !a.count(t) || !b.count(t)) continue;
      LayerEntry e;
      e.node = node_label(node, index_of[&node]);
      e.op = node.op_type;
      e.tensor = t;
      e.shape = a.at(t).shape();
      e.attributes = attributes_text(node);
      e.topo_index = static_cast<int64_t>(step);
      e.total_error = max_abs_difference(a.at(t), b.at(t));
      auto own_it = own.values.find(t);
      e.own_error = own_it == own.values.end() ? -1 : max_abs_difference(a.at(t), own_it->second);
      e.inherited_error = e.own_error < 0 ? -1 : std::max(0.0, e.total_error - e.own_error);
      e.own_source = own.source;
      // Two float engines each round once per node: their gap may reach twice one's budget.
      auto ex = expected.find(t);
      const double max_abs = summaries[t].max_abs;
      e.budget = ex == expected.end() ? 0 : 2 * ex->second.own_relative * max_abs;
      e.own_over_budget = e.own_error <= 0 ? 0
                          : e.budget > 0   ? e.own_error / e.budget
                                           : std::numeric_limits<double>::infinity();
      if (auto r = reach.find(t); r != reach.end())
        for (const auto& out : r->second)
          if (output_error.count(out)) e.carried_to_outputs[out] = output_error[out];
      report.layers.push_back(std::move(e));
    }
  }
  TRY(add_output_comparisons(s, a, b, expected, g, report));
  for (const LayerEntry& e : report.layers) {
    if (e.own_over_budget > 1) {
      report.first_divergence = "first divergence: " + e.node + " (" + e.op + ") output " + e.tensor;
      report.passed = false;
      break;
    }
  }
  if (report.first_divergence.empty())
    report.first_divergence = "no divergence: every node's own error is within its float budget";
  return report;
}

}  // namespace twinrt::parity
