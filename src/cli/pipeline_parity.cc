#include "cli/pipeline_parity.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>

#include "cli/pipeline_engines.h"
#include "cli/version.h"
#include "parity/comparison.h"
#include "pipeline/pipeline.h"

namespace twinrt::cli {

using pipeline::PipelineValue;

PipelineRuns run_pipeline_cases(const std::string& file, const std::string& engine,
                                const std::vector<parity::InputCase>& cases) {
  PipelineRuns runs;
  runs.entry.name = engine;
  runs.entry.model = file;
  auto fail = [&](const Status& s) {
    runs.entry.ok = false;
    runs.entry.error = s.message();
    runs.status = s;
    runs.per_case.clear();
    return runs;
  };
  pipeline::PipelineOptions options;
  options.engine = engine;
  options.runner_factory = make_engine_runner;
  auto p = pipeline::Pipeline::load(file, options);
  if (!p) return fail(p.status());
  runs.outputs = (*p)->spec().outputs;
  runs.entry.description = "pipeline " + (*p)->spec().name + ", every model stage on " + engine;
  double total_ms = 0;
  for (const parity::InputCase& c : cases) {
    pipeline::ValueMap inputs;
    for (const auto& [name, tensor] : c.tensors) inputs[name] = PipelineValue::single(tensor);
    (*p)->reset_state();  // cases are independent
    const auto start = std::chrono::steady_clock::now();
    auto result = (*p)->run(inputs);
    total_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!result) return fail(result.status().with_context("case " + c.name + ": "));
    runs.per_case.push_back(std::move(*result));
  }
  runs.entry.mean_run_ms = cases.empty() ? 0 : total_ms / static_cast<double>(cases.size());
  return runs;
}

namespace {

// The values compared: (stage index, value, name in the report).
struct ComparedValue {
  size_t stage;
  std::string value, label;
};

std::vector<ComparedValue> compared_values(const pipeline::RunResult& run, const std::vector<std::string>& outputs) {
  std::vector<ComparedValue> values;
  for (size_t s = 0; s < run.stages.size(); ++s)
    for (const auto& [value, _] : run.stages[s].outputs) {
      const bool is_output = std::find(outputs.begin(), outputs.end(), value) != outputs.end();
      values.push_back({s, value, is_output ? value : run.stages[s].stage + "/" + value});
    }
  return values;
}

const PipelineValue* stage_value(const pipeline::RunResult& run, const ComparedValue& v) {
  if (v.stage >= run.stages.size()) return nullptr;
  auto it = run.stages[v.stage].outputs.find(v.value);
  return it == run.stages[v.stage].outputs.end() ? nullptr : &it->second;
}

Result<parity::OutputComparison> compare_over_cases(const ComparedValue& v, const PipelineRuns& base,
                                                    const PipelineRuns& test, const parity::PolicySet& policies) {
  const parity::Policy& policy = policies.for_output(v.label);
  parity::OutputComparison cmp;
  cmp.output = v.label;
  cmp.engine = test.entry.name;
  cmp.policy = policy.name;
  std::vector<parity::TensorMetrics> per_case;
  for (size_t c = 0; c < base.per_case.size(); ++c) {
    const PipelineValue* ref = stage_value(base.per_case[c], v);
    const PipelineValue* got = stage_value(test.per_case[c], v);
    if (!ref || !got)
      return internal_error("case " + std::to_string(c) + ": stage " + std::to_string(v.stage) + " did not write '" +
                            v.value + "' on every engine");
    auto m = compare_pipeline_value(*ref, *got, policy.compare);
    if (!m)
      return Status(m.status().code(), "value '" + v.label + "' of " + test.entry.name + " vs " + base.entry.name +
                                           ": " + m.status().message());
    if (!*m) {
      cmp.per_case.push_back({0, true});
      continue;
    }
    // A shape mismatch has no error to rank by: it ranks as infinite.
    const double max_abs = (*m)->shape_mismatches ? std::numeric_limits<double>::infinity() : (*m)->max_abs;
    cmp.per_case.push_back({max_abs, parity::evaluate(**m, policy).passed});
    per_case.push_back(std::move(**m));
  }
  cmp.metrics = parity::merge_metrics(per_case);
  cmp.verdict = parity::evaluate(cmp.metrics, policy);
  return cmp;
}

}  // namespace

Result<std::optional<parity::TensorMetrics>> compare_pipeline_value(const PipelineValue& ref, const PipelineValue& test,
                                                                    const parity::CompareOptions& options) {
  bool same_shapes = ref.items.size() == test.items.size();
  for (size_t i = 0; same_shapes && i < ref.items.size(); ++i) same_shapes = ref.items[i].shape() == test.items[i].shape();
  if (!same_shapes) {
    parity::TensorMetrics m;
    const Tensor& any = ref.items.empty() ? test.items.front() : ref.items.front();
    m.dtype = dtype_name(any.dtype());
    m.shape = any.shape();
    m.shape_mismatches = 1;
    return std::optional(m);
  }
  std::vector<parity::TensorMetrics> items;
  for (size_t i = 0; i < ref.items.size(); ++i) {
    ASSIGN_OR_RETURN(parity::TensorMetrics m, parity::compare_tensors(ref.items[i], test.items[i], options));
    items.push_back(std::move(m));
  }
  if (items.empty()) return std::optional<parity::TensorMetrics>();
  return std::optional(items.size() == 1 ? items.front() : parity::merge_metrics(items));
}

Result<parity::Report> compare_pipeline_cases(const std::string& file, const std::vector<std::string>& engines,
                                              const std::vector<parity::InputCase>& cases,
                                              const parity::PolicySet& policies, int64_t first_case, size_t keep) {
  if (engines.size() < 2) return invalid_argument("a pipeline compare needs at least two engines");
  if (cases.empty()) return invalid_argument("a pipeline compare needs at least one case");
  std::vector<PipelineRuns> runs;
  for (const std::string& engine : engines) runs.push_back(run_pipeline_cases(file, engine, cases));
  return pipeline_report(file, cases, runs, policies, first_case, keep);
}

Result<parity::Report> pipeline_report(const std::string& file, const std::vector<parity::InputCase>& cases,
                                       const std::vector<PipelineRuns>& runs, const parity::PolicySet& policies,
                                       int64_t first_case, size_t keep) {
  parity::Report report;
  report.command = "compare";
  report.tool_version = kVersion;
  report.models = {file};
  // Named like a `compare --shard` part, so merge_reports names the merged whole.
  report.inputs = "pipeline inputs per case (shard of cases " + std::to_string(first_case + 1) + "-" +
                  std::to_string(first_case + static_cast<int64_t>(cases.size())) + ")";
  report.cases = static_cast<int>(cases.size());
  report.baseline = runs.front().entry.name;
  for (const PipelineRuns& r : runs) {
    report.engines.push_back(r.entry);
    report.passed &= r.entry.ok;
  }
  if (runs.front().entry.ok) {
    const std::vector<ComparedValue> values = compared_values(runs.front().per_case.front(), runs.front().outputs);
    for (size_t e = 1; e < runs.size(); ++e) {
      if (!runs[e].entry.ok) continue;
      for (const ComparedValue& v : values) {
        ASSIGN_OR_RETURN(parity::OutputComparison c, compare_over_cases(v, runs.front(), runs[e], policies));
        report.passed &= c.verdict.passed;
        report.outputs.push_back(std::move(c));
      }
    }
  }
  parity::rank_cases(report, cases, first_case, keep);
  return report;
}

}  // namespace twinrt::cli
