// The measurements of `twinrt quantize-report`, one variant at a time: its file size, its
// latency on each engine, its outputs against the float model's under the policy, and the
// per-layer errors of its first case.
#include <cstdio>

#include "cli/latency_stats.h"
#include "cli/quantize_report.h"
#include "io/file_io.h"

namespace twinrt::cli {
namespace {

// The p50 of `runs` timed runs after `warmup` untimed ones, on the first case. Engines take
// the same file; each runs alone (no other engine loaded meanwhile).
EngineLatency time_engine(const std::string& name, const std::string& path, const engines::TensorMap& inputs,
                          const MeasureSettings& s) {
  const auto failed = [&](const Status& st) {
    const std::string& m = st.message();  // one line in the table: runners' messages may end in a newline
    return EngineLatency{name, 0, m.substr(0, m.find_last_not_of(" \n") + 1)};
  };
  auto engine = engines::make_engine(name, s.options);
  if (!engine) return failed(engine.status());
  if (Status st = (*engine)->load(path); !st.is_ok()) return failed(st);
  // time_runs wants one run done first (a runner process has then seen the inputs).
  if (auto first = (*engine)->run(inputs, {}); !first) return failed(first.status());
  if (s.warmup > 0)
    if (auto warm = (*engine)->time_runs(inputs, s.warmup); !warm) return failed(warm.status());
  auto samples = (*engine)->time_runs(inputs, s.runs);
  if (!samples) return failed(samples.status());
  return EngineLatency{name, summarize_latencies(*samples).p50, ""};
}

void measure_accuracy(VariantReport& v, const parity::EngineRun& float_run, const parity::InputSet& inputs,
                      const std::vector<std::string>& outputs, const parity::PolicySet& policies,
                      const MeasureSettings& s) {
  const parity::EngineRun run = parity::run_cases_on("twinrt", s.options, v.label, v.path, inputs, outputs);
  if (!run.entry.ok) {
    v.error = run.entry.error;
    return;
  }
  auto comparisons = parity::compare_runs(float_run, run, outputs, policies, {});
  if (!comparisons) {
    v.error = comparisons.status().message();
    return;
  }
  for (const parity::OutputComparison& c : *comparisons) {
    OutputAccuracy a;
    a.output = c.output;
    if (c.metrics.probability) a.top1_agreement = c.metrics.probability->top1_agreement;
    a.cosine = c.metrics.cosine;
    a.max_abs = c.metrics.max_abs;
    a.sqnr_db = c.metrics.sqnr_db;
    a.passed = c.verdict.passed;
    a.verdict = c.verdict.summary;
    v.accuracy.push_back(std::move(a));
  }
  for (size_t i = 0; i < inputs.cases.size(); ++i) {
    bool all = true;
    for (const auto& c : *comparisons) all &= i < c.per_case.size() && c.per_case[i].passed;
    v.cases_passed += all;
  }
}

}  // namespace

void measure_variant(VariantReport& v, bool is_float, const parity::EngineRun& float_run, const std::string& float_path,
                     const parity::InputSet& inputs, const std::vector<std::string>& outputs,
                     const parity::PolicySet& policies, const MeasureSettings& s) {
  std::fprintf(stderr, "measuring %s...\n", v.label.c_str());
  v.bytes = io::file_size_or_minus_one(v.path);
  for (const std::string& e : s.engines) v.latency.push_back(time_engine(e, v.path, inputs.cases.front().tensors, s));
  measure_accuracy(v, float_run, inputs, outputs, policies, s);
  if (is_float || !v.error.empty()) return;
  auto layers = parity::layer_quant_errors(float_path, v.path, inputs.cases.front(), "twinrt", s.options, s.work_dir);
  if (layers) v.layers = std::move(*layers);
  else v.layers_error = layers.status().message();
}

}  // namespace twinrt::cli
