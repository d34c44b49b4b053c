#include "quantize/fp16_islands.h"

#include <cmath>
#include <cstdio>

#include "parity/intermediates.h"
#include "quantize/graph_edit.h"
#include "quantize/rewrite_common.h"
#include "runtime/session_impl.h"

namespace twinrt::quantize {
namespace {

double max_magnitude(const Tensor& t) {
  double m = 0;
  const float* p = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) m = std::max(m, std::fabs(static_cast<double>(p[i])));
  return m;  // NaN is skipped by max; +-inf counts
}

std::string magnitude_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// "input 'p' reaches 1.1e+06 on the calibration inputs ...": the first overflowing value it touches.
std::string why_kept(const ir::Node& n, const Fp16Islands& islands) {
  std::string why;
  for (const auto* names : {&n.inputs, &n.outputs})
    for (const std::string& v : *names)
      if (auto it = islands.overflowing.find(v); it != islands.overflowing.end() && why.empty())
        why = std::string(names == &n.inputs ? "input" : "output") + " '" + v + "' reaches " + magnitude_text(it->second);
  return why + " on the calibration inputs (float16 ends at 65504)";
}

}  // namespace

Result<Fp16Islands> find_fp16_islands(const ir::Model& model, const std::vector<Feeds>& cases,
                                      const std::function<void(size_t, size_t)>& progress) {
  ASSIGN_OR_RETURN(parity::ExposedModel exposed, parity::expose_intermediates(model));
  ASSIGN_OR_RETURN(auto session, SessionImpl::create(std::move(exposed.model), SessionOptions{}));
  Fp16Islands out;
  std::map<std::string, double> largest;
  for (size_t c = 0; c < cases.size(); ++c) {
    std::map<std::string, Value> in;
    for (const auto& [name, t] : cases[c]) {
      in[name] = Value::of(t);
      if (t.dtype() == DataType::kFloat) largest[name] = std::max(largest[name], max_magnitude(t));
    }
    ASSIGN_OR_RETURN(auto values, session->run(in));
    for (const auto& [name, v] : values)
      if (v.kind == Value::Kind::kTensor && v.tensor.dtype() == DataType::kFloat)
        largest[name] = std::max(largest[name], max_magnitude(v.tensor));
    if (progress) progress(c + 1, cases.size());
  }
  const ir::Graph& g = *model.graph;
  for (const auto& [name, m] : largest) {
    out.float_values.insert(name);
    if (m > kFloat16Max) out.overflowing[name] = m;
  }
  for (const auto& [name, t] : g.initializers)
    if (t.dtype() == DataType::kFloat) out.float_values.insert(name);
  for (const auto& [name, t] : parity::parameter_values(g))
    if (t.dtype() == DataType::kFloat) out.float_values.insert(name);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    bool touches = false;
    for (const std::string& v : g.nodes[i].inputs) touches |= out.overflowing.count(v) > 0;
    for (const std::string& v : g.nodes[i].outputs) touches |= out.overflowing.count(v) > 0;
    if (touches && !parity::is_parameter_node(g.nodes[i])) out.nodes.push_back(i);
  }
  return out;
}

Result<std::set<std::string>> mark_fp16_islands(ir::Model& model, const Fp16Islands& islands, QuantizeSummary& summary) {
  TRY(prepare_graph(model));
  ir::Graph& g = *model.graph;
  const std::set<size_t> island(islands.nodes.begin(), islands.nodes.end());
  std::set<std::string> graph_outputs, keep;
  for (const auto& o : g.outputs) graph_outputs.insert(o.name);
  for (size_t i : islands.nodes) summary.skipped.push_back(describe(g.nodes[i]) + ": kept in float32, " + why_kept(g.nodes[i], islands));
  GraphEditor edit(g);
  auto read_outside = [&](const std::string& v) {
    if (graph_outputs.count(v)) return true;
    for (size_t j = 0; j < g.nodes.size(); ++j)
      for (const std::string& in : g.nodes[j].inputs)
        if (in == v && !island.count(j)) return true;
    return false;
  };
  const auto cast = [&](const std::string& from, const std::string& to, DataType type) {
    return make_node("Cast", edit.fresh(from + "_Cast"), {from}, {to}, {int_attribute("to", static_cast<int64_t>(type))});
  };
  // Exits: the island writes "<v>_fp32"; a Cast to float16 writes v for every other reader.
  std::map<std::string, std::string> exits, entries;
  for (size_t i : islands.nodes)
    for (std::string& out : g.nodes[i].outputs) {
      if (out.empty() || !read_outside(out)) continue;
      const std::string wide = edit.fresh(out + "_fp32");
      edit.insert_after(i, cast(wide, out, DataType::kFloat16));
      exits[out] = wide;
      out = wide;
    }
  // Entries: each float value from outside the island goes through one Cast to float32.
  for (size_t i : islands.nodes) {
    for (std::string& in : g.nodes[i].inputs) {
      const size_t from = edit.producer(in);
      if (auto it = exits.find(in); it != exits.end()) {
        in = it->second;
      } else if (!in.empty() && islands.float_values.count(in) && (from == std::string::npos || !island.count(from))) {
        if (!entries.count(in)) {
          entries[in] = edit.fresh(in + "_fp32");
          edit.insert_after(from, cast(in, entries[in], DataType::kFloat));
          keep.insert(entries[in]);
        }
        in = entries[in];
      }
    }
    for (const std::string& out : g.nodes[i].outputs) keep.insert(out);
  }
  edit.commit();
  return keep;
}

}  // namespace twinrt::quantize
