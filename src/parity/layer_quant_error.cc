#include "parity/layer_quant_error.h"

#include <algorithm>
#include <map>
#include <set>

#include "ir/graph_order.h"
#include "onnx/loader.h"
#include "parity/expected_outputs.h"
#include "parity/intermediates.h"
#include "parity/metrics.h"

namespace twinrt::parity {
namespace {

Result<engines::TensorMap> run_exposed(const std::string& engine_name, const engines::EngineOptions& options,
                                       const ExposedModel& exposed, const std::vector<std::string>& outputs,
                                       const std::string& label, const std::string& path, const InputCase& input) {
  ASSIGN_OR_RETURN(ir::Model model, model_with_outputs(exposed, outputs));
  ASSIGN_OR_RETURN(auto engine, engines::make_engine(engine_name, options));
  return run_model(*engine, label, model, path, input);
}

}  // namespace

Result<std::vector<LayerQuantError>> layer_quant_errors(const std::string& float_path, const std::string& variant_path,
                                                        const InputCase& input, const std::string& engine,
                                                        const engines::EngineOptions& options,
                                                        const std::string& work_dir) {
  ASSIGN_OR_RETURN(ir::Model float_model, onnx::load_model_file(float_path));
  ASSIGN_OR_RETURN(ir::Model variant_model, onnx::load_model_file(variant_path));
  ASSIGN_OR_RETURN(ExposedModel float_exposed, expose_intermediates(float_model, options.dim_overrides));
  ASSIGN_OR_RETURN(ExposedModel variant_exposed, expose_intermediates(variant_model, options.dim_overrides));
  std::set<std::string> variant_names;
  for (const auto& o : variant_exposed.model.graph->outputs) variant_names.insert(o.name);
  std::vector<std::string> shared;
  for (const auto& o : float_exposed.model.graph->outputs)
    if (variant_names.count(o.name)) shared.push_back(o.name);

  ASSIGN_OR_RETURN(engines::TensorMap a, run_exposed(engine, options, float_exposed, shared, "float model",
                                                     work_dir + "/layers_float.onnx", input));
  ASSIGN_OR_RETURN(engines::TensorMap b, run_exposed(engine, options, variant_exposed, shared, "variant",
                                                     work_dir + "/layers_variant.onnx", input));
  std::map<std::string, TensorMetrics> metrics;
  for (const std::string& t : shared) {
    auto ia = a.find(t), ib = b.find(t);
    if (ia == a.end() || ib == b.end()) continue;
    auto m = compare_tensors(ia->second, ib->second, CompareOptions{});
    if (m) metrics.emplace(t, std::move(*m));  // a shape change (a rewritten subgraph) is not a layer error
  }

  const ir::Graph& g = *float_model.graph;
  ASSIGN_OR_RETURN(auto order, ir::topological_order(g));
  std::map<const ir::Node*, size_t> index_of;
  for (size_t i = 0; i < g.nodes.size(); ++i) index_of[&g.nodes[i]] = i;
  std::vector<LayerQuantError> layers;
  for (size_t step = 0; step < order.size(); ++step) {
    const ir::Node& node = *order[step];
    std::set<std::string> reads;
    ir::collect_node_reads(node, reads);
    double inherited = 0;  // graph inputs and weights read as they are: no error
    for (const std::string& r : reads)
      if (auto it = metrics.find(r); it != metrics.end()) inherited = std::max(inherited, it->second.rmse_relative);
    for (const std::string& t : node.outputs) {
      auto it = metrics.find(t);
      if (t.empty() || it == metrics.end()) continue;
      const TensorMetrics& m = it->second;
      layers.push_back({node_label(node, index_of[&node]), node.op_type, t, static_cast<int64_t>(step), m.rmse_relative,
                        m.sqnr_db, std::max(0.0, m.rmse_relative - inherited)});
    }
  }
  return layers;
}

const LayerQuantError* worst_layer(const std::vector<LayerQuantError>& layers) {
  const LayerQuantError* worst = nullptr;
  for (const LayerQuantError& l : layers)
    if (l.added > 0 && (!worst || l.added > worst->added)) worst = &l;
  return worst;
}

}  // namespace twinrt::parity
