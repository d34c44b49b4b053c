// The three forms of a QuantReport: a terminal table (one row per variant and output), JSON
// for machines and one self-contained HTML page with a per-layer error chart per variant.
#include <algorithm>
#include <cstdio>

#include "cli/quantize_report.h"
#include "parity/report.h"
#include "parity/report_format.h"
#include "parity/svg_charts.h"

namespace twinrt::cli {
namespace {

using parity::format_number;

double size_percent(const QuantReport& r, const VariantReport& v) {
  const int64_t base = r.variants.front().bytes;
  return base > 0 ? 100.0 * static_cast<double>(v.bytes) / static_cast<double>(base) : 0;
}

std::string latency_text(const EngineLatency& l) { return l.error.empty() ? format_number(l.p50_ms) : "-"; }

std::string top1_text(const OutputAccuracy& a) { return a.top1_agreement ? format_number(*a.top1_agreement) : "-"; }

std::string cases_text(const QuantReport& r, const VariantReport& v) {
  return std::to_string(v.cases_passed) + "/" + std::to_string(r.cases);
}

// "conv2 (Conv) adds 0.041" for the layer whose rounding adds the most relative error.
std::string worst_layer_text(const VariantReport& v) {
  if (!v.layers_error.empty()) return "not measured: " + v.layers_error;
  const parity::LayerQuantError* w = parity::worst_layer(v.layers);
  if (!w) return "none (no layer adds error)";
  return w->node + " (" + w->op + ") adds " + format_number(w->added) + " to rmse_relative (" +
         format_number(w->rmse_relative) + " at its output)";
}

// Rows of cells printed in columns as wide as their widest cell.
std::string align(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width;
  for (const auto& row : rows)
    for (size_t i = 0; i < row.size(); ++i) {
      if (width.size() <= i) width.push_back(0);
      width[i] = std::max(width[i], row[i].size());
    }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) line += row[i] + std::string(i + 1 < row.size() ? width[i] - row[i].size() + 2 : 0, ' ');
    out += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
  }
  return out;
}

std::string percent_text(double percent) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", percent);
  return text;
}

}  // namespace

std::string render_quant_terminal(const QuantReport& r) {
  std::string out = "quantize-report: " + r.model + "; policy " + r.policy + "; " + std::to_string(r.cases) +
                    " case(s): " + r.inputs + "\nlatency: p50 of " + std::to_string(r.runs) + " runs after " +
                    std::to_string(r.warmup) + " warm-up, first case, " + std::to_string(r.threads) +
                    " thread(s); accuracy: twinrt, every case, against the float model\n";
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"variant", "bytes", "size"});
  for (const std::string& e : r.engines) rows.back().push_back(e + " ms");
  for (const char* h : {"output", "top-1", "cosine", "max abs", "SQNR dB", "policy", "cases passing"}) rows.back().push_back(h);
  std::string failures;
  for (const VariantReport& v : r.variants) {
    std::vector<std::string> head = {v.label, std::to_string(v.bytes), percent_text(size_percent(r, v))};
    for (const EngineLatency& l : v.latency) head.push_back(latency_text(l));
    if (!v.error.empty()) {
      head.push_back("does not run on twinrt (below)");
      rows.push_back(head);
      failures += v.label + " does not run on twinrt: " + v.error + "\n";
      continue;
    }
    for (size_t i = 0; i < v.accuracy.size(); ++i) {
      const OutputAccuracy& a = v.accuracy[i];
      std::vector<std::string> row = i == 0 ? head : std::vector<std::string>(head.size());
      for (const std::string& c : {a.output, top1_text(a), format_number(a.cosine), format_number(a.max_abs),
                                   format_number(a.sqnr_db), std::string(a.passed ? "PASS" : "FAIL"),
                                   i == 0 ? cases_text(r, v) : std::string()})
        row.push_back(c);
      rows.push_back(std::move(row));
    }
  }
  out += align(rows) + failures;
  for (const VariantReport& v : r.variants)
    for (const EngineLatency& l : v.latency)
      if (!l.error.empty()) out += v.label + " on " + l.engine + ": no time: " + l.error + "\n";
  for (size_t i = 1; i < r.variants.size(); ++i)
    if (r.variants[i].error.empty()) out += "worst layer of " + r.variants[i].label + ": " + worst_layer_text(r.variants[i]) + "\n";
  return out;
}

nlohmann::json quant_report_json(const QuantReport& r) {
  using parity::json_number;
  nlohmann::json variants = nlohmann::json::array();
  for (const VariantReport& v : r.variants) {
    nlohmann::json latency = nlohmann::json::object(), latency_errors = nlohmann::json::object();
    for (const EngineLatency& l : v.latency) {
      if (l.error.empty()) latency[l.engine] = json_number(l.p50_ms);
      else latency_errors[l.engine] = l.error;
    }
    nlohmann::json accuracy = nlohmann::json::array();
    for (const OutputAccuracy& a : v.accuracy)
      accuracy.push_back({{"output", a.output},
                          {"top1_agreement", a.top1_agreement ? json_number(*a.top1_agreement) : nlohmann::json()},
                          {"cosine", json_number(a.cosine)},
                          {"max_abs", json_number(a.max_abs)},
                          {"sqnr_db", json_number(a.sqnr_db)},
                          {"passed", a.passed},
                          {"verdict", a.verdict}});
    nlohmann::json layers = nlohmann::json::array();
    for (const parity::LayerQuantError& l : v.layers)
      layers.push_back({{"node", l.node}, {"op", l.op}, {"tensor", l.tensor}, {"topo_index", l.topo_index},
                        {"rmse_relative", json_number(l.rmse_relative)}, {"sqnr_db", json_number(l.sqnr_db)},
                        {"added", json_number(l.added)}});
    const parity::LayerQuantError* worst = parity::worst_layer(v.layers);
    variants.push_back({{"label", v.label},
                        {"path", v.path},
                        {"bytes", v.bytes},
                        {"size_percent_of_float", json_number(size_percent(r, v))},
                        {"latency_p50_ms", latency},
                        {"latency_errors", latency_errors},
                        {"error", v.error.empty() ? nlohmann::json() : nlohmann::json(v.error)},
                        {"accuracy", accuracy},
                        {"cases_passed", v.cases_passed},
                        {"pass_share", json_number(r.cases ? static_cast<double>(v.cases_passed) / r.cases : 0.0)},
                        {"worst_layer", worst ? nlohmann::json(worst->node) : nlohmann::json()},
                        {"layers_error", v.layers_error.empty() ? nlohmann::json() : nlohmann::json(v.layers_error)},
                        {"layers", layers}});
  }
  return parity::valid_utf8_json({{"command", "quantize-report"}, {"model", r.model}, {"policy", r.policy},
                                  {"inputs", r.inputs}, {"cases", r.cases}, {"runs", r.runs}, {"warmup", r.warmup},
                                  {"threads", r.threads}, {"engines", r.engines}, {"variants", variants}});
}

namespace {

std::string cell(const std::string& text, bool numeric = false) {
  return std::string(numeric ? "<td class=\"num\">" : "<td>") + parity::html_escape(text) + "</td>";
}

std::string html_table(const QuantReport& r) {
  std::string h = "<div class=\"scroll\"><table><tr><th>variant</th><th>bytes</th><th>size</th>";
  for (const std::string& e : r.engines) h += "<th>" + parity::html_escape(e) + " p50 ms</th>";
  h += "<th>output</th><th>top-1</th><th>cosine</th><th>max abs</th><th>SQNR dB</th><th>policy</th><th>cases "
       "passing</th></tr>";
  for (const VariantReport& v : r.variants) {
    std::string head = cell(v.label) + cell(std::to_string(v.bytes), true) + cell(percent_text(size_percent(r, v)), true);
    for (const EngineLatency& l : v.latency) head += cell(latency_text(l), true);
    if (!v.error.empty()) {
      h += "<tr class=\"failed\">" + head + "<td colspan=\"7\">" + parity::html_escape("does not run on twinrt: " + v.error) + "</td></tr>";
      continue;
    }
    for (const OutputAccuracy& a : v.accuracy)
      h += std::string(a.passed ? "<tr>" : "<tr class=\"failed\">") + head + cell(a.output) + cell(top1_text(a), true) +
           cell(format_number(a.cosine), true) + cell(format_number(a.max_abs), true) +
           cell(format_number(a.sqnr_db), true) + "<td class=\"" + (a.passed ? "pass\">PASS" : "fail\">FAIL") +
           "</td>" + cell(cases_text(r, v), true) + "</tr>";
  }
  h += "</table></div>";
  for (const VariantReport& v : r.variants)
    for (const EngineLatency& l : v.latency)
      if (!l.error.empty()) h += "<p>" + parity::html_escape(v.label + " on " + l.engine + ": no time: " + l.error) + "</p>";
  return h;
}

// The chart of one variant: each shared tensor's relative error (light) and what its layer
// added (dark), the worst layer on a tinted band.
std::string layer_section(const VariantReport& v) {
  std::string h = "<h2>" + parity::html_escape("per-layer error: " + v.label) + "</h2><p>" +
                  parity::html_escape("worst layer: " + worst_layer_text(v)) + "</p>";
  if (v.layers.empty()) return h;
  std::vector<parity::LayerEntry> entries;
  const parity::LayerQuantError* worst = parity::worst_layer(v.layers);
  size_t worst_index = v.layers.size();
  for (const parity::LayerQuantError& l : v.layers) {
    if (&l == worst) worst_index = entries.size();
    parity::LayerEntry e;
    e.node = l.node;
    e.op = l.op;
    e.tensor = l.tensor;
    e.topo_index = l.topo_index;
    e.total_error = l.rmse_relative;
    e.own_error = l.added;
    entries.push_back(std::move(e));
  }
  parity::LayerChartWords words;
  words.highlighted = "worst layer: ";
  words.total = "rmse_relative";
  words.own = "added by this layer";
  words.axis = "relative RMS error against the float model";
  const parity::LayerEntry* highlighted = worst_index < entries.size() ? &entries[worst_index] : nullptr;
  return h + "<p class=\"legend\"><span><i class=\"swatch\" style=\"background:#a9c6e8\"></i>relative RMS error of "
             "the output</span><span><i class=\"swatch\" style=\"background:#1f4e89\"></i>added by the layer</span>"
             "<span><i class=\"swatch\" style=\"background:#ffe7a3\"></i>worst layer</span></p><div class=\"scroll\">" +
         parity::svg_layer_errors(entries, highlighted, words) + "</div>";
}

}  // namespace

std::string render_quant_html(const QuantReport& r) {
  std::string h = std::string("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>") +
                  parity::html_escape("quantize-report: " + r.model) + "</title><style>" + parity::report_stylesheet() +
                  "</style></head><body><main><h1>" + parity::html_escape("quantize-report: " + r.model) + "</h1><p>" +
                  parity::html_escape("policy " + r.policy + "; " + std::to_string(r.cases) + " case(s): " + r.inputs +
                                      "; latency: p50 of " + std::to_string(r.runs) + " runs after " +
                                      std::to_string(r.warmup) + " warm-up on the first case, " +
                                      std::to_string(r.threads) + " thread(s)") +
                  "</p>" + html_table(r);
  for (size_t i = 1; i < r.variants.size(); ++i)
    if (r.variants[i].error.empty()) h += layer_section(r.variants[i]);
  return h + "</main></body></html>\n";
}

}  // namespace twinrt::cli
