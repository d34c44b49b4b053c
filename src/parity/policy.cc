// Evaluating a policy: metric lookup, checks, any-of groups, the deciding layer and the
// minimum passing tolerances.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "parity/policy.h"
#include "parity/policy_parts.h"

namespace twinrt::parity {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

bool passes(const Check& c, double v) {
  if (std::isnan(v)) return false;  // a NaN metric never passes, whatever the bound
  switch (c.bound) {
    case Check::Bound::kAtMost: return v <= c.threshold;
    case Check::Bound::kAtLeast: return v >= c.threshold;
    case Check::Bound::kBelow: return v < c.threshold;
    case Check::Bound::kAbove: return v > c.threshold;
  }
  return false;
}

// The comparison that failed, as the summary shows it: "0.97 < 0.9999".
const char* failed_relation(Check::Bound b) {
  switch (b) {
    case Check::Bound::kAtMost: return ">";
    case Check::Bound::kAtLeast: return "<";
    case Check::Bound::kBelow: return ">=";
    case Check::Bound::kAbove: return "<=";
  }
  return "?";
}

std::string describe_failure(const CheckResult& r, const TensorMetrics& m) {
  const auto value = metric_value(m, r.check.metric);
  if (!value) return r.check.metric + " not computed (" + missing_metric_reason(r.check.metric) + ")";
  if (std::isnan(r.value)) return r.check.metric + " is NaN";
  return r.check.metric + " " + number(r.value) + " " + failed_relation(r.check.bound) + " " +
         number(r.check.threshold);
}

// Checks every policy implies where its own cannot see the difference: values of
// another shape were not compared at all, and texts have no numeric error, so they must
// be equal. Added only when they apply, so other verdicts list just the policy's checks.
std::vector<Check> checks_for(const TensorMetrics& m, const Policy& policy) {
  std::vector<Check> checks;
  if (m.shape_mismatches > 0) checks.push_back({"shape_mismatches", Check::Bound::kAtMost, 0, Layer::kScreen, ""});
  if (m.dtype == "string") checks.push_back({"exact_mismatches", Check::Bound::kAtMost, 0, Layer::kScreen, ""});
  checks.insert(checks.end(), policy.checks.begin(), policy.checks.end());
  return checks;
}

}  // namespace

const char* layer_name(Layer layer) {
  switch (layer) {
    case Layer::kScreen: return "screen";
    case Layer::kNumeric: return "numeric";
    case Layer::kTask: return "task";
  }
  return "?";
}

Verdict evaluate(const TensorMetrics& metrics, const Policy& policy) {
  Verdict v;
  for (const Check& c : checks_for(metrics, policy)) {
    const std::optional<double> value = metric_value(metrics, c.metric);
    v.checks.push_back({c, value.value_or(kNaN), value && passes(c, *value)});
    if (value && !std::isnan(*value)) v.minimum_passing[c.metric] = *value;
  }
  // A check fails the verdict when it failed and is not rescued by a passing member of
  // its any-of group.
  auto group_passed = [&](const std::string& group) {
    for (const CheckResult& r : v.checks)
      if (r.check.any_of_group == group && r.passed) return true;
    return false;
  };
  std::optional<Layer> failing, last_with_checks;
  for (Layer layer : {Layer::kScreen, Layer::kNumeric, Layer::kTask}) {
    // Failures of one any-of group read "a and b"; separate failures are joined by "; ".
    std::vector<std::pair<std::string, std::string>> failures;  // (group, text)
    for (const CheckResult& r : v.checks) {
      if (r.check.layer != layer) continue;
      last_with_checks = layer;
      const std::string& group = r.check.any_of_group;
      if (r.passed || (!group.empty() && group_passed(group))) continue;
      const std::string text = describe_failure(r, metrics);
      auto same_group = std::find_if(failures.begin(), failures.end(), [&](const auto& f) {
        return !group.empty() && f.first == group;
      });
      if (same_group != failures.end()) same_group->second += " and " + text;
      else failures.emplace_back(group, text);
    }
    if (failures.empty()) continue;
    failing = layer;
    v.summary = "FAIL ";
    for (size_t i = 0; i < failures.size(); ++i)
      v.summary += (i ? "; " : "") + failures[i].second;
    v.summary += std::string(" (") + layer_name(layer) + ")";
    break;
  }
  v.passed = !failing;
  v.deciding_layer = failing ? *failing : last_with_checks.value_or(Layer::kScreen);
  if (v.passed) v.summary = std::string("pass (") + layer_name(v.deciding_layer) + ")";
  return v;
}

}  // namespace twinrt::parity
