#include "parity/svg_charts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "parity/report_format.h"

namespace twinrt::parity {
namespace {

std::string px(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

std::string rect(double x, double y, double w, double h, const std::string& css_class) {
  return "<rect class=\"" + css_class + "\" x=\"" + px(x) + "\" y=\"" + px(y) + "\" width=\"" +
         px(w) + "\" height=\"" + px(h) + "\"/>";
}

std::string text(double x, double y, const std::string& anchor, const std::string& content,
                 const std::string& css_class = "label") {
  return "<text class=\"" + css_class + "\" x=\"" + px(x) + "\" y=\"" + px(y) +
         "\" text-anchor=\"" + anchor + "\">" + html_escape(content) + "</text>";
}

std::string line(double x1, double y1, double x2, double y2, const std::string& css_class) {
  return "<line class=\"" + css_class + "\" x1=\"" + px(x1) + "\" y1=\"" + px(y1) + "\" x2=\"" +
         px(x2) + "\" y2=\"" + px(y2) + "\"/>";
}

std::string svg_open(double width, double height, const std::string& label) {
  return "<svg class=\"chart\" role=\"img\" width=\"" + px(width) + "\" height=\"" + px(height) +
         "\" viewBox=\"0 0 " + px(width) + " " + px(height) + "\" aria-label=\"" + html_escape(label) +
         "\"><title>" + html_escape(label) + "</title>";
}

std::string decade_label(int decade) { return "1e" + std::to_string(decade); }

struct Bin {
  std::string label;    // under the bar
  std::string meaning;  // in its tooltip
  int64_t count;
};

std::vector<Bin> histogram_bins(const ErrorHistogram& h) {
  std::vector<Bin> bins = {{"0", "exactly equal", h.exact},
                           {"<" + decade_label(h.lowest_decade),
                            "below " + decade_label(h.lowest_decade), h.below_lowest}};
  for (size_t i = 0; i < h.counts.size(); ++i) {
    const int decade = h.lowest_decade + static_cast<int>(i);
    bins.push_back({decade_label(decade),
                    "[" + decade_label(decade) + ", " + decade_label(decade + 1) + ")", h.counts[i]});
  }
  bins.push_back({"NaN/Inf", "NaN or infinity on either side", h.non_finite});
  return bins;
}

// A log scale over decades [low, high] mapped onto [top, bottom] pixels.
struct LogScale {
  int low = 0, high = 1;
  double top = 0, bottom = 0;
  double y(double value) const {
    const double f = (std::log10(value) - low) / (high - low);
    return bottom - std::clamp(f, 0.0, 1.0) * (bottom - top);
  }
};

// Decades spanning the positive finite values, at most 14 of them (smaller values sit
// on the axis), or nullopt when there are none.
std::optional<LogScale> log_scale_for(const std::vector<double>& values, double top, double bottom) {
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (double v : values)
    if (std::isfinite(v) && v > 0) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  if (hi == 0) return std::nullopt;
  LogScale scale;
  scale.high = static_cast<int>(std::ceil(std::log10(hi)));
  // Half a decade of room under the smallest value, so it still shows as a bar.
  scale.low = std::max(static_cast<int>(std::floor(std::log10(lo) - 0.5)), scale.high - 14);
  if (scale.high <= scale.low) scale.high = scale.low + 1;
  scale.top = top;
  scale.bottom = bottom;
  return scale;
}

}  // namespace

std::string svg_error_histogram(const ErrorHistogram& histogram, std::optional<double> expected_abs) {
  const std::vector<Bin> bins = histogram_bins(histogram);
  const double slot = std::clamp(720.0 / static_cast<double>(bins.size()), 10.0, 44.0);
  const double left = 16, top = 18, plot_height = 120, bottom = top + plot_height;
  const double width = left + slot * static_cast<double>(bins.size()) + 16, height = bottom + 44;
  const int label_every = static_cast<int>(std::ceil(34.0 / slot));
  int64_t largest = 0;
  for (const Bin& b : bins) largest = std::max(largest, b.count);

  std::string svg = svg_open(width, height, "histogram of |test - reference| by decade");
  svg += line(left, bottom, left + slot * static_cast<double>(bins.size()), bottom, "axis");
  for (size_t i = 0; i < bins.size(); ++i) {
    const Bin& b = bins[i];
    const double x = left + slot * static_cast<double>(i);
    if (b.count > 0) {
      const double h = plot_height * std::log10(1.0 + static_cast<double>(b.count)) /
                       std::log10(1.0 + static_cast<double>(largest));
      const bool special = i < 2 || i + 1 == bins.size();
      svg += "<g><title>" + html_escape(b.meaning + ": " + std::to_string(b.count) + " elements") +
             "</title>" + rect(x + 1, bottom - h, slot - 2, h, special ? "bar special" : "bar") + "</g>";
      if (slot >= 24) svg += text(x + slot / 2, bottom - h - 3, "middle", std::to_string(b.count), "count");
    }
    const bool labelled = i < 2 || i + 1 == bins.size() || (i - 2) % label_every == 0;
    if (labelled)
      svg += "<text class=\"label\" transform=\"translate(" + px(x + slot / 2) + " " + px(bottom + 10) +
             ") rotate(35)\">" + html_escape(b.label) + "</text>";
  }
  if (expected_abs && std::isfinite(*expected_abs) && *expected_abs > 0) {
    const double decades = std::log10(*expected_abs) - histogram.lowest_decade;
    if (decades >= 0 && decades <= static_cast<double>(histogram.counts.size())) {
      const double x = left + slot * (2 + decades);
      svg += "<g><title>" + html_escape("expected float error " + format_number(*expected_abs)) +
             "</title>" + line(x, top - 6, x, bottom, "expected") + "</g>";
      svg += text(x + 3, top - 8, "start", "expected", "note");
    }
  }
  if (largest == 0) svg += text(width / 2, top + plot_height / 2, "middle", "no elements compared", "note");
  return svg + "</svg>";
}

std::string svg_layer_errors(const std::vector<LayerEntry>& layers, const LayerEntry* highlighted,
                             const LayerChartWords& words) {
  std::vector<const LayerEntry*> order;
  for (const LayerEntry& l : layers) order.push_back(&l);
  std::stable_sort(order.begin(), order.end(),
                   [](const LayerEntry* a, const LayerEntry* b) { return a->topo_index < b->topo_index; });
  const double n = static_cast<double>(std::max<size_t>(order.size(), 1));
  const double slot = std::clamp(std::floor(960.0 / n), 3.0, 48.0);
  const double left = 52, top = 26, plot_height = 220, bottom = top + plot_height;
  // Wide enough for the labels even when there are few nodes.
  const double width = std::max(left + slot * n + 16, 560.0), height = bottom + 34;

  std::vector<double> values;
  for (const LayerEntry* l : order) values.insert(values.end(), {l->total_error, l->own_error, l->budget});
  const std::optional<LogScale> scale = log_scale_for(values, top, bottom);

  std::string svg = svg_open(width, height, "error per node in topological order (log scale)");
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] == highlighted) {
      const double x = left + slot * static_cast<double>(i);
      svg += rect(x - 1, top, slot + 2, plot_height, "divergence");
      const bool right_half = x > left + slot * n / 2;
      svg += text(right_half ? x - 3 : x + slot + 3, top - 8, right_half ? "end" : "start",
                  words.highlighted + highlighted->node, "note");
    }
  if (!scale) {
    svg += text(width / 2, top + plot_height / 2, "middle", "every tensor matches exactly", "note");
    return svg + line(left, bottom, left + slot * n, bottom, "axis") + "</svg>";
  }
  for (int d = scale->low; d <= scale->high; ++d) {
    const double y = scale->y(std::pow(10.0, d));
    svg += line(left, y, left + slot * n, y, "grid") + text(left - 4, y + 3, "end", decade_label(d));
  }
  // A bar for a positive value; non-finite values fill the plot so they cannot be missed.
  const auto bar = [&](double x, double w, double value, const std::string& css_class) -> std::string {
    if (!std::isfinite(value)) return rect(x, top, w, plot_height, css_class + " nonfinite");
    if (value <= 0) return "";
    const double y = scale->y(value);
    return rect(x, y, w, bottom - y, css_class);
  };
  const double gap = slot >= 6 ? slot * 0.1 : 0;  // lets the divergence band show between bars
  std::string budget_path;
  bool budget_open = false;
  for (size_t i = 0; i < order.size(); ++i) {
    const LayerEntry& l = *order[i];
    const double x = left + slot * static_cast<double>(i);
    const bool measured = !(l.own_error < 0);
    svg += "<g><title>" +
           html_escape(l.node + " (" + l.op + ") output " + l.tensor + ": " + words.total + " " +
                       format_number(l.total_error) + ", " + words.own + " " +
                       (measured ? format_number(l.own_error) : "not measured") +
                       (l.budget > 0 ? ", budget " + format_number(l.budget) : "")) +
           "</title>" + bar(x + gap, slot - 2 * gap, l.total_error, "total") +
           (measured ? bar(x + slot / 4, slot / 2, l.own_error, "own") : "") + "</g>";
    if (std::isfinite(l.budget) && l.budget > 0) {
      const std::string y = px(scale->y(l.budget));
      budget_path += (budget_open ? "V" : "M" + px(x) + " ") + y + "H" + px(x + slot);
      budget_open = true;
    } else {
      budget_open = false;
    }
  }
  if (!budget_path.empty()) svg += "<path class=\"budget\" d=\"" + budget_path + "\"/>";
  svg += line(left, bottom, left + slot * n, bottom, "axis");
  svg += text(left, bottom + 22, "start",
              "nodes in topological order (" + std::to_string(order.size()) + "); " + words.axis + ", log scale");
  return svg + "</svg>";
}

}  // namespace twinrt::parity
