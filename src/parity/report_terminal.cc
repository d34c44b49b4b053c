// render_terminal(Report): plain text for a terminal, every line at most 120 columns
// (long names are shortened with "...", free text is wrapped). No colors: the output is
// as often a CI log or a file as a TTY.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "parity/report.h"
#include "parity/report_format.h"

namespace twinrt::parity {
namespace {

constexpr size_t kWidth = 120;
constexpr size_t kRankedNodes = 10;

struct Column {
  std::string title;
  size_t width;
  bool right_aligned = false;
};

std::string fit(const std::string& cell, size_t width) {
  if (cell.size() <= width) return cell;
  if (width <= 3) return cell.substr(0, width);
  return cell.substr(0, width - 3) + "...";
}

// One table row: cells padded to their column, two spaces apart, trailing blanks trimmed.
std::string row(const std::vector<Column>& columns, const std::vector<std::string>& cells) {
  std::string line;
  for (size_t i = 0; i < columns.size(); ++i) {
    const std::string cell = fit(i < cells.size() ? cells[i] : "", columns[i].width);
    const std::string pad(columns[i].width - cell.size(), ' ');
    if (i) line += "  ";
    line += columns[i].right_aligned ? pad + cell : cell + pad;
  }
  line.erase(line.find_last_not_of(' ') + 1);
  return line + "\n";
}

std::string header_row(const std::vector<Column>& columns) {
  std::vector<std::string> titles, rules;
  for (const Column& c : columns) {
    titles.push_back(c.title);
    rules.push_back(std::string(c.width, '-'));
  }
  return row(columns, titles) + row(columns, rules);
}

// Word-wraps `text` to kWidth: the first line starts after `label` (padded to `indent`),
// further lines are indented by `indent`; words longer than a line are cut, and embedded
// newlines start new lines.
std::string wrapped(const std::string& label, const std::string& text, size_t indent) {
  std::string out = label;
  if (!label.empty() || indent > 0) out.append(std::max(indent, label.size() + 1) - label.size(), ' ');
  size_t column = out.size();
  bool line_has_words = false;
  const auto new_line = [&] {
    out += "\n" + std::string(indent, ' ');
    column = indent;
    line_has_words = false;
  };
  const size_t room = kWidth - indent;
  std::istringstream lines(text);
  std::string line;
  for (bool first = true; std::getline(lines, line); first = false) {
    if (!first) new_line();
    std::istringstream words(line);
    for (std::string word; words >> word;) {
      while (word.size() > room) {  // a path or token longer than a line
        if (column > indent) new_line();
        out += word.substr(0, room);
        word = word.substr(room);
        new_line();
      }
      const size_t separator = line_has_words ? 1 : 0;
      if (column > indent && column + separator + word.size() > kWidth) new_line();
      if (line_has_words) {
        out += ' ';
        ++column;
      }
      out += word;
      column += word.size();
      line_has_words = true;
    }
  }
  return out + "\n";
}

std::string padded(const std::string& text, size_t width) {
  const std::string cell = fit(text, width);
  return cell + std::string(width - cell.size(), ' ');
}

std::string header(const Report& report) {
  std::string out = "twinrt " + report.command;
  if (!report.tool_version.empty()) out += " (twinrt " + report.tool_version + ")";
  out += "\n";
  std::string models;
  for (const std::string& m : report.models) models += (models.empty() ? "" : ", ") + m;
  out += wrapped("models:", models, 12);
  for (size_t i = 0; i < report.engines.size(); ++i) {
    const EngineEntry& e = report.engines[i];
    std::string about = e.ok ? e.description : "FAILED (error below)";
    if (e.name == report.baseline) about += " [baseline]";
    if (e.ok && e.mean_run_ms > 0) about += "; " + format_number(e.mean_run_ms) + " ms/run";
    out += wrapped(padded(i == 0 ? "engines:" : "", 12) + padded(e.name, 18), about, 31);
  }
  out += wrapped("baseline:", report.baseline, 12);
  out += wrapped("inputs:", report.inputs + " (" + std::to_string(report.cases) +
                                (report.cases == 1 ? " case)" : " cases)"), 12);
  const std::string spec = report.preprocessing.is_null()
      ? "none"
      : report.preprocessing.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  out += wrapped("preprocess:", spec, 12);
  return out;
}

std::string comparison_table(const Report& report) {
  const std::vector<Column> columns = {{"output", 26},      {"engine", 18},
                                       {"max abs", 9, true}, {"expected", 9, true},
                                       {"cosine", 11, true}, {"max ULP", 9, true},
                                       {"verdict", 24}};
  std::string out = header_row(columns);
  for (const OutputComparison& c : report.outputs) {
    out += row(columns, {c.output, c.engine, format_number(c.metrics.max_abs), format_expected(c.expected),
                         format_number(c.metrics.cosine), format_number(c.metrics.max_ulp),
                         comparison_label(c)});
  }
  return out;
}

// Why an expected error is n/a or only a lower bound, once per output.
std::string expected_notes(const Report& report) {
  std::string out;
  std::vector<std::string> seen;
  for (const OutputComparison& c : report.outputs) {
    if (c.noise_floor)
      out += wrapped("noise floor of " + c.output + " (" + report.baseline + " rerun):",
                     noise_floor_text(*c.noise_floor) + "; " + c.engine + " differs by " + format_number(c.metrics.max_abs) +
                         (c.metrics.max_abs <= c.noise_floor->max_abs ? ": within" : ": above") +
                         " the model's own noise",
                     2);
    if (!c.expected || std::find(seen.begin(), seen.end(), c.output) != seen.end()) continue;
    seen.push_back(c.output);
    if (!c.expected->not_estimable.empty())
      out += wrapped("expected error of " + c.output + ": not estimable,", c.expected->not_estimable, 2);
    else if (c.expected->saturated)
      out += wrapped("expected error of " + c.output + ":",
                     "saturated (rounding alone may move it as much as its largest value)", 2);
  }
  return out;
}

std::string failures(const Report& report) {
  std::string out;
  for (const OutputComparison& c : report.outputs) {
    if (comparison_passed(c)) continue;
    out += wrapped("  " + c.output + " / " + c.engine + ":", c.verdict.summary, 6);
    std::string minimum;
    for (const auto& [metric, value] : c.verdict.minimum_passing) {
      if (!minimum.empty()) minimum += ", ";
      minimum += metric + " " + bound_symbol(bound_for_metric(c.verdict, metric)) + " " + format_number(value);
    }
    if (!minimum.empty()) out += wrapped("      would pass with:", minimum, 6);
  }
  if (out.empty()) return out;
  return "\nfailures and the minimum tolerances that would pass:\n" + out;
}

std::string engine_errors(const Report& report) {
  std::string out;
  for (const EngineEntry& e : report.engines)
    if (!e.ok) out += wrapped("  " + e.name + ":", e.error.empty() ? "failed (no error text)" : e.error, 4);
  return out.empty() ? out : "\nengines that failed:\n" + out;
}

std::string first_divergence_line(const Report& report) {
  return (report.first_divergence.empty() ? "first divergence: none (every node within its budget)"
                                          : report.first_divergence) + std::string("\n");
}

std::string ranked_layers(const Report& report) {
  const std::vector<Column> columns = {{"#", 3, true},          {"node", 26},
                                       {"op", 14},              {"shape", 14},
                                       {"own", 9, true},        {"inherited", 9, true},
                                       {"total", 9, true},      {"budget", 9, true},
                                       {"own/budget", 10, true}};
  std::string out = "\nnodes ranked by own error over budget (top " +
                    std::to_string(std::min(kRankedNodes, report.layers.size())) + " of " +
                    std::to_string(report.layers.size()) + "):\n" + header_row(columns);
  const std::vector<const LayerEntry*> ranked = layers_by_own_over_budget(report);
  for (size_t i = 0; i < ranked.size() && i < kRankedNodes; ++i) {
    const LayerEntry& l = *ranked[i];
    const bool measured = !(l.own_error < 0);
    out += row(columns, {std::to_string(i + 1), l.node, l.op, format_shape(l.shape),
                         measured ? format_number(l.own_error) : "n/a", format_number(l.inherited_error),
                         format_number(l.total_error), format_number(l.budget),
                         measured ? format_number(l.own_over_budget) : "n/a"});
    if (!l.attributes.empty()) out += wrapped("      attributes:", l.attributes, 18);
    if (!l.own_source.empty()) out += wrapped("      own error:", "re-run on " + l.own_source, 18);
    std::string carried;
    for (const auto& [output, error] : l.carried_to_outputs)
      carried += (carried.empty() ? "" : ", ") + output + " " + format_number(error);
    if (!carried.empty()) out += wrapped("      carried to:", carried, 18);
    if (l.noise >= 0)
      out += wrapped("      noise:", format_number(l.noise) + " (the model's own movement; total error " +
                                        (l.total_error <= l.noise ? "within it)" : "above it)"),
                     18);
  }
  return out;
}

std::string summary(const Report& report) {
  size_t failed = 0, failed_engines = 0;
  size_t within_noise = 0;
  for (const OutputComparison& c : report.outputs) {
    failed += comparison_passed(c) ? 0 : 1;
    within_noise += c.within_noise_floor ? 1 : 0;
  }
  for (const EngineEntry& e : report.engines) failed_engines += e.ok ? 0 : 1;
  std::string out = std::string("\nresult: ") + (report.passed ? "PASS" : "FAIL") + " (" +
                    std::to_string(report.outputs.size() - failed) + " of " +
                    std::to_string(report.outputs.size()) + " comparisons passed";
  if (within_noise) out += ", " + std::to_string(within_noise) + " of them only within the model's own noise";
  if (failed_engines) out += ", " + std::to_string(failed_engines) + " engine(s) failed";
  out += ")\n";
  if (report.localize_passes > 1)
    out += "intermediates compared in " + std::to_string(report.localize_passes) + " chunks (--max-memory)\n";
  return out;
}

std::string worst_cases(const Report& report) {
  if (report.cases_passed + report.cases_failed < 2) return "";  // one case: the table above
  const std::vector<Column> columns = {{"case", 7, true}, {"name", 24}, {"engine", 18}, {"output", 26},
                                       {"max abs", 9, true}, {"verdict", 7}};
  std::string out = "\ncases: " + std::to_string(report.cases_passed) + " passed, " +
                    std::to_string(report.cases_failed) + " failed on their own; the worst:\n" + header_row(columns);
  for (const CaseResult& c : report.worst_cases)
    out += row(columns, {std::to_string(c.index), c.name, c.engine, c.output, format_number(c.max_abs),
                         c.passed ? "pass" : "FAIL"});
  return out;
}

std::string final_outputs(const Report& report) {
  std::string out;
  for (const FinalOutputVerdict& v : report.final_outputs)
    out += "output " + v.output + ", " + v.engine + ": " + v.summary + "\n";
  return out;
}

}  // namespace

std::string render_terminal(const Report& report) {
  std::string out;
  const bool localize = report.command == "localize";
  if (localize) out += first_divergence_line(report);
  out += header(report) + "\n" + comparison_table(report) + expected_notes(report);
  out += summary(report) + failures(report) + engine_errors(report) + worst_cases(report) + final_outputs(report);
  if (!report.layers.empty()) {
    if (!localize) out += "\n" + first_divergence_line(report);
    out += ranked_layers(report);
  }
  if (!report.preprocess_check.empty()) {
    const std::vector<Column> columns = {{"preprocessing mistake", 30}, {"output", 26},
                                         {"max abs", 9, true},          {"cosine", 11, true},
                                         {"rmse rel", 9, true}};
    out += "\nhow far outputs move under common preprocessing mistakes:\n" + header_row(columns);
    for (const PreprocessVariant& p : report.preprocess_check)
      out += row(columns, {p.mistake, p.output, format_number(p.metrics.max_abs),
                           format_number(p.metrics.cosine), format_number(p.metrics.rmse_relative)});
  }
  return valid_utf8(out);
}

}  // namespace twinrt::parity
