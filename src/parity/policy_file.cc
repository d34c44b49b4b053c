// JSON policy files: per-output policies built from the presets plus overridden checks.
// Format in docs/parity.md, section "Policies". Parsed without exceptions; every error
// names the file and the key.
#include <cmath>
#include <nlohmann/json.hpp>

#include "onnx/loader.h"
#include "parity/policy.h"
#include "parity/policy_parts.h"

namespace twinrt::parity {
namespace {

using json = nlohmann::json;

// The DOM parser with exceptions off, keeping the parse error's text (line and column).
struct ErrorKeepingParser : nlohmann::detail::json_sax_dom_parser<json> {
  explicit ErrorKeepingParser(json& root) : json_sax_dom_parser(root, false) {}
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& ex) {
    error = ex.what();
    return false;
  }
  std::string error;
};

class Loader {
 public:
  explicit Loader(std::string path) : path_(std::move(path)) {}

  Result<PolicySet> load() {
    ASSIGN_OR_RETURN(std::string text, onnx::read_file(path_));
    json root;
    ErrorKeepingParser parser(root);
    if (!json::sax_parse(text, &parser) || !parser.error.empty())
      return fail("", "not valid JSON: " + parser.error);
    if (!root.is_object()) return fail("", "expected a JSON object at the top level");
    std::optional<BoxFormat> box_format;
    for (const auto& [key, value] : root.items()) {
      if (key != "default" && key != "outputs" && key != "box_format")
        return fail(key, "unknown key: expected default, outputs or box_format");
    }
    if (root.contains("box_format")) {
      ASSIGN_OR_RETURN(box_format, parse_format(root["box_format"], "box_format"));
    }
    PolicySet set;
    if (root.contains("default")) {
      ASSIGN_OR_RETURN(set.default_policy, policy_from(root["default"], "default"));
    } else {
      ASSIGN_OR_RETURN(set.default_policy, builtin_policy("fp32"));
    }
    if (root.contains("outputs")) {
      const json& outputs = root["outputs"];
      if (!outputs.is_object()) return fail("outputs", "expected an object {output name: policy}");
      for (const auto& [name, value] : outputs.items()) {
        ASSIGN_OR_RETURN(set.per_output[name], policy_from(value, "outputs." + name));
      }
    }
    if (box_format) {
      if (!set.default_policy.compare.box_format) set.default_policy.compare.box_format = box_format;
      for (auto& [name, p] : set.per_output)
        if (!p.compare.box_format) p.compare.box_format = box_format;
    }
    return set;
  }

 private:
  Status fail(const std::string& key, const std::string& what) const {
    return invalid_argument("policy file " + path_ + (key.empty() ? "" : ", key '" + key + "'") +
                            ": " + what);
  }

  Result<BoxFormat> parse_format(const json& v, const std::string& key) const {
    if (!v.is_string()) return fail(key, "expected \"xyxy\", \"xywh\" or \"cxcywh\"");
    auto format = parse_box_format(v.get<std::string>());
    if (!format) return fail(key, format.status().message());
    return format;
  }

  Result<double> number(const json& v, const std::string& key) const {
    if (!v.is_number() || !std::isfinite(v.get<double>())) return fail(key, "expected a finite number");
    return v.get<double>();
  }

  // "fp32" or {"base": "fp32", "checks": {...}, "box_format": ..., "box_match_iou": ...,
  // "tolerance": {"atol": ..., "rtol": ...}}
  Result<Policy> policy_from(const json& v, const std::string& key) const {
    if (v.is_string()) {
      auto p = builtin_policy(v.get<std::string>());
      if (!p) return fail(key, p.status().message());
      return p;
    }
    if (!v.is_object()) return fail(key, "expected a policy name or an object");
    Policy p;
    if (v.contains("base")) {
      ASSIGN_OR_RETURN(p, policy_from(v["base"], key + ".base"));
    } else {
      p.checks = {{"nan_mismatches", Check::Bound::kAtMost, 0, Layer::kScreen, ""},
                  {"inf_mismatches", Check::Bound::kAtMost, 0, Layer::kScreen, ""}};
    }
    p.name = path_ + (v.contains("base") && v["base"].is_string() ? " (" + p.name + ")" : "");
    for (const auto& [field, value] : v.items()) {
      const std::string sub = key + "." + field;
      if (field == "base") continue;
      if (field == "checks") {
        TRY(override_checks(p, value, sub));
      } else if (field == "box_format") {
        ASSIGN_OR_RETURN(p.compare.box_format, parse_format(value, sub));
      } else if (field == "box_match_iou") {
        ASSIGN_OR_RETURN(p.compare.box_match_iou, number(value, sub));
      } else if (field == "tolerance") {
        if (!value.is_object()) return fail(sub, "expected {\"atol\": number, \"rtol\": number}");
        if (value.contains("atol")) { ASSIGN_OR_RETURN(p.compare.tolerance.atol, number(value["atol"], sub + ".atol")); }
        if (value.contains("rtol")) { ASSIGN_OR_RETURN(p.compare.tolerance.rtol, number(value["rtol"], sub + ".rtol")); }
      } else {
        return fail(sub, "unknown key: expected base, checks, box_format, box_match_iou or tolerance");
      }
    }
    return p;
  }

  // {"max_abs": {"max": 1e-4}, "cosine": {"min": 0.999, "layer": "screen"}, ...}: each
  // metric named here replaces the base's checks on that metric.
  Status override_checks(Policy& p, const json& checks, const std::string& key) const {
    if (!checks.is_object()) return fail(key, "expected an object {metric: {\"max\": number}}");
    for (const auto& [metric, spec] : checks.items()) {
      const std::string sub = key + "." + metric;
      if (!is_known_metric(metric)) return fail(sub, "unknown metric");
      if (!spec.is_object()) return fail(sub, "expected an object such as {\"max\": 1e-4}");
      Check base{metric, Check::Bound::kAtMost, 0, default_layer(metric), ""};
      std::vector<Check> added;
      for (const auto& [field, value] : spec.items()) {
        const std::string f = sub + "." + field;
        if (field == "layer") {
          if (!value.is_string()) return fail(f, "expected \"screen\", \"numeric\" or \"task\"");
          const std::string l = value.get<std::string>();
          if (l == "screen") base.layer = Layer::kScreen;
          else if (l == "numeric") base.layer = Layer::kNumeric;
          else if (l == "task") base.layer = Layer::kTask;
          else return fail(f, "expected \"screen\", \"numeric\" or \"task\"");
        } else if (field == "any_of") {
          if (!value.is_string() || value.get<std::string>().empty()) return fail(f, "expected a group name");
          base.any_of_group = value.get<std::string>();
        } else {
          Check c;
          if (field == "max") c.bound = Check::Bound::kAtMost;
          else if (field == "min") c.bound = Check::Bound::kAtLeast;
          else if (field == "below") c.bound = Check::Bound::kBelow;
          else if (field == "above") c.bound = Check::Bound::kAbove;
          else return fail(f, "unknown key: expected max, min, below, above, layer or any_of");
          ASSIGN_OR_RETURN(c.threshold, number(value, f));
          added.push_back(c);
        }
      }
      if (added.empty()) return fail(sub, "expected at least one of max, min, below, above");
      std::erase_if(p.checks, [&](const Check& c) { return c.metric == metric; });
      for (Check& c : added) {
        c.metric = metric;
        c.layer = base.layer;
        c.any_of_group = base.any_of_group;
        p.checks.push_back(c);
      }
      if (metric == "top1_agreement" || metric == "top5_agreement" || metric == "max_kl" || metric == "mean_kl")
        p.compare.probability = true;
      if (metric == "pixel_agreement") p.compare.pixel_agreement = true;
    }
    return Status::ok();
  }

  std::string path_;
};

}  // namespace

Result<PolicySet> load_policy_file(const std::string& path) { return Loader(path).load(); }

}  // namespace twinrt::parity
