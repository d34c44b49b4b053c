#include "parity/comparison.h"

#include <chrono>
#include <cmath>

namespace twinrt::parity {
namespace {

EngineRun failed(EngineRun run, const Status& status) {
  run.entry.ok = false;
  run.entry.error = status.message();
  run.failure = status.code();
  run.per_case.clear();
  return run;
}

}  // namespace

EngineRun run_cases(engines::Engine& engine, const std::string& label, const std::string& model_path,
                    const InputSet& inputs, const std::vector<std::string>& outputs) {
  EngineRun run;
  run.entry.name = label;
  run.entry.model = model_path;
  if (Status s = engine.load(model_path); !s.is_ok()) return failed(std::move(run), s);
  run.entry.description = engine.description();
  double total_ms = 0;
  for (const InputCase& c : inputs.cases) {
    const auto start = std::chrono::steady_clock::now();
    auto result = engine.run(c.tensors, outputs);
    total_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!result) {
      Status s = result.status();
      if (inputs.cases.size() > 1) s = Status(s.code(), "case " + c.name + ": " + s.message());
      return failed(std::move(run), s);
    }
    run.per_case.push_back(std::move(*result));
  }
  run.entry.description = engine.description();  // a WebGPU engine names where its nodes ran only after a run
  run.entry.mean_run_ms = inputs.cases.empty() ? 0 : total_ms / static_cast<double>(inputs.cases.size());
  return run;
}

EngineRun run_cases_on(const std::string& engine_name, const engines::EngineOptions& options,
                       const std::string& label, const std::string& model_path, const InputSet& inputs,
                       const std::vector<std::string>& outputs) {
  auto engine = engines::make_engine(engine_name, options);
  if (!engine) {
    EngineRun run;
    run.entry.name = label;
    run.entry.model = model_path;
    return failed(std::move(run), engine.status());
  }
  return run_cases(**engine, label, model_path, inputs, outputs);
}

Result<std::vector<OutputComparison>> compare_runs(const EngineRun& baseline, const EngineRun& test,
                                                   const std::vector<std::string>& outputs,
                                                   const PolicySet& policies,
                                                   const std::map<std::string, ExpectedError>& expected) {
  std::vector<OutputComparison> result;
  if (!baseline.entry.ok || !test.entry.ok) return result;
  for (const std::string& output : outputs) {
    const Policy& policy = policies.for_output(output);
    std::vector<TensorMetrics> per_case;
    for (size_t c = 0; c < baseline.per_case.size() && c < test.per_case.size(); ++c) {
      auto ref = baseline.per_case[c].find(output);
      auto got = test.per_case[c].find(output);
      if (ref == baseline.per_case[c].end())
        return invalid_argument(baseline.entry.name + " did not return output '" + output + "'");
      if (got == test.per_case[c].end())
        return invalid_argument(test.entry.name + " did not return output '" + output + "'");
      auto m = compare_tensors(ref->second, got->second, policy.compare);
      if (!m)
        return Status(m.status().code(), "output '" + output + "' of " + test.entry.name + " vs " +
                                             baseline.entry.name + ": " + m.status().message());
      per_case.push_back(std::move(*m));
    }
    OutputComparison cmp;
    cmp.output = output;
    cmp.engine = test.entry.name;
    cmp.policy = policy.name;
    for (const TensorMetrics& m : per_case) cmp.per_case.push_back({m.max_abs, evaluate(m, policy).passed});
    cmp.metrics = per_case.size() == 1 ? per_case.front() : merge_metrics(per_case);
    cmp.verdict = evaluate(cmp.metrics, policy);
    if (auto it = expected.find(output); it != expected.end()) cmp.expected = it->second;
    result.push_back(std::move(cmp));
  }
  return result;
}

void rank_cases(Report& report, const std::vector<InputCase>& cases, int64_t first_index, size_t keep) {
  bool engines_ok = true;
  for (const EngineEntry& e : report.engines) engines_ok &= e.ok;
  std::vector<CaseResult> ranked;
  for (size_t i = 0; i < cases.size(); ++i) {
    CaseResult r{first_index + static_cast<int64_t>(i), cases[i].name, cases[i].sources, "", "", 0, engines_ok};
    bool compared = false;
    for (const OutputComparison& c : report.outputs) {
      if (i >= c.per_case.size()) continue;
      const CaseError& e = c.per_case[i];
      if (!compared || e.max_abs > r.max_abs || (std::isnan(e.max_abs) && !std::isnan(r.max_abs)))
        r.engine = c.engine, r.output = c.output, r.max_abs = e.max_abs;
      compared = true;
      r.passed &= e.passed;
    }
    (r.passed ? report.cases_passed : report.cases_failed) += 1;
    if (compared) ranked.push_back(std::move(r));
  }
  keep_worst_cases(ranked, keep);
  report.worst_cases = std::move(ranked);
}

}  // namespace twinrt::parity
