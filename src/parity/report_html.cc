// render_html(Report): one self-contained HTML5 page. Inline CSS, charts as inline SVG
// (svg_charts.cc), no script, no external font, image or link, so it opens the same
// offline, from a CI artifact or an e-mail. Every string from a model, a file or an
// engine goes through html_escape.
#include <algorithm>
#include <cmath>

#include "parity/report.h"
#include "parity/report_format.h"
#include "parity/svg_charts.h"

namespace twinrt::parity {
namespace {

constexpr size_t kRankedNodes = 20;

constexpr const char* kStyle = R"css(
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2329;background:#fafbfc}
main{max-width:1500px;margin:0 auto;padding:16px 24px}
h1{font-size:22px;margin:8px 0}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d0d7de}
h3{font-size:15px;margin:16px 0 6px}
.pass{color:#116329;font-weight:600}.fail{color:#b42318;font-weight:600}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:13px;background:#fff}
th,td{border:1px solid #d0d7de;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#eef1f4;white-space:nowrap}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.failed td{background:#fff4f2}
pre{background:#f3f4f6;padding:6px 8px;margin:4px 0;white-space:pre-wrap;word-break:break-all}
code{font-size:12px}
dl{display:grid;grid-template-columns:max-content auto;gap:2px 16px}dt{font-weight:600}dd{margin:0}
figure{display:inline-block;margin:6px 16px 12px 0;vertical-align:top}figcaption{font-size:12px;color:#57606a}
svg.chart{background:#fff;border:1px solid #d0d7de}
svg .bar{fill:#4c78a8}svg .bar.special{fill:#9aa5b1}
svg .total{fill:#a9c6e8}svg .own{fill:#1f4e89}svg .nonfinite{fill:#d62728}
svg .divergence{fill:#ffe7a3}svg .budget{fill:none;stroke:#d62728;stroke-width:1.5;stroke-dasharray:5 3}
svg .expected{stroke:#d62728;stroke-width:1.5;stroke-dasharray:4 3}
svg .axis{stroke:#57606a}svg .grid{stroke:#e5e8eb}
svg text{font:10px system-ui,sans-serif;fill:#57606a}svg .count{fill:#1d2329}svg .note{fill:#8a4b00;font-weight:600}
.legend span{display:inline-block;margin-right:14px;font-size:12px}
.swatch{display:inline-block;width:12px;height:10px;margin-right:4px;vertical-align:middle}
)css";

}  // namespace

const char* report_stylesheet() { return kStyle; }

namespace {

struct Cell {
  std::string html;
  bool numeric = false;
};

Cell txt(const std::string& s) { return {html_escape(s)}; }
Cell num(double v) { return {html_escape(format_number(v)), true}; }
Cell count(int64_t v) { return {std::to_string(v), true}; }
Cell code(const std::string& s) { return {"<code>" + html_escape(s) + "</code>"}; }
Cell expected_cell(const std::optional<ExpectedError>& e) {
  const std::string why = e && !e->not_estimable.empty() ? ": " + e->not_estimable : "";
  return {html_escape(format_expected(e) + why), why.empty()};
}

std::string verdict_span(bool passed, const std::string& label) {
  return std::string("<span class=\"") + (passed ? "pass" : "fail") + "\">" + html_escape(label) + "</span>";
}

std::string table(const std::vector<std::string>& headers, const std::vector<std::vector<Cell>>& rows,
                  const std::vector<bool>& row_failed = {}) {
  std::string out = "<div class=\"scroll\"><table><thead><tr>";
  for (const std::string& h : headers) out += "<th>" + html_escape(h) + "</th>";
  out += "</tr></thead><tbody>";
  for (size_t r = 0; r < rows.size(); ++r) {
    out += r < row_failed.size() && row_failed[r] ? "<tr class=\"failed\">" : "<tr>";
    for (const Cell& c : rows[r]) out += (c.numeric ? "<td class=\"num\">" : "<td>") + c.html + "</td>";
    out += "</tr>";
  }
  return out + "</tbody></table></div>";
}

std::string summary_section(const Report& report) {
  size_t failed = 0, failed_engines = 0;
  for (const OutputComparison& c : report.outputs) failed += c.verdict.passed ? 0 : 1;
  for (const EngineEntry& e : report.engines) failed_engines += e.ok ? 0 : 1;
  std::string out = "<h1>twinrt " + html_escape(report.command) + ": " +
                    verdict_span(report.passed, report.passed ? "PASS" : "FAIL") + "</h1><p>" +
                    std::to_string(report.outputs.size() - failed) + " of " +
                    std::to_string(report.outputs.size()) + " output comparisons pass against baseline <b>" +
                    html_escape(report.baseline) + "</b>";
  if (failed_engines) out += "; " + std::to_string(failed_engines) + " engine(s) could not run";
  out += ".</p>";
  if (!report.first_divergence.empty()) out += "<p><b>" + html_escape(report.first_divergence) + "</b></p>";
  return out;
}

std::string engines_section(const Report& report) {
  std::vector<std::vector<Cell>> rows;
  std::vector<bool> failed;
  for (const EngineEntry& e : report.engines) {
    Cell status = e.ok ? Cell{verdict_span(true, "ran")}
                       : Cell{verdict_span(false, "failed") + "<pre>" + html_escape(e.error) + "</pre>"};
    rows.push_back({txt(e.name + (e.name == report.baseline ? " (baseline)" : "")), status,
                    txt(e.description), code(e.model),
                    e.mean_run_ms > 0 ? num(e.mean_run_ms) : Cell{"", true}});
    failed.push_back(!e.ok);
  }
  return "<h2 id=\"engines\">Engines</h2>" +
         table({"engine", "status", "description", "model", "mean run (ms)"}, rows, failed);
}

std::string inputs_section(const Report& report) {
  std::string models;
  for (const std::string& m : report.models) models += "<code>" + html_escape(m) + "</code><br>";
  const std::string spec = report.preprocessing.is_null()
      ? "none"
      : "<code>" + html_escape(report.preprocessing.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) +
            "</code>";
  return "<h2 id=\"inputs\">Inputs</h2><dl><dt>models</dt><dd>" + models + "</dd><dt>inputs</dt><dd>" +
         html_escape(report.inputs) + "</dd><dt>cases</dt><dd>" + std::to_string(report.cases) +
         "</dd><dt>preprocessing</dt><dd>" + spec + "</dd><dt>tool version</dt><dd>" +
         html_escape(report.tool_version) + "</dd></dl>";
}

std::string task_metrics(const TensorMetrics& m) {
  std::string out;
  if (m.probability)
    out += "top-1 " + format_number(m.probability->top1_agreement) + ", top-5 " +
           format_number(m.probability->top5_agreement) + ", max KL " + format_number(m.probability->max_kl) +
           " (" + std::to_string(m.probability->rows) + " rows)";
  if (m.boxes)
    out += std::string(out.empty() ? "" : "; ") + "boxes matched " + std::to_string(m.boxes->matched) + " of " +
           std::to_string(m.boxes->reference_boxes) + " (test " + std::to_string(m.boxes->test_boxes) +
           "), min IoU " + format_number(m.boxes->min_matched_iou);
  if (m.pixel_agreement)
    out += std::string(out.empty() ? "" : "; ") + "pixel agreement " + format_number(*m.pixel_agreement);
  return out;
}

std::string minimum_passing(const Verdict& v) {
  std::string out;
  for (const auto& [metric, value] : v.minimum_passing)
    out += (out.empty() ? "" : ", ") + metric + " " + bound_symbol(bound_for_metric(v, metric)) + " " +
           format_number(value);
  return out;
}

std::string results_section(const Report& report) {
  std::vector<std::vector<Cell>> rows, check_rows;
  std::vector<bool> failed, check_failed;
  for (const OutputComparison& c : report.outputs) {
    const TensorMetrics& m = c.metrics;
    rows.push_back({txt(c.output), txt(c.engine), txt(c.policy),
                    {verdict_span(comparison_passed(c), comparison_label(c)) +
                     (c.verdict.passed ? "" : "<br>" + html_escape(c.verdict.summary)) +
                     (c.noise_floor ? "<br>noise floor: " + html_escape(noise_floor_text(*c.noise_floor)) : "")},
                    txt(c.verdict.passed ? "" : minimum_passing(c.verdict)),
                    num(m.max_abs), expected_cell(c.expected),
                    num(m.mean_abs), num(m.max_rel), num(m.mean_rel), num(m.mse), num(m.rmse_relative),
                    num(m.cosine), num(m.sqnr_db), num(m.max_ulp), num(m.p99_ulp),
                    num(m.fraction_out_of_tolerance), count(m.nan_mismatches), count(m.inf_mismatches),
                    count(m.exact_mismatches), txt(task_metrics(m)), txt(m.dtype), txt(format_shape(m.shape)),
                    count(m.count)});
    failed.push_back(!comparison_passed(c));
    for (const CheckResult& r : c.verdict.checks) {
      check_rows.push_back({txt(c.output), txt(c.engine), txt(layer_name(r.check.layer)),
                            txt(r.check.metric + " " + bound_symbol(r.check.bound) + " " +
                                format_number(r.check.threshold)),
                            txt(r.check.any_of_group), num(r.value),
                            {verdict_span(r.passed, r.passed ? "pass" : "FAIL")}});
      check_failed.push_back(!r.passed);
    }
  }
  return "<h2 id=\"results\">Outputs against the baseline</h2>" +
         table({"output", "engine", "policy", "verdict", "minimum passing tolerances", "max abs",
                "expected float error", "mean abs", "max rel", "mean rel", "MSE", "RMSE rel", "cosine",
                "SQNR dB", "max ULP", "p99 ULP", "out of tol", "NaN mism.", "Inf mism.", "exact mism.",
                "task metrics", "dtype", "shape", "elements"},
               rows, failed) +
         "<h3>Checks</h3>" +
         table({"output", "engine", "layer", "check", "any-of group", "measured", "result"}, check_rows,
               check_failed);
}

std::string histograms_section(const Report& report) {
  std::string out = "<h2 id=\"histograms\">Error histograms</h2><p>|test &minus; baseline| per element, one bar "
                    "per decade; bar height is logarithmic in the count. The dashed line marks the expected "
                    "float error.</p>";
  std::vector<std::string> seen;
  for (const OutputComparison& c : report.outputs) {
    if (std::find(seen.begin(), seen.end(), c.output) != seen.end()) continue;
    seen.push_back(c.output);
    out += "<h3>" + html_escape(c.output) + "</h3>";
    for (const OutputComparison& same : report.outputs) {
      if (same.output != c.output) continue;
      const std::optional<double> expected = estimated_absolute(same.expected);
      out += "<figure>" + svg_error_histogram(same.metrics.histogram, expected) + "<figcaption>" +
             html_escape(same.engine + " vs " + report.baseline + ": max abs " + format_number(same.metrics.max_abs) +
                         (expected ? ", expected " + format_number(*expected) : "")) +
             " &middot; " + verdict_span(comparison_passed(same), comparison_label(same)) + "</figcaption></figure>";
    }
  }
  return out;
}

std::string worst_cases_section(const Report& report) {
  std::vector<std::vector<Cell>> rows;
  std::vector<bool> failed;
  for (const CaseResult& c : report.worst_cases) {
    std::string inputs;
    for (const auto& [name, source] : c.inputs) inputs += (inputs.empty() ? "" : ", ") + name + " = " + source;
    rows.push_back({count(c.index), txt(c.name), txt(inputs), txt(c.engine), txt(c.output), num(c.max_abs),
                    {verdict_span(c.passed, c.passed ? "pass" : "FAIL")}});
    failed.push_back(!c.passed);
  }
  return "<h2 id=\"worst-cases\">Worst cases</h2><p>" + std::to_string(report.cases_passed) + " of " +
         std::to_string(report.cases_passed + report.cases_failed) +
         " cases pass on their own. The cases with the largest max abs error (over every output and engine):</p>" +
         table({"case", "name", "inputs", "engine", "output", "max abs", "case verdict"}, rows, failed);
}

std::string final_outputs_section(const Report& report) {
  std::vector<std::vector<Cell>> rows;
  std::vector<bool> differ;
  for (const FinalOutputVerdict& v : report.final_outputs) {
    const auto optional_number = [](const std::optional<double>& x) { return x ? num(*x) : Cell{"-", true}; };
    rows.push_back({txt(v.output), txt(v.engine), txt(v.summary), optional_number(v.character_error_rate),
                    optional_number(v.min_iou), {verdict_span(v.agrees, v.agrees ? "agrees" : "DIFFERS")}});
    differ.push_back(!v.agrees);
  }
  return "<h2 id=\"final-outputs\">Final outputs</h2><p>The pipeline's outputs on each engine against the "
         "baseline's: text by character error rate, boxes matched one to one by IoU.</p>" +
         table({"output", "engine", "verdict", "character error rate", "min IoU", "agreement"}, rows, differ);
}

std::vector<Cell> layer_row(const LayerEntry& l) {
  const bool measured = !(l.own_error < 0);
  std::string carried;
  for (const auto& [output, error] : l.carried_to_outputs)
    carried += (carried.empty() ? "" : ", ") + output + " " + format_number(error);
  return {count(l.topo_index), txt(l.node), txt(l.op), txt(l.tensor), txt(format_shape(l.shape)),
          code(l.attributes), measured ? num(l.own_error) : Cell{"n/a", true}, num(l.inherited_error),
          num(l.total_error), num(l.budget), measured ? num(l.own_over_budget) : Cell{"n/a", true},
          txt(l.own_source), txt(carried), l.noise < 0 ? Cell{"-", true} : num(l.noise)};
}

std::string layers_section(const Report& report) {
  const std::vector<std::string> headers = {"#", "node", "op", "tensor", "shape", "attributes", "own error",
                                            "inherited", "total", "budget", "own / budget", "own measured on",
                                            "carried to outputs", "noise"};
  const LayerEntry* divergence = first_divergence_layer(report);
  std::vector<std::vector<Cell>> ranked_rows, all_rows;
  std::vector<bool> ranked_marks, all_marks;
  const std::vector<const LayerEntry*> ranked = layers_by_own_over_budget(report);
  for (size_t i = 0; i < ranked.size() && i < kRankedNodes; ++i) {
    ranked_rows.push_back(layer_row(*ranked[i]));
    ranked_marks.push_back(ranked[i] == divergence);
  }
  std::vector<const LayerEntry*> topological;
  for (const LayerEntry& l : report.layers) topological.push_back(&l);
  std::stable_sort(topological.begin(), topological.end(),
                   [](const LayerEntry* a, const LayerEntry* b) { return a->topo_index < b->topo_index; });
  for (const LayerEntry* l : topological) {
    all_rows.push_back(layer_row(*l));
    all_marks.push_back(l == divergence);
  }
  return "<h2 id=\"layers\">Per-node errors</h2><p><b>" +
         html_escape(report.first_divergence.empty() ? "first divergence: none (every node within its budget)"
                                                     : report.first_divergence) +
         "</b></p><p class=\"legend\"><span><i class=\"swatch\" style=\"background:#a9c6e8\"></i>total error"
         "</span><span><i class=\"swatch\" style=\"background:#1f4e89\"></i>own error</span><span><i "
         "class=\"swatch\" style=\"background:#d62728\"></i>budget (dashed) / non-finite</span><span><i "
         "class=\"swatch\" style=\"background:#ffe7a3\"></i>first divergence</span></p><div class=\"scroll\">" +
         svg_layer_errors(report.layers, divergence) + "</div><h3>Nodes ranked by own error over budget</h3>" +
         table(headers, ranked_rows, ranked_marks) + "<details><summary>All " +
         std::to_string(report.layers.size()) + " nodes in topological order</summary>" +
         table(headers, all_rows, all_marks) + "</details>";
}

std::string preprocess_section(const Report& report) {
  std::vector<std::vector<Cell>> rows;
  for (const PreprocessVariant& p : report.preprocess_check) {
    const TensorMetrics& m = p.metrics;
    rows.push_back({txt(p.mistake), txt(p.output), num(m.max_abs), num(m.mean_abs), num(m.cosine),
                    num(m.rmse_relative), num(m.sqnr_db), txt(task_metrics(m))});
  }
  return "<h2 id=\"preprocess\">Preprocessing check</h2><p>How far each output moves when the input is "
         "prepared with a common mistake instead of the specification above.</p>" +
         table({"mistake", "output", "max abs", "mean abs", "cosine", "RMSE rel", "SQNR dB", "task metrics"}, rows);
}

}  // namespace

std::string render_html(const Report& report) {
  std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<link rel=\"icon\" href=\"data:,\"><title>twinrt " +
      html_escape(report.command) + ": " + (report.passed ? "PASS" : "FAIL") + "</title><style>" + kStyle +
      "</style></head><body><main>" + summary_section(report) + engines_section(report) +
      inputs_section(report) + (report.final_outputs.empty() ? "" : final_outputs_section(report)) +
      results_section(report);
  if (!report.outputs.empty()) page += histograms_section(report);
  if (report.cases_passed + report.cases_failed > 1) page += worst_cases_section(report);  // one case: the table above
  if (!report.layers.empty()) page += layers_section(report);
  if (!report.preprocess_check.empty()) page += preprocess_section(report);
  page += "<footer><p>twinrt parity report, schema version " + std::to_string(report.schema_version) +
          "</p></footer></main></body></html>\n";
  return page;
}

}  // namespace twinrt::parity
