#include "cli/optimized_graph.h"

#include <cstdio>

#include "onnx/loader.h"
#include "passes/passes.h"
#include "runtime/session_impl.h"

namespace twinrt::cli {
namespace {

std::string node_kind(const ir::Node& n) {
  std::string kind = n.domain.empty() ? n.op_type : n.domain + ":" + n.op_type;
  if (!n.fused_perm_a.empty() || !n.fused_perm_b.empty() || !n.fused_perm_y.empty()) kind += " + Transpose";
  if (n.fused_scale != 1.0f) kind += " + scale";
  if (n.fused_bias) kind += " + bias";
  if (n.fused_residual) kind += " + Add";
  if (n.fused_clamp) kind += " + Relu/Clip";
  for (size_t i = 0; i < n.elementwise_steps.size(); ++i)
    kind += (i == 0 ? "(" : " ") + n.elementwise_steps[i].op_type + (i + 1 == n.elementwise_steps.size() ? ")" : "");
  if (!n.fused_from.empty()) kind += " (fused)";
  return kind;
}

}  // namespace

Result<OptimizedGraph> optimized_graph(const std::string& model_path, Mode mode, OptimizationLevel level) {
  ASSIGN_OR_RETURN(ir::Model model, onnx::load_model_file(model_path));
  TRY(inline_functions(model));
  OptimizedGraph g;
  g.mode = mode;
  g.level = level;
  if (!model.graph) return invalid_model("model has no graph");
  g.nodes_before = static_cast<int64_t>(model.graph->nodes.size());
  for (const passes::PassRun& run : passes::optimize(model, level, mode))
    g.passes.push_back({run.pass->name, run.pass->effect == passes::NumericsEffect::kBitPreserving, run.rewrites});
  g.nodes_after = static_cast<int64_t>(model.graph->nodes.size());
  for (const ir::Node& n : model.graph->nodes) ++g.op_histogram[node_kind(n)];
  return g;
}

void print_optimized_graph(const OptimizedGraph& g) {
  std::printf("optimized graph (mode %s, optimization %s): %lld nodes in the main graph, %lld before\n",
              mode_name(g.mode), optimization_name(g.level), static_cast<long long>(g.nodes_after),
              static_cast<long long>(g.nodes_before));
  for (const OptimizedGraph::Pass& p : g.passes)
    std::printf("  pass %-26s %s, %d rewrites\n", p.name.c_str(), p.bit_preserving ? "bit-preserving" : "value-changing",
                p.rewrites);
  for (const auto& [kind, count] : g.op_histogram)
    std::printf("  %-40s %lld\n", kind.c_str(), static_cast<long long>(count));
}

}  // namespace twinrt::cli
