// `twinrt inspect --optimized`: the main graph after the graph passes a session runs, so
// a user sees which nodes were fused and what actually executes.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "twinrt/session.h"
#include "twinrt/status.h"

namespace twinrt::cli {

struct OptimizedGraph {
  Mode mode = Mode::kDefault;
  OptimizationLevel level = OptimizationLevel::kAll;
  struct Pass {
    std::string name;
    bool bit_preserving = true;
    int rewrites = 0;
  };
  std::vector<Pass> passes;
  int64_t nodes_before = 0, nodes_after = 0;  // main graph only
  std::map<std::string, int64_t> op_histogram;  // "Conv + Add + Relu/Clip (fused)" -> nodes
};

Result<OptimizedGraph> optimized_graph(const std::string& model_path, Mode mode, OptimizationLevel level);

void print_optimized_graph(const OptimizedGraph& g);

}  // namespace twinrt::cli
