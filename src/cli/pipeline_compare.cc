#include "cli/pipeline_compare.h"

#include <algorithm>
#include <cstdio>

#include "cli/bench_engines.h"
#include "cli/exit_status.h"
#include "cli/compare_flags.h"
#include "cli/pipeline_engines.h"
#include "cli/pipeline_parity.h"
#include "cli/pipeline_report.h"
#include "parity/metrics.h"

namespace twinrt::cli {
namespace {

using pipeline::PipelineValue;

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> previous(b.size() + 1), current(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::string format_error(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// One line for a value: "identical", "max |diff| 3e-06 (2 ulp)", "differs: ...".
std::string compare_value(const PipelineValue& ref, const PipelineValue& test) {
  if (ref.items.size() != test.items.size())
    return "differs: " + std::to_string(ref.items.size()) + " items vs " + std::to_string(test.items.size());
  double max_abs = 0, max_ulp = 0;
  int64_t mismatches = 0;
  for (size_t i = 0; i < ref.items.size(); ++i) {
    auto m = parity::compare_tensors(ref.items[i], test.items[i], {});
    if (!m) return "differs: " + m.status().message();
    max_abs = std::max(max_abs, m->max_abs);
    max_ulp = std::max(max_ulp, m->max_ulp);
    mismatches += m->exact_mismatches;
  }
  if (mismatches) return "differs: " + std::to_string(mismatches) + " elements";
  if (max_abs == 0) return "identical";
  return "max |diff| " + format_error(max_abs) + " (" + format_error(max_ulp) + " ulp)";
}

// Quads [N,4,2] as their axis-aligned bounds [N,4] (x0, y0, x1, y1).
Result<Tensor> quad_bounds(const Tensor& quads) {
  ASSIGN_OR_RETURN(Tensor out, Tensor::create(DataType::kFloat, {quads.dim(0), 4}));
  for (int64_t i = 0; i < quads.dim(0); ++i) {
    const float* q = quads.data<float>() + i * 8;
    float* o = out.data<float>() + i * 4;
    o[0] = std::min({q[0], q[2], q[4], q[6]}), o[1] = std::min({q[1], q[3], q[5], q[7]});
    o[2] = std::max({q[0], q[2], q[4], q[6]}), o[3] = std::max({q[1], q[3], q[5], q[7]});
  }
  return out;
}

bool is_quads(const PipelineValue& v) {
  return !v.is_list && v.tensor().dtype() == DataType::kFloat && v.tensor().rank() == 3 && v.tensor().dim(1) == 4 &&
         v.tensor().dim(2) == 2;
}

// The verdict on a final output of `engine` against the baseline's.
parity::FinalOutputVerdict final_verdict(const std::string& output, const std::string& engine, const PipelineValue& ref,
                                         const PipelineValue& test) {
  parity::FinalOutputVerdict v{output, engine, "", true, std::nullopt, std::nullopt};
  const std::vector<std::string> a = value_strings(ref), b = value_strings(test);
  if (!a.empty() || !b.empty()) {
    std::string joined_a, joined_b;
    for (const auto& line : a) joined_a += line + "\n";
    for (const auto& line : b) joined_b += line + "\n";
    v.character_error_rate =
        static_cast<double>(edit_distance(joined_a, joined_b)) / static_cast<double>(std::max<size_t>(joined_a.size(), 1));
    v.agrees = joined_a == joined_b;
    v.summary = v.agrees ? "same text (" + std::to_string(a.size()) + " strings, CER 0)"
                         : "text differs: CER " + format_error(*v.character_error_rate) + " (" + std::to_string(a.size()) +
                               " vs " + std::to_string(b.size()) + " strings)";
    return v;
  }
  if (is_quads(ref) && is_quads(test)) {
    auto ra = quad_bounds(ref.tensor()), rb = quad_bounds(test.tensor());
    if (!ra || !rb) return {output, engine, "not compared", false, std::nullopt, std::nullopt};
    parity::CompareOptions options;
    options.box_format = parity::BoxFormat::kXYXY;
    auto m = ra->dim(0) == rb->dim(0) ? parity::compare_tensors(*ra, *rb, options) : Result<parity::TensorMetrics>(Status());
    const int64_t na = ra->dim(0), nb = rb->dim(0);
    if (na != nb || !m || !m->boxes || m->boxes->matched != na) {
      v.agrees = false;
      v.summary = "boxes differ: " + std::to_string(na) + " vs " + std::to_string(nb) + " boxes";
      return v;
    }
    v.min_iou = m->boxes->min_matched_iou;
    v.summary = std::to_string(na) + " boxes, all matched, min IoU " + format_error(*v.min_iou);
    return v;
  }
  v.summary = compare_value(ref, test);
  v.agrees = v.summary.rfind("differs", 0) != 0;
  return v;
}

// The --input files as one case of the parity toolkit (what pipeline_report compares over).
Result<parity::InputCase> input_case(const std::vector<std::string>& args) {
  ASSIGN_OR_RETURN(pipeline::ValueMap values, read_pipeline_inputs(args));
  parity::InputCase c;
  for (const std::string& arg : args) {
    const std::string name = arg.substr(0, arg.find('='));
    c.sources[name] = arg.substr(name.size() + 1);
    c.name += (c.name.empty() ? "" : ", ") + c.sources[name];
  }
  for (auto& [name, value] : values) c.tensors[name] = value.tensor();
  return c;
}

}  // namespace

int compare_pipeline(const PipelineCompareFlags& f) {
  auto engines = split_engine_list(f.engines);
  if (!engines) return report_error(engines.status());
  if (engines->size() < 2) return report_error(invalid_argument("--engines needs at least two engines, got '" + f.engines + "'"));
  auto policies = load_policy_set(f.policy, "");
  if (!policies) return report_error(policies.status());
  auto input = input_case(f.inputs);
  if (!input) return report_error(input.status());
  std::vector<PipelineRuns> runs;
  for (const std::string& engine : *engines) {
    runs.push_back(run_pipeline_cases(f.file, engine, {*input}));
    if (!runs.back().entry.ok) return report_error(runs.back().status.with_context("engine " + engine + ": "));
  }
  const pipeline::RunResult& base = runs.front().per_case.front();
  std::printf("%-12s %-12s %-12s %s\n", "stage", "value", "engine", std::string("vs " + engines->front()).c_str());
  for (size_t s = 0; s < base.stages.size(); ++s)
    for (const auto& [name, value] : base.stages[s].outputs)
      for (size_t e = 1; e < runs.size(); ++e)
        std::printf("%-12s %-12s %-12s %s\n", base.stages[s].stage.c_str(), name.c_str(), (*engines)[e].c_str(),
                    compare_value(value, runs[e].per_case.front().stages[s].outputs.at(name)).c_str());
  bool agrees = true;
  std::vector<parity::FinalOutputVerdict> verdicts;
  for (const std::string& name : runs.front().outputs)
    for (size_t e = 1; e < runs.size(); ++e) {
      verdicts.push_back(final_verdict(name, (*engines)[e], base.outputs.at(name), runs[e].per_case.front().outputs.at(name)));
      std::printf("output %s, %s: %s\n", name.c_str(), (*engines)[e].c_str(), verdicts.back().summary.c_str());
      agrees &= verdicts.back().agrees;
    }
  std::printf("verdict: %s\n", agrees ? "the final outputs agree" : "the final outputs differ");
  if (!f.json_path.empty() || !f.html_path.empty()) {
    auto report = pipeline_report(f.file, {*input}, runs, *policies, 0);
    if (!report) return report_error(report.status());
    report->inputs = input->name.empty() ? "no inputs" : input->name;
    report->final_outputs = std::move(verdicts);
    report->passed &= agrees;
    if (Status st = write_report_files(*report, f.json_path, f.html_path); !st) return report_error(st);
    std::printf("report (policy %s on every value): %s\n", f.policy.c_str(),
                report->passed ? "every value within the policy" : "some values outside the policy");
  }
  return agrees ? kExitOk : kExitFailure;
}

}  // namespace twinrt::cli
