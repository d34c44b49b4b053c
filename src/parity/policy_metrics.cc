// Metric lookup by name for policies.
#include <functional>
#include <map>

#include "parity/policy_parts.h"

namespace twinrt::parity {
namespace {

using Getter = std::function<std::optional<double>(const TensorMetrics&)>;

const std::map<std::string, Getter>& getters() {
  static const std::map<std::string, Getter> table = [] {
    std::map<std::string, Getter> t;
    auto plain = [&](const char* name, double TensorMetrics::*field) {
      t[name] = [field](const TensorMetrics& m) { return std::optional<double>(m.*field); };
    };
    auto counted = [&](const char* name, int64_t TensorMetrics::*field) {
      t[name] = [field](const TensorMetrics& m) {
        return std::optional<double>(static_cast<double>(m.*field));
      };
    };
    plain("max_abs", &TensorMetrics::max_abs);
    plain("mean_abs", &TensorMetrics::mean_abs);
    plain("max_rel", &TensorMetrics::max_rel);
    plain("mean_rel", &TensorMetrics::mean_rel);
    plain("mse", &TensorMetrics::mse);
    plain("rmse_relative", &TensorMetrics::rmse_relative);
    plain("cosine", &TensorMetrics::cosine);
    plain("sqnr_db", &TensorMetrics::sqnr_db);
    plain("max_ulp", &TensorMetrics::max_ulp);
    plain("p99_ulp", &TensorMetrics::p99_ulp);
    plain("range_ulp_fp16", &TensorMetrics::range_ulp_fp16);
    plain("range_steps_int8", &TensorMetrics::range_steps_int8);
    plain("fraction_out_of_tolerance", &TensorMetrics::fraction_out_of_tolerance);
    counted("nan_mismatches", &TensorMetrics::nan_mismatches);
    counted("inf_mismatches", &TensorMetrics::inf_mismatches);
    counted("exact_mismatches", &TensorMetrics::exact_mismatches);
    counted("shape_mismatches", &TensorMetrics::shape_mismatches);
    auto probability = [&](const char* name, double ProbabilityMetrics::*field) {
      t[name] = [field](const TensorMetrics& m) {
        return m.probability ? std::optional<double>((*m.probability).*field) : std::nullopt;
      };
    };
    probability("top1_agreement", &ProbabilityMetrics::top1_agreement);
    probability("top5_agreement", &ProbabilityMetrics::top5_agreement);
    probability("max_kl", &ProbabilityMetrics::max_kl);
    probability("mean_kl", &ProbabilityMetrics::mean_kl);
    t["box_match_fraction"] = [](const TensorMetrics& m) -> std::optional<double> {
      if (!m.boxes) return std::nullopt;
      if (m.boxes->reference_boxes == 0) return 1.0;
      return static_cast<double>(m.boxes->matched) / static_cast<double>(m.boxes->reference_boxes);
    };
    t["min_matched_iou"] = [](const TensorMetrics& m) {
      return m.boxes ? std::optional<double>(m.boxes->min_matched_iou) : std::nullopt;
    };
    t["pixel_agreement"] = [](const TensorMetrics& m) { return m.pixel_agreement; };
    return t;
  }();
  return table;
}

}  // namespace

std::optional<double> metric_value(const TensorMetrics& m, const std::string& name) {
  auto it = getters().find(name);
  if (it == getters().end()) return std::nullopt;
  return it->second(m);
}

bool is_known_metric(const std::string& name) { return getters().count(name) > 0; }

std::string missing_metric_reason(const std::string& name) {
  if (name == "box_match_fraction" || name == "min_matched_iou")
    return "box metrics need the box format of the output (--box-format)";
  if (name == "pixel_agreement") return "pixel agreement was not requested";
  if (name == "top1_agreement" || name == "top5_agreement" || name == "max_kl" || name == "mean_kl")
    return "probability metrics were not requested";
  return "unknown metric";
}

Layer default_layer(const std::string& metric) {
  if (metric == "nan_mismatches" || metric == "inf_mismatches" || metric == "shape_mismatches" || metric == "cosine")
    return Layer::kScreen;
  if (metric == "top1_agreement" || metric == "top5_agreement" || metric == "max_kl" ||
      metric == "mean_kl" || metric == "box_match_fraction" || metric == "min_matched_iou" ||
      metric == "pixel_agreement")
    return Layer::kTask;
  return Layer::kNumeric;
}

}  // namespace twinrt::parity
