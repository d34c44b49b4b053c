// `twinrt pipeline run PIPE --input NAME=FILE`: runs a multi-model pipeline file
// (docs/pipelines.md). A .npy input is a tensor; any other file is passed as its bytes
// (uint8[n]) for a decoding step such as image_decode.
#include <cstdio>
#include <cstring>

#include "cli/command.h"
#include "cli/exit_status.h"
#include "cli/pipeline_compare.h"
#include "cli/pipeline_engines.h"
#include "cli/pipeline_report.h"
#include "cli/session_flags.h"

namespace twinrt::cli {
namespace {

struct PipelineFlags {
  std::string file;
  std::vector<std::string> inputs;
  bool json = false;
  std::string trace_dir;
  std::string engine;
  int runs = 1;
  std::string parallel;  // "on"/"off": overrides the file's "parallel"; empty: as the file says
};

int run_pipeline(const PipelineFlags& flags) {
  if (flags.runs < 1) return report_error(invalid_argument("--runs must be >= 1, got " + std::to_string(flags.runs)));
  auto inputs = read_pipeline_inputs(flags.inputs);
  if (!inputs) return report_error(inputs.status());
  pipeline::PipelineOptions options;
  options.engine = flags.engine;
  options.runner_factory = make_engine_runner;
  if (!flags.parallel.empty()) options.parallel = flags.parallel == "on";
  auto p = pipeline::Pipeline::load(flags.file, options);
  if (!p) return report_error(p.status());
  std::vector<pipeline::RunResult> runs;
  for (int r = 0; r < flags.runs; ++r) {
    auto result = (*p)->run(*inputs);
    if (!result) return report_error(result.status());
    // Only the first run's values (--trace) and the last's outputs are used: a long stream
    // must not keep every chunk's values.
    if (runs.size() > 1) {
      runs.back().outputs.clear();
      for (auto& stage : runs.back().stages) stage.outputs.clear();
    }
    runs.push_back(std::move(result).value());
  }
  const std::vector<StageTiming> timings = stage_timings(**p, runs);
  if (!flags.trace_dir.empty())
    if (Status st = write_trace(flags.trace_dir, runs.front()); !st) return report_error(st);
  // The outputs of the last run: with carried state (streaming) that is the final answer;
  // without state every run gives the same outputs.
  if (flags.json) {
    std::printf("%s\n", report_json(**p, runs.back(), timings).dump(2).c_str());
    return kExitOk;
  }
  print_outputs(runs.back(), (*p)->spec().outputs);
  print_timings(timings, (*p)->parallel());
  return kExitOk;
}

}  // namespace

Command add_pipeline_command(CLI::App& root) {
  auto flags = std::make_shared<PipelineFlags>();
  CLI::App* cmd = root.add_subcommand("pipeline", "Run a multi-model pipeline file (docs/pipelines.md)");
  cmd->require_subcommand(1);
  CLI::App* run = cmd->add_subcommand("run", "Run the pipeline on inputs; print its outputs and per-stage timings");
  run->add_option("PIPE", flags->file, "pipeline file (JSON)")->required();
  run->add_option("--input", flags->inputs, "NAME=FILE: a .npy tensor, or any other file as bytes (e.g. an image)");
  run->add_flag("--json", flags->json, "print outputs and timings as JSON");
  run->add_option("--trace", flags->trace_dir, "write every stage's values to DIR (.npy) with a summary line each");
  run->add_option("--engine", flags->engine, "run every model stage on this engine (twinrt, twinrt-ref, ort, ort-web, ...)");
  run->add_option("--runs", flags->runs, "run the pipeline N times (state carried; outputs of the last run): cold = first run, warm = median of the others");
  run->add_option("--parallel", flags->parallel, "on: run independent stages concurrently (the default); off: one after another")
      ->check(CLI::IsMember({"on", "off"}));
  auto compare_flags = std::make_shared<PipelineCompareFlags>();
  CLI::App* compare = cmd->add_subcommand("compare", "Run the pipeline on several engines; compare every stage's values and the final outputs");
  compare->add_option("PIPE", compare_flags->file, "pipeline file (JSON)")->required();
  compare->add_option("--input", compare_flags->inputs, "NAME=FILE: a .npy tensor, or any other file as bytes (e.g. an image)");
  compare->add_option("--engines", compare_flags->engines, "engines, the first is the baseline (e.g. twinrt,ort)")->required();
  compare->add_option("--policy", compare_flags->policy,
                      "policy judging every value in the report: fp32 (default), fp16, int8, ... or FILE.json");
  compare->add_option("--json", compare_flags->json_path, "write every value's comparison as a JSON parity report");
  compare->add_option("--html", compare_flags->html_path, "write the same report as a self-contained HTML page");
  return {cmd, [flags, compare_flags, compare] {
            if (compare->parsed()) return compare_pipeline(*compare_flags);
            return run_pipeline(*flags);
          }};
}

}  // namespace twinrt::cli
