// Formatting shared by the three report renderings (terminal, JSON, HTML): numbers that
// stay readable near 1 and legal in JSON when not finite, verdict labels, text that
// cannot break a page or a JSON encoder whatever bytes a model put in its names.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "parity/report.h"

namespace twinrt::parity {

// "%.3g", except that values within 1e-3 of +-1 keep enough digits to show their distance
// to 1 (a cosine of 0.999991 prints as 0.999991, not 1); non-finite as "nan", "inf", "-inf".
std::string format_number(double value);

// A finite number as a JSON number, otherwise the string "nan", "inf" or "-inf"
// (JSON has no literal for them; docs/parity-report-schema.md says so).
nlohmann::json json_number(double value);

// Invalid UTF-8 sequences replaced by U+FFFD, so names from a model file can always be
// written into JSON and HTML.
std::string valid_utf8(const std::string& text);
nlohmann::json valid_utf8_json(const nlohmann::json& value);  // every string inside, recursively

// & < > " ' as character references; input made valid UTF-8 first.
std::string html_escape(const std::string& text);

const char* bound_name(Check::Bound bound);    // "at_most", "at_least", "below", "above"
const char* bound_symbol(Check::Bound bound);  // "<=", ">=", "<", ">"

// "PASS (numeric)" / "FAIL (task)".
std::string verdict_label(const Verdict& verdict);
// The verdict label, or "WITHIN NOISE" when the policy failed but the difference is within
// the model's own noise floor.
std::string comparison_label(const OutputComparison& comparison);
// Passed its policy or is within the model's own noise floor.
bool comparison_passed(const OutputComparison& comparison);
// "max abs 0.9 (cosine 0.99) under inputs moved by up to 2 ULPs, 3 runs".
std::string noise_floor_text(const NoiseFloor& floor);

// The comparison's bound for `metric` among its checks (kAtMost when no check names it),
// so minimum passing tolerances print with the right direction.
Check::Bound bound_for_metric(const Verdict& verdict, const std::string& metric);

// The layer entry that first_divergence names ("first divergence: <node> (<op>) output
// <tensor>"), or nullptr.
const LayerEntry* first_divergence_layer(const Report& report);

// Layers with a nonzero own error, ordered by own_over_budget, largest first; unmeasured
// own errors (negative) last.
std::vector<const LayerEntry*> layers_by_own_over_budget(const Report& report);

// The expected float error of an output as shown: "-" (unknown), "n/a" (not estimable),
// ">=X" (saturated: at least as large as the values) or "X".
std::string format_expected(const std::optional<ExpectedError>& expected);
// The absolute expected error when it was estimated (saturated included), else nullopt.
std::optional<double> estimated_absolute(const std::optional<ExpectedError>& expected);

// "1x3x224x224"; "scalar" for rank 0.
std::string format_shape(const std::vector<int64_t>& shape);

}  // namespace twinrt::parity
