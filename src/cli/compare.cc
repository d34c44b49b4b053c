// `twinrt compare MODEL --engines A,B,...` and `twinrt compare MODEL_A MODEL_B [--engine E]`:
// the same inputs through each run, every output against the baseline's under a policy.
// Exit 0 when every output passes, 1 on a mismatch or an engine that rejects the model,
// 2 on bad flags, unreadable inputs or an engine that is not installed. See docs/parity.md.
#include "cli/command.h"
#include "cli/exit_status.h"
#include "cli/parity_commands.h"
#include "cli/pipeline_compare.h"
#include "cli/session_flags.h"
#include "cli/version.h"
#include "parity/comparison.h"
#include "parity/expected_outputs.h"
#include "parity/noise_floor.h"
#include "parity/preprocess_check.h"

namespace twinrt::cli {
namespace {

Status check_same_interface(const ModelIo& a, const ModelIo& b, const ParityFlags& f) {
  if (a.outputs != b.outputs)
    return invalid_argument(f.models[1] + " has other outputs than " + f.models[0] +
                            ": two models are compared output by output, by name");
  for (const IoInfo& in : a.inputs) {
    bool found = false;
    for (const IoInfo& other : b.inputs) found |= other.name == in.name && other.dtype == in.dtype;
    if (!found)
      return invalid_argument(f.models[1] + " has no input '" + in.name + "' of type " + dtype_name(in.dtype));
  }
  return Status::ok();
}

// --shard I/N: the I-th (from 0) of N contiguous slices of the cases, so N processes
// (a batch scheduler's jobs) cover every case once; `twinrt report merge` joins the parts.
// Returns the index of the slice's first case in the whole set.
Result<int64_t> select_shard(parity::InputSet& inputs, const std::string& shard) {
  const size_t slash = shard.find('/');
  if (slash == std::string::npos) return invalid_argument("--shard must be I/N (e.g. 0/4), got '" + shard + "'");
  ASSIGN_OR_RETURN(int64_t index, parse_integer(shard.substr(0, slash), "--shard index", false));
  ASSIGN_OR_RETURN(int64_t count, parse_integer(shard.substr(slash + 1), "--shard count", false));
  if (count < 1 || index >= count)
    return invalid_argument("--shard " + shard + ": needs 0 <= I < N");
  const auto total = static_cast<int64_t>(inputs.cases.size());
  const int64_t begin = total * index / count, end = total * (index + 1) / count;
  if (begin == end)
    return invalid_argument("--shard " + shard + " has no cases: there are " + std::to_string(total));
  inputs.cases = std::vector<parity::InputCase>(inputs.cases.begin() + begin, inputs.cases.begin() + end);
  inputs.description += " (shard " + shard + ": cases " + std::to_string(begin + 1) + "-" + std::to_string(end) +
                        " of " + std::to_string(total) + ")";
  return begin;
}

bool is_pipeline_file(const std::string& path) {
  return path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0;
}

// `twinrt compare PIPE.json --engines ...`: the pipeline compare (docs/pipelines.md), with
// the flags that mean the same there; the others are refused rather than ignored.
int compare_pipeline_file(const CompareFlags& f) {
  const ParityFlags& p = f.parity;
  const InputSetFlags& in = p.inputs;
  const char* unused = !in.images.empty()          ? "--image (give the file's bytes with --input NAME=FILE)"
                       : !in.cases_dir.empty()     ? "--cases"
                       : !in.test_data_dir.empty() ? "--test-data"
                       : !in.ranges.empty()        ? "--range"
                       : !f.shard.empty()          ? "--shard"
                       : !f.baseline.empty()       ? "--baseline (the first engine is the baseline)"
                       : p.noise_floor             ? "--noise-floor"
                       : f.preprocess_check        ? "--preprocess-check"
                                                   : nullptr;
  if (unused)
    return report_error(invalid_argument(std::string(unused) + " is not used when comparing a pipeline file (" +
                                         p.models[0] + "); see docs/pipelines.md"));
  PipelineCompareFlags pf;
  pf.file = p.models[0];
  pf.inputs = in.inputs;
  pf.engines = p.engines;
  pf.policy = f.policy;
  pf.json_path = p.json_path;
  pf.html_path = p.html_path;
  return compare_pipeline(pf);
}

int compare(const CompareFlags& f) {
  if (f.parity.models.size() == 1 && is_pipeline_file(f.parity.models[0])) return compare_pipeline_file(f);
  auto outcome = run_compare(f);
  if (!outcome) return report_error(outcome.status());
  if (Status s = emit_report(outcome->report, f.parity); !s.is_ok()) return report_error(s);
  if (outcome->engine_unavailable) return kExitBadInput;
  return outcome->report.passed ? kExitOk : kExitFailure;
}

}  // namespace

Result<CompareOutcome> run_compare(const CompareFlags& f) {
  ASSIGN_OR_RETURN(auto planned, plan_runs(f.parity, f.baseline));
  ASSIGN_OR_RETURN(auto spec, to_input_spec(f.parity.inputs));
  ASSIGN_OR_RETURN(auto options, engine_options(f.parity, "all", spec));
  ASSIGN_OR_RETURN(auto policies, load_policy_set(f.policy, f.box_format));
  ASSIGN_OR_RETURN(auto noise, noise_settings(f.parity));
  if (f.preprocess_check && spec.images.empty())
    return invalid_argument("--preprocess-check needs an --image and a --preprocess spec");

  ASSIGN_OR_RETURN(ModelIo io, model_io(f.parity.models[0]));
  if (f.parity.models.size() == 2) {
    ASSIGN_OR_RETURN(ModelIo io_b, model_io(f.parity.models[1]));
    TRY(check_same_interface(io, io_b, f.parity));
  }
  ASSIGN_OR_RETURN(auto inputs, parity::build_input_set(io.inputs, spec));
  int64_t first_case = 0;
  if (!f.shard.empty()) {
    ASSIGN_OR_RETURN(first_case, select_shard(inputs, f.shard));
  }

  parity::Report report;
  report.command = "compare";
  report.tool_version = kVersion;
  report.models = f.parity.models;
  report.baseline = planned.front().label;
  report.inputs = inputs.description;
  report.preprocessing = inputs.preprocessing;
  report.cases = static_cast<int>(inputs.cases.size());

  CompareOutcome outcome;
  std::vector<parity::EngineRun> runs;
  for (const auto& p : planned) {
    std::fprintf(stderr, "running %s...\n", p.label.c_str());
    runs.push_back(parity::run_cases_on(p.engine, options, p.label, p.model, inputs, io.outputs));
    report.engines.push_back(runs.back().entry);
    if (!runs.back().entry.ok) report.passed = false;
    outcome.engine_unavailable |= runs.back().failure == StatusCode::kUnavailable;
  }
  const auto expected = parity::expected_output_errors(f.parity.models[0], inputs.cases.front(), options);
  std::map<std::string, parity::NoiseFloor> floors;
  if (noise && runs[0].entry.ok) {
    std::fprintf(stderr, "rerunning %s on inputs moved by up to %d ULPs (%d runs)...\n", runs[0].entry.name.c_str(),
                 noise->ulps, noise->runs);
    ASSIGN_OR_RETURN(floors, parity::measure_noise_floor(planned.front().engine, options, planned.front().model, inputs,
                                                         runs[0], io.outputs, *noise));
  }
  for (size_t i = 1; i < runs.size(); ++i) {
    ASSIGN_OR_RETURN(auto outputs, parity::compare_runs(runs[0], runs[i], io.outputs, policies, expected));
    for (auto& o : outputs) {
      if (auto it = floors.find(o.output); it != floors.end()) parity::judge_against_noise_floor(o, it->second);
      report.passed &= o.verdict.passed || o.within_noise_floor;
      report.outputs.push_back(std::move(o));
    }
  }
  parity::rank_cases(report, inputs.cases, first_case);
  if (f.preprocess_check && runs[0].entry.ok) {
    ASSIGN_OR_RETURN(report.preprocess_check,
                     parity::preprocess_check(planned.front().engine, options, f.parity.models[0], io.inputs,
                                              spec, runs[0].per_case.front()));
  }
  outcome.report = std::move(report);
  return outcome;
}

Command add_compare_command(CLI::App& root) {
  static CompareFlags flags;
  CLI::App* cmd = root.add_subcommand("compare", "compare a model across engines, or two models on one engine");
  add_parity_flags(cmd, flags.parity);
  cmd->add_option("--baseline", flags.baseline, "engine the others are compared with (default: the first)");
  cmd->add_option("--policy", flags.policy,
                  "fp32 (default), fp16, int8, classification, detection, segmentation, regression, or FILE.json");
  cmd->add_option("--box-format", flags.box_format, "detection outputs hold boxes as xyxy, xywh or cxcywh");
  cmd->add_flag("--preprocess-check", flags.preprocess_check,
                "also show how far outputs move under the usual preprocessing mistakes");
  cmd->add_option("--shard", flags.shard, "I/N: run only the I-th (from 0) of N slices of the cases; "
                                          "`twinrt report merge` joins the parts' --json reports");
  return {cmd, [] { return compare(flags); }};
}

}  // namespace twinrt::cli
