#include "parity/report_merge.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace twinrt::parity {
namespace {

Status check_same_run(const Report& first, const Report& part, size_t index) {
  const std::string which = "part " + std::to_string(index + 1);
  if (part.models != first.models) return invalid_argument(which + " compares other models than part 1");
  if (part.baseline != first.baseline) return invalid_argument(which + " has baseline '" + part.baseline + "', part 1 '" + first.baseline + "'");
  if (part.engines.size() != first.engines.size()) return invalid_argument(which + " ran other engines than part 1");
  for (size_t e = 0; e < part.engines.size(); ++e)
    if (part.engines[e].name != first.engines[e].name)
      return invalid_argument(which + " ran engine '" + part.engines[e].name + "' where part 1 ran '" + first.engines[e].name + "'");
  return Status::ok();
}

Result<Policy> policy_for(const OutputComparison& c, const PolicySet* policies) {
  if (policies) return policies->for_output(c.output);
  auto p = builtin_policy(c.policy);
  if (!p) return invalid_argument("output '" + c.output + "' was judged by policy '" + c.policy +
                                  "', which is not built in: give the policy file");
  return p;
}

}  // namespace

void keep_worst_cases(std::vector<CaseResult>& cases, size_t keep) {
  // NaN ranks above every number; equal errors keep case order.
  auto key = [](const CaseResult& c) { return std::isnan(c.max_abs) ? std::numeric_limits<double>::infinity() : c.max_abs; };
  std::stable_sort(cases.begin(), cases.end(), [&](const CaseResult& a, const CaseResult& b) {
    if (key(a) != key(b)) return key(a) > key(b);
    if (std::isnan(a.max_abs) != std::isnan(b.max_abs)) return std::isnan(a.max_abs);
    return a.index < b.index;
  });
  if (cases.size() > keep) cases.resize(keep);
}

Result<Report> merge_reports(const std::vector<Report>& parts, const PolicySet* policies, size_t keep) {
  if (parts.empty()) return invalid_argument("no reports to merge");
  Report merged = parts.front();
  merged.outputs.clear();
  merged.cases = 0;
  merged.passed = true;
  std::vector<double> run_ms_total(merged.engines.size(), 0);
  for (size_t i = 0; i < parts.size(); ++i) {
    TRY(check_same_run(parts.front(), parts[i], i));
    merged.cases += parts[i].cases;
    if (i > 0) {
      merged.worst_cases.insert(merged.worst_cases.end(), parts[i].worst_cases.begin(), parts[i].worst_cases.end());
      merged.cases_passed += parts[i].cases_passed;
      merged.cases_failed += parts[i].cases_failed;
    }
    for (size_t e = 0; e < parts[i].engines.size(); ++e) {
      const EngineEntry& entry = parts[i].engines[e];
      run_ms_total[e] += entry.mean_run_ms * parts[i].cases;
      if (!entry.ok && merged.engines[e].ok) merged.engines[e] = entry;  // the first failure tells why
    }
  }
  for (size_t e = 0; e < merged.engines.size(); ++e) {
    merged.engines[e].mean_run_ms = merged.cases > 0 ? run_ms_total[e] / merged.cases : 0;
    merged.passed &= merged.engines[e].ok;
  }
  // Comparisons keyed by (engine, output) in the first part's order; a part whose engine
  // failed has none, and the merged verdict covers the cases that ran.
  for (const OutputComparison& first : parts.front().outputs) {
    std::vector<TensorMetrics> per_part;
    for (const Report& part : parts)
      for (const OutputComparison& c : part.outputs)
        if (c.output == first.output && c.engine == first.engine) per_part.push_back(c.metrics);
    OutputComparison c = first;
    c.metrics = merge_metrics(per_part);
    ASSIGN_OR_RETURN(Policy policy, policy_for(c, policies));
    c.policy = policy.name;
    c.verdict = evaluate(c.metrics, policy);
    merged.passed &= c.verdict.passed;
    merged.outputs.push_back(std::move(c));
  }
  keep_worst_cases(merged.worst_cases, keep);
  // A part of `compare --shard` names its slice after the inputs; the merge covers them all.
  const std::string& inputs = parts.front().inputs;
  merged.inputs = inputs.substr(0, inputs.find(" (shard ")) + " (merged from " + std::to_string(parts.size()) + " parts)";
  return merged;
}

}  // namespace twinrt::parity
