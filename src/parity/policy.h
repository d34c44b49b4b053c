// Tolerance policies: the three layers of a parity check (fast screen, strict numeric,
// task metric), built-in presets and per-output JSON policy files. A policy turns
// TensorMetrics into a verdict and says which layer decided it and which tolerances
// would have passed. See docs/parity.md.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "parity/metrics.h"
#include "twinrt/status.h"

namespace twinrt::parity {

enum class Layer { kScreen, kNumeric, kTask };
const char* layer_name(Layer layer);  // "screen", "numeric", "task"

// One threshold on one metric. Metric names are the TensorMetrics field names
// ("max_abs", "mse", "cosine", "sqnr_db", "rmse_relative", "fraction_out_of_tolerance",
// "nan_mismatches", ...) plus task metrics "top1_agreement", "top5_agreement", "max_kl",
// "box_match_fraction", "min_matched_iou", "pixel_agreement".
struct Check {
  std::string metric;
  enum class Bound { kAtMost, kAtLeast, kBelow, kAbove } bound = Bound::kAtMost;
  double threshold = 0;
  Layer layer = Layer::kNumeric;
  // Checks sharing a non-empty any_of_group pass when any one of them passes
  // (regression: max abs < 1e-3 OR relative MSE < 1%).
  std::string any_of_group;
};

struct Policy {
  std::string name;            // "fp32", "classification", or the policy file's name
  std::vector<Check> checks;
  CompareOptions compare;      // what compare_tensors must compute for these checks
};

// fp32 (default), fp16, int8, classification, detection, segmentation, regression.
std::vector<std::string> builtin_policy_names();
Result<Policy> builtin_policy(const std::string& name);

// A JSON policy file: {"default": "fp32" | {checks...}, "outputs": {"name": ...}}.
// Format in docs/parity.md; errors name the file, the key and what was expected.
struct PolicySet {
  Policy default_policy;
  std::map<std::string, Policy> per_output;
  const Policy& for_output(const std::string& output) const;
};
Result<PolicySet> load_policy_file(const std::string& path);
PolicySet single_policy(Policy policy);

struct CheckResult {
  Check check;
  double value = 0;      // the measured metric
  bool passed = false;
};

struct Verdict {
  bool passed = false;
  // The layer of the first failing check in screen -> numeric -> task order; when all
  // pass, the last layer that had checks ("task" when a task metric confirmed it).
  Layer deciding_layer = Layer::kNumeric;
  std::vector<CheckResult> checks;
  // Per metric, the loosest threshold this output would need to pass
  // (e.g. {"max_abs": 3.2e-5, "cosine": 0.99991}), so a user can set tolerances.
  std::map<std::string, double> minimum_passing;
  std::string summary;   // "pass (numeric)", "FAIL cosine 0.97 < 0.9999 (numeric)"
};

Verdict evaluate(const TensorMetrics& metrics, const Policy& policy);

}  // namespace twinrt::parity
