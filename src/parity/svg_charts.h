// The HTML report's charts, drawn as inline SVG in C++ so the page needs no script, font
// or network. Every string drawn is HTML-escaped; hovering a bar shows its <title>.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "parity/report.h"

namespace twinrt::parity {

// Bars per decade of |test - ref| (plus exact, below the lowest decade and non-finite),
// bar height on a log scale of the count; a dashed marker at the expected float error
// when it falls inside the decades drawn.
std::string svg_error_histogram(const ErrorHistogram& histogram, std::optional<double> expected_abs);

// What svg_layer_errors calls its values: localize's by default; quantize-report plots
// relative errors with the same chart.
struct LayerChartWords {
  std::string highlighted = "first divergence: ";
  std::string total = "total", own = "own";
  std::string axis = "max |error|";
};

// Total and own error per node in topological order on a log scale, the budget as a
// dashed step line, `highlighted` (the first divergence, may be null) on a tinted band.
std::string svg_layer_errors(const std::vector<LayerEntry>& layers, const LayerEntry* highlighted,
                             const LayerChartWords& words = {});

}  // namespace twinrt::parity
