// `twinrt quantize MODEL -o OUT --dynamic|--static|--fp16 [options]`: writes an int8 or float16 ONNX model
// (src/quantize/quantize.h) and prints what was quantized and the file sizes.
#include <sys/stat.h>

#include <cstdio>
#include <optional>

#include "cli/command.h"
#include "cli/exit_status.h"
#include "cli/compare_flags.h"
#include "cli/input_set_flags.h"
#include "cli/progress_bar.h"
#include "cli/quantize_search.h"
#include "io/file_io.h"
#include "onnx/loader.h"
#include "onnx/writer.h"
#include "quantize/quantize.h"

namespace twinrt::cli {
namespace {

struct QuantizeFlags {
  std::string model, output;
  bool dynamic = false, is_static = false, fp16 = false, keep_io_types = false, per_channel = false,
       reduce_range = false;
  std::string calibrate;  // a folder of cases, or an input file
  std::string method = "minmax";
  std::string activation_type = "uint8";
  bool symmetric = false;
  double percentile = 99.999;
  std::vector<std::string> exclude, exclude_ops;
  InputSetFlags inputs;
  std::optional<double> target;  // --target: share of calibration cases passing --policy
  std::string policy;
  int max_steps = 10;
  bool progress = false;
};

bool is_directory(const std::string& path) {
  struct stat st{};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

Result<quantize::QuantizeOptions> options_of(const QuantizeFlags& f) {
  quantize::QuantizeOptions o;
  o.per_channel = f.per_channel;
  o.reduce_range = f.reduce_range;
  o.keep_io_types = f.keep_io_types;
  o.exclude_nodes.insert(f.exclude.begin(), f.exclude.end());
  o.exclude_ops.insert(f.exclude_ops.begin(), f.exclude_ops.end());
  if (f.method == "percentile") o.calibration = quantize::Calibration::kPercentile;
  else if (f.method == "entropy") o.calibration = quantize::Calibration::kEntropy;
  else if (f.method != "minmax")
    return invalid_argument("--method: unknown calibration method '" + f.method + "' (expected minmax, percentile or entropy)");
  if (!(f.percentile > 50.0 && f.percentile <= 100.0)) return invalid_argument("--percentile must be in (50, 100]");
  o.percentile = f.percentile;
  if (f.activation_type != "uint8" && f.activation_type != "int8")
    return invalid_argument("--activation-type must be uint8 or int8, got '" + f.activation_type + "'");
  if ((f.activation_type == "int8" || f.symmetric) && !f.is_static)
    return invalid_argument("--activation-type and --symmetric go with --static");
  o.int8_activations = f.activation_type == "int8";
  o.symmetric_activations = f.symmetric;
  return o;
}

bool has_calibration_inputs(const QuantizeFlags& f) { return !f.calibrate.empty() || gives_input_values(f.inputs); }

std::vector<quantize::Feeds> feeds_of(const parity::InputSet& inputs) {
  std::vector<quantize::Feeds> cases;
  for (const auto& c : inputs.cases) cases.push_back(c.tensors);
  return cases;
}

// "calibration 3/8 runs" on the bar, or nothing without one.
std::function<void(size_t, size_t)> runs_progress(const ProgressBar& bar, const std::string& what) {
  if (!bar) return nullptr;
  return [bar, what](size_t done, size_t total) {
    bar(done, total, what + " " + std::to_string(done) + "/" + std::to_string(total) + " runs");
  };
}

// The calibration cases: --calibrate (a case folder or an input file) and the input-set flags.
Result<parity::InputSet> calibration_inputs(const QuantizeFlags& f) {
  InputSetFlags flags = f.inputs;
  if (!f.calibrate.empty()) {
    if (is_directory(f.calibrate)) flags.cases_dir = f.calibrate;
    else flags.inputs.push_back(f.calibrate);
  }
  if (!has_calibration_inputs(f))
    return invalid_argument("--static needs calibration inputs: --calibrate DIR|FILE, --cases, --test-data, --input or --image");
  ASSIGN_OR_RETURN(parity::InputSpec spec, to_input_spec(flags));
  ASSIGN_OR_RETURN(auto session, Session::load(f.model, SessionOptions{}));
  ASSIGN_OR_RETURN(parity::InputSet set, parity::build_input_set(session->inputs(), spec));
  if (set.cases.empty()) return invalid_argument("the calibration inputs hold no case");
  return set;
}

// --fp16: with calibration inputs, the nodes that overflow float16 on them stay float32.
Result<quantize::QuantizeSummary> convert_fp16_command(const QuantizeFlags& f, const quantize::QuantizeOptions& options,
                                                       ir::Model& model) {
  if (!has_calibration_inputs(f)) return quantize::convert_fp16(model, options);
  ASSIGN_OR_RETURN(parity::InputSet inputs, calibration_inputs(f));
  const ProgressBar bar = make_progress_bar("quantize", f.progress);
  return quantize::convert_fp16(model, options, feeds_of(inputs), runs_progress(bar, "float16 range check"));
}

// Flag combinations that only make sense together, checked before any work.
Status check_search_flags(const QuantizeFlags& f) {
  if (!f.target) {
    if (!f.policy.empty()) return invalid_argument("--policy goes with --target");
    return Status::ok();
  }
  if (!f.is_static) return invalid_argument("--target needs --static (the search compares on the calibration inputs)");
  if (!(*f.target > 0.0 && *f.target <= 1.0))
    return invalid_argument("--target must be in (0, 1]: the share of calibration cases that must pass the policy, got " +
                            std::to_string(*f.target));
  if (f.policy.empty()) return invalid_argument("--target needs --policy NAME|FILE.json (e.g. int8, classification)");
  if (f.max_steps < 1) return invalid_argument("--max-steps must be at least 1");
  return Status::ok();
}

// --static: calibrate once; with --target, search for the nodes to keep in float.
Result<quantize::QuantizeSummary> quantize_static_command(const QuantizeFlags& f, const quantize::QuantizeOptions& options,
                                                          ir::Model& model) {
  std::optional<parity::PolicySet> policies;
  if (f.target) {
    ASSIGN_OR_RETURN(policies, load_policy_set(f.policy, ""));
  }
  ASSIGN_OR_RETURN(parity::InputSet inputs, calibration_inputs(f));
  const ProgressBar bar = make_progress_bar("quantize", f.progress);
  ASSIGN_OR_RETURN(quantize::ActivationRanges ranges,
                   quantize::calibrate_static(model, options, feeds_of(inputs), runs_progress(bar, "calibration")));
  if (!f.target) return quantize::write_static_qdq(model, options, ranges);
  ir::Model full = model;
  ASSIGN_OR_RETURN(quantize::QuantizeSummary all, quantize::write_static_qdq(full, options, ranges));
  std::vector<std::string> candidates;
  for (const std::string& n : all.quantized_nodes)
    if (!n.empty()) candidates.push_back(n);  // --exclude needs a name
  SearchRequest request{&model, f.model, options, std::move(ranges), &inputs, std::move(*policies), *f.target, f.max_steps, bar};
  ASSIGN_OR_RETURN(quantize::SearchOutcome out, run_sensitivity_search(request, candidates));
  quantize::QuantizeOptions chosen = options;
  for (const std::string& n : out.steps[out.chosen].kept_float) chosen.exclude_nodes.insert(n);
  ASSIGN_OR_RETURN(quantize::QuantizeSummary summary, quantize::write_static_qdq(model, chosen, request.ranges));
  summary.target_met = out.met;
  return summary;
}

void print_summary(const QuantizeFlags& f, const quantize::QuantizeSummary& s) {
  std::printf("%s (%s%s%s%s%s):", f.fp16 ? "converted" : "quantized", f.fp16 ? "float16" : f.dynamic ? "dynamic" : "static QDQ",
              f.per_channel ? ", per-channel" : "", f.reduce_range ? ", 7-bit weights" : "",
              f.activation_type == "int8" ? ", int8 activations" : "", f.symmetric ? ", symmetric activations" : "");
  for (const auto& [op, count] : s.quantized) std::printf(" %s %d", op.c_str(), count);
  std::printf("\n%s weight elements: %lld\n", f.fp16 ? "float16" : "int8", static_cast<long long>(s.weights_quantized));
  for (const std::string& why : s.skipped) std::printf("kept in float: %s\n", why.c_str());
  const int64_t before = io::file_size_or_minus_one(f.model), after = io::file_size_or_minus_one(f.output);
  if (before > 0 && after >= 0)
    std::printf("file size: %lld -> %lld bytes (%.1f%%)\n", static_cast<long long>(before), static_cast<long long>(after),
                100.0 * static_cast<double>(after) / static_cast<double>(before));
}

int run_quantize(const QuantizeFlags& f) {
  if (int{f.dynamic} + int{f.is_static} + int{f.fp16} != 1)
    return report_error(invalid_argument("give exactly one of --dynamic, --static and --fp16"));
  if (f.keep_io_types && !f.fp16) return report_error(invalid_argument("--keep-io-types goes with --fp16"));
  if (Status s = check_search_flags(f); !s.is_ok()) return report_error(s);
  auto options = options_of(f);
  if (!options) return report_error(options.status());
  auto model = onnx::load_model_file(f.model);
  if (!model) return report_error(model.status());
  Result<quantize::QuantizeSummary> summary = quantize::QuantizeSummary{};
  if (f.fp16) {
    summary = convert_fp16_command(f, *options, *model);
  } else if (f.dynamic) {
    summary = quantize::quantize_dynamic(*model, *options);
  } else {
    summary = quantize_static_command(f, *options, *model);
  }
  if (!summary) return report_error(summary.status());
  if (Status s = onnx::write_model_file(*model, f.output); !s.is_ok()) return report_error(s);
  print_summary(f, *summary);
  return summary->target_met ? kExitOk : kExitFailure;
}

}  // namespace

Command add_quantize_command(CLI::App& root) {
  auto f = std::make_shared<QuantizeFlags>();
  CLI::App* cmd = root.add_subcommand("quantize", "write an int8 (dynamic or static QDQ) version of a float model");
  cmd->add_option("MODEL", f->model, "float ONNX model")->required();
  cmd->add_option("-o,--output", f->output, "where to write the quantized model")->required();
  cmd->add_flag("--dynamic", f->dynamic, "int8 weights, activations quantized at run time (MatMulInteger/ConvInteger)");
  cmd->add_flag("--static", f->is_static, "QDQ format with activation ranges from calibration inputs");
  cmd->add_flag("--fp16", f->fp16, "float16 weights and computation");
  cmd->add_flag("--keep-io-types", f->keep_io_types, "with --fp16: graph inputs and outputs stay float32");
  cmd->add_flag("--per-channel", f->per_channel, "one weight scale per output channel (default: per tensor)");
  cmd->add_flag("--reduce-range", f->reduce_range,
                "7-bit Conv/MatMul/Gemm weights in [-64, 64]: faster AVX2 tiles, slightly coarser weights");
  cmd->add_option("--activation-type", f->activation_type, "with --static: uint8 (u8s8) or int8 (s8s8) activations")
      ->capture_default_str();
  cmd->add_flag("--symmetric", f->symmetric, "with --static: symmetric activation ranges (int8 zero point 0, uint8 128)");
  cmd->add_option("--calibrate", f->calibrate, "calibration inputs: a folder of case folders, or an input file (.npz)");
  cmd->add_option("--method", f->method, "calibration method: minmax, percentile or entropy (least KL divergence)")->capture_default_str();
  cmd->add_option("--percentile", f->percentile, "percentile kept by --method percentile")->capture_default_str();
  cmd->add_option("--exclude", f->exclude, "node names to keep in float (comma-separated, repeatable)")->delimiter(',');
  cmd->add_option("--exclude-op", f->exclude_ops, "op types to keep in float (comma-separated, repeatable)")->delimiter(',');
  cmd->add_option("--target", f->target,
                  "sensitivity search: keep the most sensitive nodes in float until this share (0, 1] of the "
                  "calibration cases passes --policy against the float model");
  cmd->add_option("--policy", f->policy, "with --target: the parity policy (fp32, fp16, int8, classification, ... or FILE.json)");
  cmd->add_option("--max-steps", f->max_steps, "with --target: at most this many nodes kept in float by the search")
      ->capture_default_str();
  cmd->add_flag("--progress", f->progress, "progress bar on stderr even when it is not a terminal");
  add_input_set_flags(cmd, f->inputs);
  return {cmd, [f] { return run_quantize(*f); }};
}

}  // namespace twinrt::cli
