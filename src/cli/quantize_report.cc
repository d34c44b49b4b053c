// `twinrt quantize-report MODEL [VARIANT...] --inputs... [--make fp16,dynamic,static]`: the
// float model and its variants side by side (quantize_report.h). Exit 0 when every variant
// passes the policy on every case, 1 when one does not (or does not run on twinrt), 2 on bad
// flags, missing files, variants whose inputs or outputs differ from the float model's.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "cli/bench_engines.h"  // split_engine_list
#include "cli/command.h"
#include "cli/compare_flags.h"
#include "cli/exit_status.h"
#include "cli/input_set_flags.h"
#include "cli/quantize_report.h"
#include "io/file_io.h"
#include "io/temp_dir.h"
#include "onnx/loader.h"
#include "onnx/writer.h"
#include "quantize/quantize.h"
#include "runtime/session_impl.h"

namespace twinrt::cli {
namespace {

struct QuantReportFlags {
  std::vector<std::string> models;  // the float model, then the variants
  std::vector<std::string> make;    // fp16, dynamic, static: variants written first
  bool per_channel = false;         // for --make's int8 variants
  std::string policy = "int8";
  std::string engines = "twinrt,ort";
  int runs = 5, warmup = 1, threads = 1;
  InputSetFlags inputs;
  std::string json_path, html_path;
};

std::string base_name(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

// "name float32[1,3,8,8]" for each fed input and output, in order.
std::vector<std::string> interface_of(const ir::Model& m) {
  std::vector<std::string> io;
  for (const auto& v : m.graph->inputs)
    if (!m.graph->initializers.count(v.name)) io.push_back("input " + v.name + " " + io_info(v).describe());
  for (const auto& v : m.graph->outputs) io.push_back("output " + v.name + " " + io_info(v).describe());
  return io;
}

Status check_same_interface(const std::string& float_path, const std::string& variant_path) {
  ASSIGN_OR_RETURN(ir::Model a, onnx::load_model_file(float_path));
  ASSIGN_OR_RETURN(ir::Model b, onnx::load_model_file(variant_path));
  const auto ia = interface_of(a), ib = interface_of(b);
  for (const std::string& s : ia)
    if (std::find(ib.begin(), ib.end(), s) == ib.end())
      return invalid_argument(variant_path + " is not a variant of " + float_path + ": it has no " + s +
                              " (inputs and outputs must keep their names, types and shapes; for float16, "
                              "quantize --fp16 --keep-io-types)");
  if (ia.size() != ib.size())
    return invalid_argument(variant_path + " has other inputs or outputs than " + float_path);
  return Status::ok();
}

Status check_flags(const QuantReportFlags& f) {
  for (const std::string& path : f.models)
    if (io::file_size_or_minus_one(path) < 0) return invalid_argument("no such model file: " + path);
  if (f.models.size() < 2 && f.make.empty())
    return invalid_argument("give the variants to report on (VARIANT files made with `twinrt quantize`) or --make fp16,dynamic,static");
  if (!gives_input_values(f.inputs))
    return invalid_argument("give the inputs to measure accuracy on: --input, --cases, --test-data or --image");
  if (f.runs < 1 || f.warmup < 0) return invalid_argument("--runs must be at least 1 and --warmup at least 0");
  if (f.threads < 1 || f.threads > 256) return invalid_argument("--threads must be between 1 and 256");
  ASSIGN_OR_RETURN(auto engines, split_engine_list(f.engines));
  for (const std::string& e : engines) TRY(check_engine_name(e).with_context("--engines: "));
  return Status::ok();
}

// --make: each variant written into `dir` from the float model (static: calibrated on the
// report's own inputs), named like `twinrt quantize` output would be.
Result<std::vector<std::string>> make_variants(const QuantReportFlags& f, const parity::InputSet& inputs,
                                               const io::TempDir& dir) {
  ASSIGN_OR_RETURN(ir::Model float_model, onnx::load_model_file(f.models.front()));
  std::vector<quantize::Feeds> feeds;
  for (const auto& c : inputs.cases) feeds.push_back(c.tensors);
  quantize::QuantizeOptions options;
  options.per_channel = f.per_channel;
  std::vector<std::string> paths;
  std::string stem = base_name(f.models.front());
  stem = stem.substr(0, stem.rfind(".onnx"));
  for (const std::string& kind : f.make) {
    ir::Model model = float_model;
    Result<quantize::QuantizeSummary> done = invalid_argument("--make: unknown variant '" + kind + "' (expected fp16, dynamic or static)");
    if (kind == "fp16") {
      quantize::QuantizeOptions fp16 = options;
      fp16.keep_io_types = true;
      done = quantize::convert_fp16(model, fp16, feeds);
    } else if (kind == "dynamic") {
      done = quantize::quantize_dynamic(model, options);
    } else if (kind == "static") {
      done = quantize::quantize_static(model, options, feeds, nullptr);
    }
    if (!done) return done.status().with_context("--make " + kind + ": ");
    paths.push_back(dir.file(stem + "_" + kind + ".onnx"));
    TRY(onnx::write_model_file(model, paths.back()));
  }
  return paths;
}

// Class scores ([N, C] outputs) also get top-1 agreement, whatever the policy checks.
void ask_top1_for_class_scores(parity::PolicySet& policies, const parity::EngineRun& float_run) {
  for (const auto& [name, t] : float_run.per_case.front()) {
    if (t.shape().size() != 2 || t.shape()[1] < 2) continue;
    parity::Policy p = policies.for_output(name);
    p.compare.probability = true;
    policies.per_output[name] = std::move(p);
  }
}

Result<QuantReport> build_report(const QuantReportFlags& f) {
  TRY(check_flags(f));
  ASSIGN_OR_RETURN(parity::PolicySet policies, load_policy_set(f.policy, ""));
  ASSIGN_OR_RETURN(ModelIo io, model_io(f.models.front()));
  ASSIGN_OR_RETURN(parity::InputSpec spec, to_input_spec(f.inputs));
  ASSIGN_OR_RETURN(parity::InputSet inputs, parity::build_input_set(io.inputs, spec));
  if (inputs.cases.empty()) return invalid_argument("the inputs hold no case");
  ASSIGN_OR_RETURN(auto dir, io::TempDir::create("twinrt-quantize-report"));
  std::vector<std::string> paths = f.models;
  if (!f.make.empty()) {
    ASSIGN_OR_RETURN(auto made, make_variants(f, inputs, *dir));
    paths.insert(paths.end(), made.begin(), made.end());
  }
  for (size_t i = 1; i < paths.size(); ++i) TRY(check_same_interface(paths.front(), paths[i]));

  MeasureSettings settings;
  ASSIGN_OR_RETURN(settings.engines, split_engine_list(f.engines));
  settings.options.threads = f.threads;
  settings.options.dim_overrides = spec.dims;
  settings.runs = f.runs;
  settings.warmup = f.warmup;
  settings.work_dir = dir->path();
  const parity::EngineRun float_run = parity::run_cases_on("twinrt", settings.options, "float", paths.front(), inputs, io.outputs);
  if (!float_run.entry.ok) return invalid_argument("the float model does not run on twinrt: " + float_run.entry.error);
  ask_top1_for_class_scores(policies, float_run);

  QuantReport report;
  report.model = f.models.front();
  report.policy = f.policy;
  report.inputs = inputs.description;
  report.cases = static_cast<int>(inputs.cases.size());
  report.runs = f.runs;
  report.warmup = f.warmup;
  report.threads = f.threads;
  report.engines = settings.engines;
  for (size_t i = 0; i < paths.size(); ++i) {
    VariantReport v;
    v.label = i == 0 ? "float" : base_name(paths[i]);
    v.path = paths[i];
    measure_variant(v, i == 0, float_run, paths.front(), inputs, io.outputs, policies, settings);
    report.variants.push_back(std::move(v));
  }
  return report;
}

int run_quantize_report(const QuantReportFlags& f) {
  auto report = build_report(f);
  if (!report) return report_error(report.status());
  std::fputs(render_quant_terminal(*report).c_str(), stdout);
  std::fflush(stdout);
  if (!f.json_path.empty())
    if (Status s = io::write_file_bytes(f.json_path, quant_report_json(*report).dump(2) + "\n"); !s.is_ok())
      return report_error(s);
  if (!f.html_path.empty())
    if (Status s = io::write_file_bytes(f.html_path, render_quant_html(*report)); !s.is_ok()) return report_error(s);
  bool all_pass = true;
  for (const VariantReport& v : report->variants)
    all_pass &= v.error.empty() && v.cases_passed == report->cases;
  return all_pass ? kExitOk : kExitFailure;
}

}  // namespace

Command add_quantize_report_command(CLI::App& root) {
  auto f = std::make_shared<QuantReportFlags>();
  CLI::App* cmd = root.add_subcommand("quantize-report",
                                      "a float model and its quantized variants side by side: size, latency, accuracy, "
                                      "per-layer error");
  cmd->add_option("models", f->models, "the float model, then its variants (from `twinrt quantize`)")->required();
  cmd->add_option("--make", f->make, "also write these variants from the float model first: fp16,dynamic,static "
                                     "(static calibrated on the inputs)")
      ->delimiter(',');
  cmd->add_flag("--per-channel", f->per_channel, "with --make: per-channel int8 weights");
  cmd->add_option("--policy", f->policy, "parity policy against the float model (fp16, int8, classification, ... or FILE.json)")
      ->capture_default_str();
  cmd->add_option("--engines", f->engines, "engines timed on every file: twinrt, ort, twinrt-wasm, ort-web, ...")
      ->capture_default_str();
  cmd->add_option("--runs", f->runs, "timed runs per engine and file")->capture_default_str();
  cmd->add_option("--warmup", f->warmup, "untimed runs before them")->capture_default_str();
  cmd->add_option("--threads", f->threads, "intra-op threads for every engine")->capture_default_str();
  cmd->add_option("--json", f->json_path, "write the report as JSON to this file");
  cmd->add_option("--html", f->html_path, "write the report as a self-contained HTML page");
  add_input_set_flags(cmd, f->inputs);
  return {cmd, [f] { return run_quantize_report(*f); }};
}

}  // namespace twinrt::cli
