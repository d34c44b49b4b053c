// The built-in policies (table in docs/parity.md, section "Policies").
#include "parity/policy.h"
#include "parity/policy_parts.h"

namespace twinrt::parity {
namespace {

using Bound = Check::Bound;

Check check(const std::string& metric, Bound bound, double threshold, std::string group = "") {
  return Check{metric, bound, threshold, default_layer(metric), std::move(group)};
}

// Every policy screens for NaN and Inf appearing on one side only.
Policy screened(const std::string& name, std::vector<Check> checks) {
  Policy p;
  p.name = name;
  p.checks = {check("nan_mismatches", Bound::kAtMost, 0), check("inf_mismatches", Bound::kAtMost, 0)};
  p.checks.insert(p.checks.end(), checks.begin(), checks.end());
  return p;
}

}  // namespace

std::vector<std::string> builtin_policy_names() {
  return {"fp32", "fp16", "int8", "classification", "detection", "segmentation", "regression"};
}

Result<Policy> builtin_policy(const std::string& name) {
  if (name == "fp32")
    return screened(name, {check("cosine", Bound::kAtLeast, 0.9999), check("max_abs", Bound::kAtMost, 1e-3),
                           check("mse", Bound::kAtMost, 1e-6)});
  // float16 keeps 11 significant bits, so its error scales with the values: every element
  // within 4 float16 ULPs of the output's largest magnitude.
  if (name == "fp16")
    return screened(name, {check("cosine", Bound::kAtLeast, 0.999), check("range_ulp_fp16", Bound::kAtMost, 4)});
  if (name == "int8") {
    // A signal-to-noise ratio, or every element within 2 steps of an 8-bit grid over the
    // output's range: both scale with the output.
    Policy p = screened(name, {check("sqnr_db", Bound::kAtLeast, 30, "sqnr_or_steps"),
                               check("range_steps_int8", Bound::kAtMost, 2, "sqnr_or_steps"),
                               check("top1_agreement", Bound::kAtLeast, 0.99)});
    p.compare.probability = true;
    return p;
  }
  if (name == "classification") {
    Policy p = screened(name, {check("cosine", Bound::kAbove, 0.999),
                               check("max_kl", Bound::kBelow, 0.01),
                               check("top1_agreement", Bound::kAtLeast, 1),
                               check("top5_agreement", Bound::kAtLeast, 1)});
    p.compare.probability = true;
    return p;
  }
  if (name == "detection") {
    // Box metrics need the box format, which only the user knows: without it the
    // verdict fails and says so (see missing_metric_reason).
    Policy p = screened(name, {check("box_match_fraction", Bound::kAtLeast, 1)});
    p.compare.box_match_iou = 0.95;
    return p;
  }
  if (name == "segmentation") {
    Policy p = screened(name, {check("pixel_agreement", Bound::kAtLeast, 0.999)});
    p.compare.pixel_agreement = true;
    return p;
  }
  if (name == "regression") {
    // max abs < 1e-3 OR relative MSE (mse / mean ref^2 = rmse_relative^2) < 1%.
    return screened(name, {check("max_abs", Bound::kBelow, 1e-3, "max_abs_or_relative_mse"),
                           check("rmse_relative", Bound::kBelow, 0.1, "max_abs_or_relative_mse")});
  }
  std::string names;
  for (const auto& n : builtin_policy_names()) names += (names.empty() ? "" : ", ") + n;
  return invalid_argument("unknown policy '" + name + "': expected one of " + names +
                          " or a policy file (.json)");
}

PolicySet single_policy(Policy policy) {
  PolicySet set;
  set.default_policy = std::move(policy);
  return set;
}

const Policy& PolicySet::for_output(const std::string& output) const {
  auto it = per_output.find(output);
  return it == per_output.end() ? default_policy : it->second;
}

}  // namespace twinrt::parity
