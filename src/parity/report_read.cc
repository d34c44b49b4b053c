// report_from_json: the inverse of to_json (report_json.cc) for what merge_reports needs.
#include <cmath>
#include <limits>

#include "parity/report_merge.h"

namespace twinrt::parity {
namespace {

using nlohmann::json;

// Numbers, or the strings to_json writes for non-finite values.
double number(const json& j) {
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    throw json::other_error::create(501, "'" + s + "' is not a number", &j);
  }
  return j.get<double>();
}

ErrorHistogram histogram(const json& j) {
  ErrorHistogram h;
  h.lowest_decade = j.at("lowest_decade").get<int>();
  h.counts = j.at("counts").get<std::vector<int64_t>>();
  h.exact = j.at("exact").get<int64_t>();
  h.below_lowest = j.at("below_lowest").get<int64_t>();
  h.non_finite = j.at("non_finite").get<int64_t>();
  return h;
}

TensorMetrics metrics(const json& j) {
  TensorMetrics m;
  m.dtype = j.at("dtype").get<std::string>();
  m.shape = j.at("shape").get<std::vector<int64_t>>();
  m.count = j.at("count").get<int64_t>();
  m.max_abs = number(j.at("max_abs"));
  m.mean_abs = number(j.at("mean_abs"));
  m.max_rel = number(j.at("max_rel"));
  m.mean_rel = number(j.at("mean_rel"));
  m.mse = number(j.at("mse"));
  m.rmse_relative = number(j.at("rmse_relative"));
  m.cosine = number(j.at("cosine"));
  m.sqnr_db = number(j.at("sqnr_db"));
  m.max_ulp = number(j.at("max_ulp"));
  m.p99_ulp = number(j.at("p99_ulp"));
  m.fraction_out_of_tolerance = number(j.at("fraction_out_of_tolerance"));
  m.nan_mismatches = j.at("nan_mismatches").get<int64_t>();
  m.inf_mismatches = j.at("inf_mismatches").get<int64_t>();
  m.max_abs_index = j.at("max_abs_index").get<int64_t>();
  m.exact_mismatches = j.at("exact_mismatches").get<int64_t>();
  m.shape_mismatches = j.value("shape_mismatches", int64_t{0});  // absent in older reports
  m.histogram = histogram(j.at("histogram"));
  if (const json& p = j.at("probability"); !p.is_null())
    m.probability = ProbabilityMetrics{p.at("rows").get<int64_t>(), number(p.at("top1_agreement")),
                                       number(p.at("top5_agreement")), number(p.at("max_kl")),
                                       number(p.at("mean_kl"))};
  if (const json& b = j.at("boxes"); !b.is_null())
    m.boxes = BoxMetrics{b.at("reference_boxes").get<int64_t>(), b.at("test_boxes").get<int64_t>(),
                         b.at("matched").get<int64_t>(), number(b.at("min_matched_iou")),
                         number(b.at("mean_matched_iou"))};
  if (const json& p = j.at("pixel_agreement"); !p.is_null()) m.pixel_agreement = number(p);
  const json& s = j.at("sums");
  m.sums = {number(s.at("ref_sq")),  number(s.at("test_sq")), number(s.at("ref_test")),
            number(s.at("err_sq")),  number(s.at("abs_err")), number(s.at("rel_err")),
            s.at("finite").get<int64_t>(), s.at("out_of_tolerance").get<int64_t>()};
  return m;
}

OutputComparison comparison(const json& j) {
  OutputComparison c;
  c.output = j.at("output").get<std::string>();
  c.engine = j.at("engine").get<std::string>();
  c.policy = j.at("policy").get<std::string>();
  c.metrics = metrics(j.at("metrics"));
  c.verdict.passed = j.at("verdict").at("passed").get<bool>();
  if (const json& e = j.at("expected"); !e.is_null()) {
    ExpectedError x;
    x.own_reduction_length = e.at("own_reduction_length").get<int64_t>();
    x.own_relative = number(e.at("own_relative"));
    x.relative = number(e.at("relative"));
    x.absolute = number(e.at("absolute"));
    x.saturated = e.value("saturated", false);
    if (const json& why = e.value("not_estimable", json(nullptr)); why.is_string()) x.not_estimable = why.get<std::string>();
    c.expected = x;
  }
  return c;
}

EngineEntry engine(const json& j) {
  return {j.at("name").get<std::string>(),  j.at("description").get<std::string>(),
          j.at("model").get<std::string>(), j.at("ok").get<bool>(),
          j.at("error").get<std::string>(), number(j.at("mean_run_ms"))};
}

CaseResult case_result(const json& j) {
  return {j.at("case").get<int64_t>(), j.at("name").get<std::string>(),
          j.at("inputs").get<std::map<std::string, std::string>>(), j.at("engine").get<std::string>(),
          j.at("output").get<std::string>(), number(j.at("max_abs")), j.at("passed").get<bool>()};
}

}  // namespace

Result<Report> report_from_json(const json& document, const std::string& source) {
  try {
    if (document.at("schema_version").get<int>() != kReportSchemaVersion)
      return invalid_argument(source + ": report schema version " + document.at("schema_version").dump() +
                              ", this twinrt reads version " + std::to_string(kReportSchemaVersion));
    Report r;
    r.command = document.at("command").get<std::string>();
    if (r.command != "compare") return invalid_argument(source + ": a '" + r.command + "' report; only compare reports merge");
    r.tool_version = document.at("tool_version").get<std::string>();
    r.models = document.at("models").get<std::vector<std::string>>();
    for (const json& e : document.at("engines")) r.engines.push_back(engine(e));
    r.baseline = document.at("baseline").get<std::string>();
    r.inputs = document.at("inputs").get<std::string>();
    r.preprocessing = document.at("preprocessing");
    r.cases = document.at("cases").get<int>();
    r.passed = document.at("passed").get<bool>();
    for (const json& c : document.at("outputs")) r.outputs.push_back(comparison(c));
    // Reports written before the worst-case list have neither key.
    if (document.contains("case_verdicts")) {
      r.cases_passed = document.at("case_verdicts").at("passed").get<int>();
      r.cases_failed = document.at("case_verdicts").at("failed").get<int>();
    }
    for (const json& c : document.value("worst_cases", json::array())) r.worst_cases.push_back(case_result(c));
    if (!document.value("final_outputs", json::array()).empty())
      return invalid_argument(source + ": a pipeline compare report (with final outputs); those do not merge");
    return r;
  } catch (const json::exception& e) {
    return invalid_argument(source + ": not a twinrt compare report (" + e.what() + ")");
  }
}

}  // namespace twinrt::parity
