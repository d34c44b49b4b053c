// Flags shared by `twinrt compare` and `twinrt localize`: the models, the engines, the
// inputs and where reports go.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/input_set_flags.h"
#include "cli/session_flags.h"
#include "engines/engine.h"
#include "parity/noise_floor.h"
#include "parity/policy.h"
#include "parity/report.h"

namespace twinrt::cli {

struct ParityFlags {
  std::vector<std::string> models;  // one (engines compared) or two (models compared)
  std::string engines;              // --engines A,B,... with one model
  std::string engine = "twinrt";    // --engine E with two models
  int threads = 1;
  std::string graph_optimization;   // ONNX Runtime engines; empty = the command's default
  InputSetFlags inputs;
  std::string json_path, html_path;
  // --noise-floor: rerun the baseline on inputs moved by a few ULPs (docs/parity.md).
  bool noise_floor = false;
  int noise_runs = 3;
  int noise_ulps = 2;
  LimitFlags limits;  // twinrt's engines, and the model and input files read
};

void add_parity_flags(CLI::App* cmd, ParityFlags& f);

// Who runs what: one entry per run, the baseline (or "A") first.
struct PlannedRun {
  std::string label;   // engine name, or "A: model.onnx" / "B: model.onnx"
  std::string engine;
  std::string model;
};

// An engine make_engine knows (twinrt's native ones may add ":ISA"), else an error listing them.
Status check_engine_name(const std::string& name);

// One model needs two or more engines; two models need one engine (default twinrt).
// `baseline` (may be empty) moves that engine first. Unknown engine names are refused.
Result<std::vector<PlannedRun>> plan_runs(const ParityFlags& f, const std::string& baseline);

// Threads, graph optimization and the symbolic dims of `spec` as engine options.
Result<engines::EngineOptions> engine_options(const ParityFlags& f, const std::string& default_optimization,
                                              const parity::InputSpec& spec);

// A model's fed inputs (graph inputs that are not initializers) and output names, read
// without compiling it: an engine other than twinrt may run models twinrt cannot.
struct ModelIo {
  std::vector<IoInfo> inputs;
  std::vector<std::string> outputs;
};
Result<ModelIo> model_io(const std::string& path);

// The noise-floor settings when --noise-floor is given; --noise-runs and --noise-ulps checked.
Result<std::optional<parity::NoiseSettings>> noise_settings(const ParityFlags& f);

// --policy (a built-in name or a policy file) with --box-format applied to every policy.
Result<parity::PolicySet> load_policy_set(const std::string& policy, const std::string& box_format);

// Writes the JSON and HTML forms of a report to the paths that are not empty.
Status write_report_files(const parity::Report& report, const std::string& json_path, const std::string& html_path);

// Prints the terminal table and writes the JSON and HTML reports when asked.
Status emit_report(const parity::Report& report, const ParityFlags& f);

}  // namespace twinrt::cli
