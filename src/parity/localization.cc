#include "parity/localization.h"

#include <cmath>
#include <limits>
#include <memory>
#include <set>

#include "ir/graph_order.h"
#include "onnx/loader.h"
#include "parity/comparison.h"
#include "parity/error_budget.h"
#include "parity/expected_outputs.h"
#include "parity/intermediates.h"
#include "parity/node_text.h"

namespace twinrt::parity {
namespace {

// One run of the comparison: its engine (started once, a model loaded per chunk) and its
// model with every intermediate exposed.
struct Side {
  std::string label;
  std::unique_ptr<engines::Engine> engine;
  ExposedModel exposed;
  std::set<std::string> names;  // the tensors it can return
};

Result<Side> make_side(const std::string& engine_name, const std::string& label, const ir::Model& model,
                       const engines::EngineOptions& options) {
  Side side;
  side.label = label;
  auto engine = engines::make_engine(engine_name, options);
  if (!engine) return engine.status().with_context(label + ": ");
  side.engine = std::move(*engine);
  ASSIGN_OR_RETURN(side.exposed, expose_intermediates(model, options.dim_overrides));
  for (const auto& o : side.exposed.model.graph->outputs) side.names.insert(o.name);
  return side;
}

// Runs own-error models on engine B; once B refuses one, twinrt's reference mode runs them
// (the report says which).
class OwnErrorRunner {
 public:
  OwnErrorRunner(const LocalizeSetup& s, Side& b) : s_(s), b_(b), source_(s.engine_b) {}

  const std::string& source() const { return source_; }

  // Each node producing a tensor of `chunk`, re-run from `from` (the other run's values).
  // Returns the outputs by their plain names.
  Result<engines::TensorMap> run(const ir::Model& model_b, const engines::TensorMap& from,
                                 const std::set<std::string>& chunk, const std::string& path) {
    ASSIGN_OR_RETURN(OwnErrorModel own, build_own_error_model(model_b, from, &chunk));
    InputCase feeds = s_.input;
    for (const auto& name : own.feeds) feeds.tensors[name] = from.at(name);
    Result<engines::TensorMap> values = invalid_argument("not run");
    if (!fallback_) values = run_model(*b_.engine, s_.label_b, own.model, path, feeds);
    if (!values) {  // e.g. an engine that refuses many inputs
      if (!fallback_) {
        auto ref = engines::make_engine("twinrt-ref", s_.options);
        if (!ref) return ref.status().with_context("own-error model: ");
        fallback_ = std::move(*ref);
        // The engine's reason, first line: why the own errors did not come from it.
        const std::string why = values.status().message();
        source_ = "twinrt-ref (" + s_.engine_b + " could not run the own-error model: " + why.substr(0, why.find('\n')) + ")";
      }
      values = run_model(*fallback_, "twinrt-ref", own.model, path, feeds);
      if (!values) return values.status().with_context("own-error model: ");
    }
    const std::string suffix = kOwnSuffix;
    engines::TensorMap out;
    for (auto& [name, t] : *values)
      if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
        out.emplace(name.substr(0, name.size() - suffix.size()), std::move(t));
    return out;
  }

 private:
  const LocalizeSetup& s_;
  Side& b_;
  std::unique_ptr<engines::Engine> fallback_;
  std::string source_;
};

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

// Every tensor of `names` from a run, or an error naming the one missing.
Status check_returned(const engines::TensorMap& values, const std::vector<std::string>& names, const std::string& who) {
  for (const auto& n : names)
    if (!values.count(n)) return internal_error(who + " did not return '" + n + "'");
  return Status::ok();
}

// `input` plus the carried values a chunk model takes as inputs.
InputCase with_values(const InputCase& input, const engines::TensorMap& carried, const std::vector<std::string>& fed) {
  InputCase out = input;
  for (const auto& name : fed) out.tensors[name] = carried.at(name);
  return out;
}

// After chunk k: the values of `fresh` read by later chunks join `carry`; those no later
// chunk reads leave it.
void keep_carried(engines::TensorMap& carry, const engines::TensorMap& fresh,
                  const std::map<std::string, size_t>& last_reader, size_t k) {
  for (const auto& [name, t] : fresh)
    if (auto it = last_reader.find(name); it != last_reader.end() && it->second > k) carry[name] = t;
  for (auto it = carry.begin(); it != carry.end();) {
    auto reader = last_reader.find(it->first);
    it = reader == last_reader.end() || reader->second <= k ? carry.erase(it) : std::next(it);
  }
}

// What one chunk measured of a tensor; its values are released with the chunk.
struct Measured {
  double total = 0;
  double own = -1;
  double noise = -1;
};

// The graph outputs of the two runs under the default (fp32) policy, so the report shows
// how much of the divergence reaches the outputs; with a noise floor, judged against it.
Status add_output_comparisons(const LocalizeSetup& s, const engines::TensorMap& a, const engines::TensorMap& b,
                              const std::map<std::string, ExpectedError>& expected,
                              const std::map<std::string, NoiseFloor>& noise, const ir::Graph& g, Report& report) {
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
  for (auto& c : report.outputs)
    if (auto it = noise.find(c.output); it != noise.end()) judge_against_noise_floor(c, it->second);
  return Status::ok();
}

}  // namespace

Result<Report> localize(const LocalizeSetup& s) {
  ASSIGN_OR_RETURN(ir::Model model_a, onnx::load_model_file(s.model_a));
  ASSIGN_OR_RETURN(ir::Model model_b, onnx::load_model_file(s.model_b));
  ASSIGN_OR_RETURN(Side a, make_side(s.engine_a, s.label_a, model_a, s.options));
  ASSIGN_OR_RETURN(Side b, make_side(s.engine_b, s.label_b, model_b, s.options));
  const ir::Graph& g = *model_b.graph;
  ASSIGN_OR_RETURN(auto order, ir::topological_order(g));

  // The tensors compared (node outputs both runs return, in B's order) and their producers.
  std::vector<std::string> compared;
  std::map<std::string, const ir::Node*> producer;
  for (const ir::Node* node : order) {
    if (is_parameter_node(*node)) continue;
    for (const std::string& t : node->outputs) {
      if (t.empty()) continue;
      producer[t] = node;
      if (a.names.count(t) && b.names.count(t)) compared.push_back(t);
    }
  }
  std::set<std::string> graph_outputs;
  for (const auto& o : g.outputs) graph_outputs.insert(o.name);
  const auto chunks = split_by_bytes(compared, b.exposed.bytes, std::max<int64_t>(s.max_memory_bytes / 4, 1));

  // The last chunk whose nodes read each tensor: a run keeps its own values until then and
  // feeds them to its later chunk models, so each chunk computes only its own nodes.
  std::map<std::string, size_t> last_reader;
  for (size_t k = 0; k < chunks.size(); ++k)
    for (const auto& t : chunks[k]) {
      std::set<std::string> reads;
      ir::collect_node_reads(*producer.at(t), reads);
      for (const auto& r : reads) last_reader[r] = k;
    }
  const int noise_runs = s.noise ? s.noise->runs : 0;
  std::vector<InputCase> moved_inputs;
  for (int r = 0; r < noise_runs; ++r) moved_inputs.push_back(perturbed_case(s.input, s.noise->ulps, noise_seed(*s.noise, r, 0)));

  std::map<std::string, TensorSummary> summaries;
  for (const auto& [name, t] : s.input.tensors) summaries[name] = summarize(t);
  std::map<std::string, Measured> measured;
  std::map<std::string, NoiseFloor> output_noise;
  engines::TensorMap outputs_a, outputs_b;  // graph outputs, kept for the output comparison
  engines::TensorMap carry_a, carry_b;      // each run's values that later chunks read
  std::vector<engines::TensorMap> carry_moved(static_cast<size_t>(noise_runs));
  OwnErrorRunner own(s, b);
  size_t tensors_done = 0;
  for (size_t k = 0; k < chunks.size(); ++k) {
    const std::set<std::string> chunk(chunks[k].begin(), chunks[k].end());
    // A also returns what the chunk's nodes read from elsewhere and it does not carry: the
    // own-error feeds.
    std::vector<std::string> a_outputs = chunks[k];
    std::set<std::string> reads;
    for (const auto& t : chunks[k]) ir::collect_node_reads(*producer.at(t), reads);
    for (const auto& r : reads)
      if (producer.count(r) && !chunk.count(r) && !carry_a.count(r) && a.names.count(r)) a_outputs.push_back(r);
    const std::string tag = std::to_string(k) + ".onnx";
    std::vector<std::string> fed_a, fed_b;
    ASSIGN_OR_RETURN(ir::Model model_ak, model_with_outputs(a.exposed, a_outputs, carry_a, &fed_a));
    ASSIGN_OR_RETURN(engines::TensorMap va,
                     run_model(*a.engine, s.label_a, model_ak, s.work_dir + "/a_" + tag, with_values(s.input, carry_a, fed_a)));
    ASSIGN_OR_RETURN(ir::Model model_bk, model_with_outputs(b.exposed, chunks[k], carry_b, &fed_b));
    ASSIGN_OR_RETURN(engines::TensorMap vb,
                     run_model(*b.engine, s.label_b, model_bk, s.work_dir + "/b_" + tag, with_values(s.input, carry_b, fed_b)));
    TRY(check_returned(va, a_outputs, s.label_a));
    TRY(check_returned(vb, chunks[k], s.label_b));
    engines::TensorMap from = va;
    for (const auto& [name, t] : carry_a) from.emplace(name, t);
    for (const auto& [name, t] : s.input.tensors) from.emplace(name, t);
    ASSIGN_OR_RETURN(engines::TensorMap vo, own.run(model_b, from, chunk, s.work_dir + "/own_" + tag));
    for (const auto& t : chunks[k]) {
      Measured& m = measured[t];
      m.total = max_abs_difference(va.at(t), vb.at(t));
      if (auto it = vo.find(t); it != vo.end()) m.own = max_abs_difference(va.at(t), it->second);
      summaries[t] = summarize(va.at(t));
      if (graph_outputs.count(t)) {
        outputs_a.emplace(t, va.at(t));
        outputs_b.emplace(t, vb.at(t));
      }
    }
    // The model's own movement: A's chunk model (still loaded) on inputs moved by a few ULPs,
    // fed with its own earlier values from the same moved inputs.
    for (int r = 0; r < noise_runs; ++r) {
      engines::TensorMap& moved_carry = carry_moved[static_cast<size_t>(r)];
      ASSIGN_OR_RETURN(engines::TensorMap vp,
                       a.engine->run(with_values(moved_inputs[static_cast<size_t>(r)], moved_carry, fed_a).tensors, {}));
      TRY(check_returned(vp, chunks[k], s.label_a + " (noise floor rerun)"));
      for (const auto& t : chunks[k]) {
        Measured& m = measured[t];
        m.noise = std::max(m.noise, max_abs_difference(va.at(t), vp.at(t)));
        if (graph_outputs.count(t)) {
          auto moved_metrics = compare_tensors(va.at(t), vp.at(t), CompareOptions{});
          NoiseFloor& floor = output_noise.emplace(t, NoiseFloor{noise_runs, s.noise->ulps, 0, 1}).first->second;
          floor.max_abs = std::max(floor.max_abs, m.noise);
          if (moved_metrics) floor.cosine = std::min(floor.cosine, moved_metrics->cosine);
        }
      }
      keep_carried(moved_carry, vp, last_reader, k);
    }
    keep_carried(carry_a, va, last_reader, k);
    keep_carried(carry_b, vb, last_reader, k);
    tensors_done += chunks[k].size();
    if (s.progress) s.progress(k + 1, chunks.size(), tensors_done, compared.size());
  }

  for (const auto& [name, t] : parameter_values(*model_a.graph)) summaries[name] = summarize(t);
  ASSIGN_OR_RETURN(auto expected, expected_errors(*model_a.graph, summaries));
  const auto reach = downstream_outputs(g, order);
  std::map<std::string, double> output_error;
  for (const auto& [name, t] : outputs_a) output_error[name] = max_abs_difference(t, outputs_b.at(name));

  Report report;
  report.command = "localize";
  report.models = {s.model_a};
  if (s.model_b != s.model_a) report.models.push_back(s.model_b);
  report.baseline = s.label_a;
  report.inputs = s.input.name;
  report.localize_passes = static_cast<int>(chunks.size());
  std::map<const ir::Node*, size_t> index_of;
  for (size_t i = 0; i < g.nodes.size(); ++i) index_of[&g.nodes[i]] = i;
  for (size_t step = 0; step < order.size(); ++step) {
    const ir::Node& node = *order[step];
    if (is_parameter_node(node)) continue;
    for (const std::string& t : node.outputs) {
      auto m = measured.find(t);
      if (t.empty() || m == measured.end()) continue;
      LayerEntry e;
      e.node = node_label(node, index_of[&node]);
      e.op = node.op_type;
      e.tensor = t;
      e.shape = summaries[t].shape;
      e.attributes = attributes_text(node);
      e.topo_index = static_cast<int64_t>(step);
      e.total_error = m->second.total;
      e.own_error = m->second.own;
      e.inherited_error = e.own_error < 0 ? -1 : std::max(0.0, e.total_error - e.own_error);
      e.own_source = own.source();
      e.noise = m->second.noise;
      // Two float engines each round once per node: their gap may reach twice one's budget.
      auto ex = expected.find(t);
      e.budget = ex == expected.end() ? 0 : 2 * ex->second.own_relative * summaries[t].max_abs;
      e.own_over_budget = e.own_error <= 0 ? 0
                          : e.budget > 0   ? e.own_error / e.budget
                                           : std::numeric_limits<double>::infinity();
      if (auto r = reach.find(t); r != reach.end())
        for (const auto& out : r->second)
          if (output_error.count(out)) e.carried_to_outputs[out] = output_error[out];
      report.layers.push_back(std::move(e));
    }
  }
  TRY(add_output_comparisons(s, outputs_a, outputs_b, expected, output_noise, g, report));
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
