// The sensitivity search of `twinrt quantize --target`: quantize everything; while the
// result misses the target, keep the most sensitive quantized nodes in float, one more per
// step, for at most `max_steps` steps. How a configuration is scored and how sensitive a
// node is come from the caller (the CLI runs the models and judges them under a policy).
#pragma once

#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "twinrt/status.h"

namespace twinrt::quantize {

struct SearchScore {
  double accuracy = 0;  // compared with the target: higher is better
  std::string detail;   // what the step prints after the accuracy (verdicts, metrics)
};

struct SearchStep {
  std::vector<std::string> kept_float;  // most sensitive first
  SearchScore score;
};

struct SearchHooks {
  // Scores the model quantized with `kept_float` left in float.
  std::function<Result<SearchScore>(const std::set<std::string>& kept_float)> score;
  // How much quantizing `node` alone costs: larger is more sensitive.
  std::function<Result<double>(const std::string& node)> sensitivity;
  std::function<void(const SearchStep&)> on_step;        // after each scored step
  std::function<void(size_t, size_t)> ranking_progress;  // (nodes ranked, candidates)
};

struct SearchOutcome {
  std::vector<SearchStep> steps;                         // step 0 quantizes every candidate
  std::vector<std::pair<std::string, double>> ranking;   // node, sensitivity (largest first); empty if step 0 met the target
  size_t chosen = 0;                                     // the step that met the target, else the best-scoring one
  bool met = false;
};

// `candidates`: the nodes the full quantization quantized, in graph order (ties in
// sensitivity keep that order).
Result<SearchOutcome> sensitivity_search(const std::vector<std::string>& candidates, double target, int max_steps,
                                         const SearchHooks& hooks);

}  // namespace twinrt::quantize
