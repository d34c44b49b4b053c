// `twinrt localize MODEL --engines A,B` and `twinrt localize MODEL_A MODEL_B [--engine E]`:
// the node where two runs first diverge, with each node's own and inherited error.
// Exit 0 when no node's own error exceeds its float budget, 1 when one does, 2 on error.
#include <algorithm>
#include <cstdio>
#include <string>

#include "cli/command.h"
#include "cli/exit_status.h"
#include "cli/parity_commands.h"
#include "cli/progress_bar.h"
#include "cli/version.h"
#include "io/temp_dir.h"
#include "ir/resource_limits.h"
#include "parity/localization.h"

namespace twinrt::cli {

Result<parity::Report> run_localize(const LocalizeFlags& lf) {
  const ParityFlags& f = lf.parity;
  int64_t max_memory = parity::kDefaultLocalizeMemory;
  if (!f.limits.max_memory.empty()) {  // also the sessions' limit (add_limit_flags)
    ASSIGN_OR_RETURN(uint64_t bytes, parse_byte_size(f.limits.max_memory, "--max-memory"));
    max_memory = static_cast<int64_t>(std::min<uint64_t>(bytes, INT64_MAX));
  }
  ASSIGN_OR_RETURN(auto noise, noise_settings(f));
  ASSIGN_OR_RETURN(auto planned, plan_runs(f, ""));
  if (planned.size() != 2)
    return invalid_argument("localize compares exactly two runs; --engines lists " + std::to_string(planned.size()));
  ASSIGN_OR_RETURN(auto spec, to_input_spec(f.inputs));
  ASSIGN_OR_RETURN(auto options, engine_options(f, "disabled", spec));
  ASSIGN_OR_RETURN(ModelIo io, model_io(planned[0].model));
  ASSIGN_OR_RETURN(auto set, parity::build_input_set(io.inputs, spec));
  ASSIGN_OR_RETURN(auto dir, io::TempDir::create("twinrt-localize"));
  parity::LocalizeSetup setup;
  setup.model_a = planned[0].model;
  setup.model_b = planned[1].model;
  setup.engine_a = planned[0].engine;
  setup.engine_b = planned[1].engine;
  setup.label_a = planned[0].label;
  setup.label_b = planned[1].label;
  setup.options = options;
  setup.input = set.cases.front();
  setup.work_dir = dir->path();
  setup.max_memory_bytes = max_memory;
  setup.noise = noise;
  if (ProgressBar bar = make_progress_bar("localize", lf.progress))
    setup.progress = [bar](size_t done, size_t chunks, size_t tensors_done, size_t tensors) {
      bar(tensors_done, tensors, "chunk " + std::to_string(done) + "/" + std::to_string(chunks) + ", " +
                                     std::to_string(tensors_done) + "/" + std::to_string(tensors) + " tensors");
    };
  std::fprintf(stderr, "running %s and %s with every intermediate exposed, a chunk at a time...\n",
               setup.label_a.c_str(), setup.label_b.c_str());
  ASSIGN_OR_RETURN(parity::Report report, parity::localize(setup));
  report.tool_version = kVersion;
  report.inputs = set.description + (set.cases.size() > 1 ? " (first case)" : "");
  report.preprocessing = set.preprocessing;
  for (const auto& p : planned) report.engines.push_back({p.label, p.engine + " (every intermediate exposed)", p.model, true, "", 0});
  return report;
}

Command add_localize_command(CLI::App& root) {
  static LocalizeFlags flags;
  CLI::App* cmd = root.add_subcommand("localize", "find the node where two engines or two models first diverge");
  add_parity_flags(cmd, flags.parity);
  cmd->add_flag("--progress", flags.progress, "show progress on stderr even when it is not a terminal");
  return {cmd, [] {
            auto report = run_localize(flags);
            if (!report) return report_error(report.status());
            if (Status s = emit_report(*report, flags.parity); !s.is_ok()) return report_error(s);
            return static_cast<int>(report->passed ? kExitOk : kExitFailure);
          }};
}

}  // namespace twinrt::cli
