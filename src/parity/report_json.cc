// to_json(Report): the versioned schema documented field by field in
// docs/parity-report-schema.md. Non-finite numbers become the strings "nan", "inf",
// "-inf"; every string is made valid UTF-8 so dump() cannot throw on a model's names.
#include <cmath>

#include "parity/report.h"
#include "parity/report_format.h"

namespace twinrt::parity {
namespace {

using nlohmann::json;

json text(const std::string& s) { return valid_utf8(s); }

json histogram_json(const ErrorHistogram& h) {
  return {{"lowest_decade", h.lowest_decade}, {"counts", h.counts},      {"exact", h.exact},
          {"below_lowest", h.below_lowest},   {"non_finite", h.non_finite}};
}

json probability_json(const std::optional<ProbabilityMetrics>& p) {
  if (!p) return nullptr;
  return {{"rows", p->rows},
          {"top1_agreement", json_number(p->top1_agreement)},
          {"top5_agreement", json_number(p->top5_agreement)},
          {"max_kl", json_number(p->max_kl)},
          {"mean_kl", json_number(p->mean_kl)}};
}

json boxes_json(const std::optional<BoxMetrics>& b) {
  if (!b) return nullptr;
  return {{"reference_boxes", b->reference_boxes},
          {"test_boxes", b->test_boxes},
          {"matched", b->matched},
          {"min_matched_iou", json_number(b->min_matched_iou)},
          {"mean_matched_iou", json_number(b->mean_matched_iou)}};
}

json sums_json(const TensorMetrics::Sums& s) {
  return {{"ref_sq", json_number(s.ref_sq)},     {"test_sq", json_number(s.test_sq)},
          {"ref_test", json_number(s.ref_test)}, {"err_sq", json_number(s.err_sq)},
          {"abs_err", json_number(s.abs_err)},   {"rel_err", json_number(s.rel_err)},
          {"finite", s.finite},                  {"out_of_tolerance", s.out_of_tolerance}};
}

json metrics_json(const TensorMetrics& m) {
  return {{"dtype", text(m.dtype)},
          {"shape", m.shape},
          {"count", m.count},
          {"max_abs", json_number(m.max_abs)},
          {"mean_abs", json_number(m.mean_abs)},
          {"max_rel", json_number(m.max_rel)},
          {"mean_rel", json_number(m.mean_rel)},
          {"mse", json_number(m.mse)},
          {"rmse_relative", json_number(m.rmse_relative)},
          {"cosine", json_number(m.cosine)},
          {"sqnr_db", json_number(m.sqnr_db)},
          {"max_ulp", json_number(m.max_ulp)},
          {"p99_ulp", json_number(m.p99_ulp)},
          {"range_ulp_fp16", json_number(m.range_ulp_fp16)},
          {"range_steps_int8", json_number(m.range_steps_int8)},
          {"fraction_out_of_tolerance", json_number(m.fraction_out_of_tolerance)},
          {"nan_mismatches", m.nan_mismatches},
          {"inf_mismatches", m.inf_mismatches},
          {"max_abs_index", m.max_abs_index},
          {"exact_mismatches", m.exact_mismatches},
          {"shape_mismatches", m.shape_mismatches},
          {"histogram", histogram_json(m.histogram)},
          {"probability", probability_json(m.probability)},
          {"boxes", boxes_json(m.boxes)},
          {"pixel_agreement", m.pixel_agreement ? json_number(*m.pixel_agreement) : json(nullptr)},
          {"sums", sums_json(m.sums)}};
}

json check_json(const CheckResult& r) {
  return {{"metric", text(r.check.metric)},
          {"bound", bound_name(r.check.bound)},
          {"threshold", json_number(r.check.threshold)},
          {"layer", layer_name(r.check.layer)},
          {"any_of_group", text(r.check.any_of_group)},
          {"value", json_number(r.value)},
          {"passed", r.passed}};
}

json verdict_json(const Verdict& v) {
  json checks = json::array();
  for (const CheckResult& r : v.checks) checks.push_back(check_json(r));
  json minimum = json::object();
  for (const auto& [metric, value] : v.minimum_passing) minimum[valid_utf8(metric)] = json_number(value);
  return {{"passed", v.passed},
          {"deciding_layer", layer_name(v.deciding_layer)},
          {"summary", text(v.summary)},
          {"checks", checks},
          {"minimum_passing", minimum}};
}

json expected_json(const std::optional<ExpectedError>& e) {
  if (!e) return nullptr;
  return {{"own_reduction_length", e->own_reduction_length},
          {"own_relative", json_number(e->own_relative)},
          {"relative", json_number(e->relative)},
          {"absolute", json_number(e->absolute)},
          {"saturated", e->saturated},
          {"not_estimable", e->not_estimable.empty() ? json(nullptr) : text(e->not_estimable)}};
}

json noise_json(const std::optional<NoiseFloor>& f) {
  if (!f) return nullptr;
  return {{"runs", f->runs}, {"ulps", f->ulps}, {"max_abs", json_number(f->max_abs)}, {"cosine", json_number(f->cosine)}};
}

json engine_json(const EngineEntry& e) {
  return {{"name", text(e.name)}, {"description", text(e.description)},
          {"model", text(e.model)}, {"ok", e.ok},
          {"error", text(e.error)}, {"mean_run_ms", json_number(e.mean_run_ms)}};
}

json output_json(const OutputComparison& c) {
  return {{"output", text(c.output)},           {"engine", text(c.engine)},
          {"policy", text(c.policy)},           {"metrics", metrics_json(c.metrics)},
          {"verdict", verdict_json(c.verdict)}, {"expected", expected_json(c.expected)},
          {"noise_floor", noise_json(c.noise_floor)}, {"within_noise_floor", c.within_noise_floor}};
}

// An own error that was not measured (negative in LayerEntry) is null, and so is its ratio.
json layer_json(const LayerEntry& l) {
  const bool own_measured = !(l.own_error < 0);
  json carried = json::object();
  for (const auto& [output, error] : l.carried_to_outputs) carried[valid_utf8(output)] = json_number(error);
  return {{"node", text(l.node)},
          {"op", text(l.op)},
          {"tensor", text(l.tensor)},
          {"shape", l.shape},
          {"attributes", text(l.attributes)},
          {"topo_index", l.topo_index},
          {"total_error", json_number(l.total_error)},
          {"own_error", own_measured ? json_number(l.own_error) : json(nullptr)},
          {"inherited_error", json_number(l.inherited_error)},
          {"budget", json_number(l.budget)},
          {"own_over_budget", own_measured ? json_number(l.own_over_budget) : json(nullptr)},
          {"own_source", text(l.own_source)},
          {"carried_to_outputs", carried},
          {"noise", l.noise < 0 ? json(nullptr) : json_number(l.noise)}};
}

json preprocess_json(const PreprocessVariant& p) {
  return {{"mistake", text(p.mistake)}, {"output", text(p.output)}, {"metrics", metrics_json(p.metrics)}};
}

json case_json(const CaseResult& c) {
  json inputs = json::object();
  for (const auto& [name, source] : c.inputs) inputs[valid_utf8(name)] = text(source);
  return {{"case", c.index},          {"name", text(c.name)},     {"inputs", inputs},
          {"engine", text(c.engine)}, {"output", text(c.output)}, {"max_abs", json_number(c.max_abs)},
          {"passed", c.passed}};
}

json final_output_json(const FinalOutputVerdict& v) {
  auto optional_number = [](const std::optional<double>& x) { return x ? json_number(*x) : json(nullptr); };
  return {{"output", text(v.output)},
          {"engine", text(v.engine)},
          {"summary", text(v.summary)},
          {"agrees", v.agrees},
          {"character_error_rate", optional_number(v.character_error_rate)},
          {"min_iou", optional_number(v.min_iou)}};
}

template <class T, class F>
json array_of(const std::vector<T>& items, F&& convert) {
  json out = json::array();
  for (const T& item : items) out.push_back(convert(item));
  return out;
}

}  // namespace

nlohmann::json to_json(const Report& report) {
  json models = json::array();
  for (const std::string& m : report.models) models.push_back(text(m));
  return {{"schema_version", report.schema_version},
          {"command", text(report.command)},
          {"tool_version", text(report.tool_version)},
          {"models", models},
          {"engines", array_of(report.engines, engine_json)},
          {"baseline", text(report.baseline)},
          {"inputs", text(report.inputs)},
          {"preprocessing", valid_utf8_json(report.preprocessing)},
          {"cases", report.cases},
          {"passed", report.passed},
          {"outputs", array_of(report.outputs, output_json)},
          {"layers", array_of(report.layers, layer_json)},
          {"first_divergence", text(report.first_divergence)},
          {"localize_passes", report.localize_passes},
          {"preprocess_check", array_of(report.preprocess_check, preprocess_json)},
          {"case_verdicts", {{"passed", report.cases_passed}, {"failed", report.cases_failed}}},
          {"worst_cases", array_of(report.worst_cases, case_json)},
          {"final_outputs", array_of(report.final_outputs, final_output_json)}};
}

}  // namespace twinrt::parity
