#include "cli/compare_flags.h"

#include <algorithm>
#include <cstdio>

#include "cli/bench_engines.h"
#include "io/file_io.h"
#include "onnx/loader.h"
#include "runtime/session_impl.h"

namespace twinrt::cli {

void add_parity_flags(CLI::App* cmd, ParityFlags& f) {
  cmd->add_option("models", f.models, "MODEL, or MODEL_A MODEL_B to compare two models")
      ->required()
      ->expected(1, 2);
  cmd->add_option("--engines", f.engines, "engines to compare on one model, e.g. twinrt,ort,ort-web");
  cmd->add_option("--engine", f.engine, "engine that runs both models (default twinrt)");
  cmd->add_option("--threads", f.threads, "intra-op threads for every engine (default 1)");
  cmd->add_option("--graph-optimization", f.graph_optimization,
                  "ONNX Runtime graph optimization: disabled, basic, extended, all");
  cmd->add_option("--json", f.json_path, "write the report as JSON to this file");
  cmd->add_option("--html", f.html_path, "write the report as a self-contained HTML page");
  add_input_set_flags(cmd, f.inputs);
  cmd->add_flag("--noise-floor", f.noise_floor,
                "also rerun the baseline on inputs moved by a few ULPs: how much the model itself moves");
  cmd->add_option("--noise-runs", f.noise_runs, "perturbed reruns for --noise-floor (default 3)");
  cmd->add_option("--noise-ulps", f.noise_ulps, "largest input perturbation for --noise-floor, in ULPs (default 2)");
  add_limit_flags(cmd, f.limits);
}

Result<std::optional<parity::NoiseSettings>> noise_settings(const ParityFlags& f) {
  if (f.noise_runs < 1 || f.noise_runs > 100)
    return invalid_argument("--noise-runs must be between 1 and 100, got " + std::to_string(f.noise_runs));
  if (f.noise_ulps < 1 || f.noise_ulps > 1000)
    return invalid_argument("--noise-ulps must be between 1 and 1000, got " + std::to_string(f.noise_ulps));
  if (!f.noise_floor) return std::optional<parity::NoiseSettings>();
  parity::NoiseSettings n;
  n.runs = f.noise_runs;
  n.ulps = f.noise_ulps;
  return std::optional<parity::NoiseSettings>(n);
}

namespace {

std::string base_name(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

Status check_engine_name(const std::string& name) {
  const auto known = engines::engine_names();
  // twinrt's native engines take an ISA tier after a colon ("twinrt-exact:avx2"),
  // checked when the engine is made.
  const std::string base = name.substr(0, name.find(':'));
  if (std::find(known.begin(), known.end(), base) != known.end() && (base == name || base.rfind("twinrt", 0) == 0))
    return Status::ok();
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  return invalid_argument("unknown engine '" + name + "' (known: " + list + ")");
}

Result<std::vector<PlannedRun>> plan_runs(const ParityFlags& f, const std::string& baseline) {
  std::vector<PlannedRun> runs;
  if (f.models.size() == 2) {
    if (!f.engines.empty()) return invalid_argument("--engines compares one model; with two models give --engine");
    if (!baseline.empty()) return invalid_argument("--baseline applies to --engines; with two models the first is the baseline");
    TRY(check_engine_name(f.engine));
    // File names tell the two apart unless they are equal (same name in two folders).
    const bool same_name = base_name(f.models[0]) == base_name(f.models[1]);
    for (size_t i = 0; i < 2; ++i) {
      const std::string shown = same_name ? f.models[i] : base_name(f.models[i]);
      runs.push_back({std::string(i == 0 ? "A: " : "B: ") + shown, f.engine, f.models[i]});
    }
    return runs;
  }
  if (f.engines.empty()) return invalid_argument("give --engines A,B,... (two or more) to compare engines on one model");
  ASSIGN_OR_RETURN(auto names, split_engine_list(f.engines));
  if (names.size() < 2) return invalid_argument("--engines needs at least two engines, got '" + f.engines + "'");
  for (const auto& n : names) {
    TRY(check_engine_name(n));
    if (std::count(names.begin(), names.end(), n) > 1) return invalid_argument("--engines lists '" + n + "' twice");
  }
  if (!baseline.empty()) {
    auto it = std::find(names.begin(), names.end(), baseline);
    if (it == names.end()) return invalid_argument("--baseline '" + baseline + "' is not one of --engines");
    std::rotate(names.begin(), it, it + 1);
  }
  for (const auto& n : names) runs.push_back({n, n, f.models[0]});
  return runs;
}

Result<engines::EngineOptions> engine_options(const ParityFlags& f, const std::string& default_optimization,
                                              const parity::InputSpec& spec) {
  if (f.threads < 0 || f.threads > kMaxThreads)
    return invalid_argument("--threads must be between 0 (all hardware threads) and " + std::to_string(kMaxThreads) +
                            ", got " + std::to_string(f.threads));
  engines::EngineOptions o;
  o.threads = f.threads;
  TRY(apply_limit_flags(f.limits));
  o.graph_optimization = f.graph_optimization.empty() ? default_optimization : f.graph_optimization;
  static const char* kLevels[] = {"disabled", "basic", "extended", "all"};
  if (std::none_of(std::begin(kLevels), std::end(kLevels), [&](const char* l) { return o.graph_optimization == l; }))
    return invalid_argument("--graph-optimization must be disabled, basic, extended or all, got '" +
                            o.graph_optimization + "'");
  o.dim_overrides = spec.dims;
  return o;
}

Result<ModelIo> model_io(const std::string& path) {
  ASSIGN_OR_RETURN(ir::Model model, onnx::load_model_file(path));
  ModelIo io;
  for (const auto& v : model.graph->inputs)
    if (!model.graph->initializers.count(v.name)) io.inputs.push_back(io_info(v));
  for (const auto& v : model.graph->outputs) io.outputs.push_back(v.name);
  return io;
}

Result<parity::PolicySet> load_policy_set(const std::string& policy, const std::string& box_format) {
  parity::PolicySet set;
  if (policy.size() > 5 && policy.compare(policy.size() - 5, 5, ".json") == 0) {
    ASSIGN_OR_RETURN(set, parity::load_policy_file(policy));
  } else {
    auto p = parity::builtin_policy(policy);
    if (!p) return invalid_argument("--policy: " + p.status().message());
    set = parity::single_policy(std::move(*p));
  }
  if (!box_format.empty()) {
    ASSIGN_OR_RETURN(parity::BoxFormat format, parity::parse_box_format(box_format));
    set.default_policy.compare.box_format = format;
    for (auto& [name, p] : set.per_output) p.compare.box_format = format;
  }
  return set;
}

Status write_report_files(const parity::Report& report, const std::string& json_path, const std::string& html_path) {
  if (!json_path.empty()) TRY(io::write_file_bytes(json_path, parity::to_json(report).dump(2) + "\n"));
  if (!html_path.empty()) TRY(io::write_file_bytes(html_path, parity::render_html(report)));
  return Status::ok();
}

Status emit_report(const parity::Report& report, const ParityFlags& f) {
  std::fputs(parity::render_terminal(report).c_str(), stdout);
  std::fflush(stdout);
  return write_report_files(report, f.json_path, f.html_path);
}

}  // namespace twinrt::cli
