#include "parity/report_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace twinrt::parity {
namespace {

// Length of the valid UTF-8 sequence starting at text[i], or 0 when it is not one
// (overlong forms, surrogates and code points above U+10FFFF are invalid).
size_t utf8_sequence_length(const std::string& text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  size_t length = 0;
  unsigned min_second = 0x80, max_second = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) min_second = 0xA0;  // overlong
    if (lead == 0xED) max_second = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) min_second = 0x90;  // overlong
    if (lead == 0xF4) max_second = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < min_second || byte(i + 1) > max_second) return 0;
  for (size_t k = 2; k < length; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  return length;
}

// NaN sorts with the largest: a node that produced NaN is as suspect as one far over budget.
double ranking_key(const LayerEntry& layer) {
  return std::isnan(layer.own_over_budget) ? std::numeric_limits<double>::infinity()
                                           : layer.own_over_budget;
}

}  // namespace

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  int digits = 3;
  const double gap_to_one = std::fabs(1.0 - std::fabs(value));
  if (gap_to_one > 0 && gap_to_one < 1e-3)
    digits = std::min(17, 3 + static_cast<int>(std::ceil(-std::log10(gap_to_one))));
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
  return buffer;
}

nlohmann::json json_number(double value) {
  if (std::isfinite(value)) return value;
  return format_number(value);
}

std::string valid_utf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      ++i;
    } else {
      out.append(text, i, length);
      i += length;
    }
  }
  return out;
}

nlohmann::json valid_utf8_json(const nlohmann::json& value) {
  if (value.is_string()) return valid_utf8(value.get_ref<const std::string&>());
  if (value.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : value) out.push_back(valid_utf8_json(item));
    return out;
  }
  if (value.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, item] : value.items()) out[valid_utf8(key)] = valid_utf8_json(item);
    return out;
  }
  return value;
}

std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : valid_utf8(text)) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

const char* bound_name(Check::Bound bound) {
  switch (bound) {
    case Check::Bound::kAtMost: return "at_most";
    case Check::Bound::kAtLeast: return "at_least";
    case Check::Bound::kBelow: return "below";
    case Check::Bound::kAbove: return "above";
  }
  return "at_most";
}

const char* bound_symbol(Check::Bound bound) {
  switch (bound) {
    case Check::Bound::kAtMost: return "<=";
    case Check::Bound::kAtLeast: return ">=";
    case Check::Bound::kBelow: return "<";
    case Check::Bound::kAbove: return ">";
  }
  return "<=";
}

std::string verdict_label(const Verdict& verdict) {
  return std::string(verdict.passed ? "PASS (" : "FAIL (") + layer_name(verdict.deciding_layer) + ")";
}

std::string comparison_label(const OutputComparison& c) {
  return c.within_noise_floor ? "WITHIN NOISE" : verdict_label(c.verdict);
}

bool comparison_passed(const OutputComparison& c) { return c.verdict.passed || c.within_noise_floor; }

std::string noise_floor_text(const NoiseFloor& f) {
  return "max abs " + format_number(f.max_abs) + " (cosine " + format_number(f.cosine) +
         ") under inputs moved by up to " + std::to_string(f.ulps) + " ULPs, " + std::to_string(f.runs) +
         (f.runs == 1 ? " run" : " runs");
}

Check::Bound bound_for_metric(const Verdict& verdict, const std::string& metric) {
  for (const CheckResult& result : verdict.checks)
    if (result.check.metric == metric) return result.check.bound;
  return Check::Bound::kAtMost;
}

const LayerEntry* first_divergence_layer(const Report& report) {
  for (const LayerEntry& layer : report.layers) {
    const std::string line =
        "first divergence: " + layer.node + " (" + layer.op + ") output " + layer.tensor;
    if (line == report.first_divergence) return &layer;
  }
  return nullptr;
}

std::vector<const LayerEntry*> layers_by_own_over_budget(const Report& report) {
  std::vector<const LayerEntry*> ranked;
  // Nodes that agree exactly on their own are not suspects; listing them only adds noise.
  for (const LayerEntry& layer : report.layers)
    if (layer.own_error != 0) ranked.push_back(&layer);
  std::stable_sort(ranked.begin(), ranked.end(), [](const LayerEntry* a, const LayerEntry* b) {
    const bool a_measured = !(a->own_error < 0), b_measured = !(b->own_error < 0);
    if (a_measured != b_measured) return a_measured;
    return ranking_key(*a) > ranking_key(*b);
  });
  return ranked;
}

std::string format_shape(const std::vector<int64_t>& shape) {
  if (shape.empty()) return "scalar";
  std::string out;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += 'x';
    out += std::to_string(shape[i]);
  }
  return out;
}

std::string format_expected(const std::optional<ExpectedError>& expected) {
  if (!expected) return "-";
  if (!expected->not_estimable.empty()) return "n/a";
  return (expected->saturated ? ">=" : "") + format_number(expected->absolute);
}

std::optional<double> estimated_absolute(const std::optional<ExpectedError>& expected) {
  if (!expected || !expected->not_estimable.empty()) return std::nullopt;
  return expected->absolute;
}

}  // namespace twinrt::parity
