// `twinrt compare MODEL --engines A,B,...` and `twinrt compare MODEL_A MODEL_B [--engine E]`:
// the same inputs through each run, every output against the baseline's under a policy.
// Exit 0 when every output passes, 1 on a mismatch or an engine that rejects the model,
// 2 on bad flags, unreadable inputs or an engine that is not installed. See docs/parity.md.
#include "cli/command.h"
#include "cli/compare_flags.h"
#include "cli/exit_status.h"
#include "cli/version.h"
#include "parity/comparison.h"
#include "parity/expected_outputs.h"
#include "parity/noise_floor.h"
#include "parity/preprocess_check.h"

namespace twinrt::cli {
namespace {

struct CompareFlags {
  ParityFlags parity;
  std::string baseline;
  std::string policy = "fp32";
  std::string box_format;
  bool preprocess_check = false;
};

Result<parity::PolicySet> load_policies(const CompareFlags& f) {
  parity::PolicySet set;
  if (f.policy.size() > 5 && f.policy.compare(f.policy.size() - 5, 5, ".json") == 0) {
    ASSIGN_OR_RETURN(set, parity::load_policy_file(f.policy));
  } else {
    auto p = parity::builtin_policy(f.policy);
    if (!p) return invalid_argument("--policy: " + p.status().message());
    set = parity::single_policy(std::move(*p));
  }
  if (!f.box_format.empty()) {
    ASSIGN_OR_RETURN(parity::BoxFormat format, parity::parse_box_format(f.box_format));
    set.default_policy.compare.box_format = format;
    for (auto& [name, p] : set.per_output) p.compare.box_format = format;
  }
  return set;
}

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

int exit_code(const parity::Report& report, const std::vector<parity::EngineRun>& runs) {
  for (const auto& r : runs)
    if (r.failure == StatusCode::kUnavailable) return kExitBadInput;
  return report.passed ? kExitOk : kExitFailure;
}

int compare(const CompareFlags& f) {
  auto planned = plan_runs(f.parity, f.baseline);
  if (!planned) return report_error(planned.status());
  auto spec = to_input_spec(f.parity.inputs);
  if (!spec) return report_error(spec.status());
  auto options = engine_options(f.parity, "all", *spec);
  if (!options) return report_error(options.status());
  auto policies = load_policies(f);
  if (!policies) return report_error(policies.status());
  auto noise = noise_settings(f.parity);
  if (!noise) return report_error(noise.status());
  if (f.preprocess_check && spec->images.empty())
    return report_error(invalid_argument("--preprocess-check needs an --image and a --preprocess spec"));

  auto io = model_io(f.parity.models[0]);
  if (!io) return report_error(io.status());
  if (f.parity.models.size() == 2) {
    auto io_b = model_io(f.parity.models[1]);
    if (!io_b) return report_error(io_b.status());
    if (Status s = check_same_interface(*io, *io_b, f.parity); !s.is_ok()) return report_error(s);
  }
  auto inputs = parity::build_input_set(io->inputs, *spec);
  if (!inputs) return report_error(inputs.status());

  parity::Report report;
  report.command = "compare";
  report.tool_version = kVersion;
  report.models = f.parity.models;
  report.baseline = planned->front().label;
  report.inputs = inputs->description;
  report.preprocessing = inputs->preprocessing;
  report.cases = static_cast<int>(inputs->cases.size());

  std::vector<parity::EngineRun> runs;
  for (const auto& p : *planned) {
    std::fprintf(stderr, "running %s...\n", p.label.c_str());
    runs.push_back(parity::run_cases_on(p.engine, *options, p.label, p.model, *inputs, io->outputs));
    report.engines.push_back(runs.back().entry);
    if (!runs.back().entry.ok) report.passed = false;
  }
  const auto expected = parity::expected_output_errors(f.parity.models[0], inputs->cases.front(), *options);
  std::map<std::string, parity::NoiseFloor> floors;
  if (*noise && runs[0].entry.ok) {
    std::fprintf(stderr, "rerunning %s on inputs moved by up to %d ULPs (%d runs)...\n", runs[0].entry.name.c_str(),
                 (*noise)->ulps, (*noise)->runs);
    auto measured = parity::measure_noise_floor(planned->front().engine, *options, planned->front().model, *inputs,
                                                runs[0], io->outputs, **noise);
    if (!measured) return report_error(measured.status());
    floors = std::move(*measured);
  }
  for (size_t i = 1; i < runs.size(); ++i) {
    auto outputs = parity::compare_runs(runs[0], runs[i], io->outputs, *policies, expected);
    if (!outputs) return report_error(outputs.status());
    for (auto& o : *outputs) {
      if (auto it = floors.find(o.output); it != floors.end()) parity::judge_against_noise_floor(o, it->second);
      report.passed &= o.verdict.passed || o.within_noise_floor;
      report.outputs.push_back(std::move(o));
    }
  }
  if (f.preprocess_check && runs[0].entry.ok) {
    auto check = parity::preprocess_check(planned->front().engine, *options, f.parity.models[0], io->inputs,
                                          *spec, runs[0].per_case.front());
    if (!check) return report_error(check.status());
    report.preprocess_check = std::move(*check);
  }
  if (Status s = emit_report(report, f.parity); !s.is_ok()) return report_error(s);
  return exit_code(report, runs);
}

}  // namespace

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
  return {cmd, [] { return compare(flags); }};
}

}  // namespace twinrt::cli
