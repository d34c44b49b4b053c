// The three renderings of a parity report (JSON, terminal, HTML) on a report built by
// hand (sample_report.h); expected strings are written out from the values put in.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "parity/noise_floor.h"
#include "parity/report.h"
#include "parity/report_format.h"
#include "parity/report_merge.h"
#include "sample_report.h"

namespace twinrt::parity {
namespace {

using nlohmann::json;
using testing::sample_report;

std::string spaces(size_t n) { return std::string(n, ' '); }

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(ReportFormat, NumbersKeepTheirDistanceToOne) {
  EXPECT_EQ(format_number(2.5e-6), "2.5e-06");
  EXPECT_EQ(format_number(12345678), "1.23e+07");
  EXPECT_EQ(format_number(1), "1");
  EXPECT_EQ(format_number(0), "0");
  EXPECT_EQ(format_number(0.999991), "0.999991");  // %.3g alone would print 1
  EXPECT_EQ(format_number(-0.99951), "-0.99951");
  EXPECT_EQ(format_number(0.998), "0.998");
  EXPECT_EQ(format_number(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(format_number(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(format_number(std::numeric_limits<double>::quiet_NaN()), "nan");
}

TEST(ReportFormat, InvalidUtf8IsReplaced) {
  EXPECT_EQ(valid_utf8("a\xff" "b"), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(valid_utf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");        // overlong '/'
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  EXPECT_EQ(valid_utf8("x\xE2\x82"), "x\xEF\xBF\xBD\xEF\xBF\xBD");      // truncated euro sign
  EXPECT_EQ(valid_utf8("\xC3\xA9\xF0\x9F\x98\x80"), "\xC3\xA9\xF0\x9F\x98\x80");  // e-acute, emoji kept
  EXPECT_EQ(html_escape("a<b&\"c'>"), "a&lt;b&amp;&quot;c&#39;&gt;");
}

TEST(ReportJson, RoundTripsWithSchemaVersionAndEveryField) {
  const json j = json::parse(to_json(sample_report()).dump());
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["command"], "compare");
  EXPECT_EQ(j["tool_version"], "0.1.0");
  EXPECT_EQ(j["models"], json::array({"models/tiny.onnx"}));
  EXPECT_EQ(j["baseline"], "twinrt");
  EXPECT_EQ(j["inputs"], "image cat.png");
  EXPECT_EQ(j["preprocessing"]["layout"], "NCHW");
  EXPECT_EQ(j["cases"], 1);
  EXPECT_EQ(j["passed"], false);

  ASSERT_EQ(j["engines"].size(), 3u);
  EXPECT_EQ(j["engines"][0]["name"], "twinrt");
  EXPECT_EQ(j["engines"][0]["mean_run_ms"], 1.25);
  EXPECT_EQ(j["engines"][1]["description"], "onnxruntime-node 1.30.0, CPU, graph optimization all");
  EXPECT_EQ(j["engines"][2]["ok"], false);
  EXPECT_EQ(j["engines"][2]["error"], "chromium: cannot create <session> & \"wasm\" backend failed");

  ASSERT_EQ(j["outputs"].size(), 2u);
  const json& logits = j["outputs"][0];
  EXPECT_EQ(logits["output"], "logits");
  EXPECT_EQ(logits["engine"], "ort");
  EXPECT_EQ(logits["policy"], "fp32");
  EXPECT_EQ(logits["metrics"]["shape"], json::array({1, 1000}));
  EXPECT_EQ(logits["metrics"]["max_abs"], 2.5e-6);
  EXPECT_EQ(logits["metrics"]["cosine"], 0.9999996);
  EXPECT_EQ(logits["metrics"]["max_abs_index"], 417);
  EXPECT_EQ(logits["metrics"]["histogram"]["counts"], json::array({0, 0, 0, 0, 10, 50, 4}));
  EXPECT_EQ(logits["metrics"]["histogram"]["lowest_decade"], -12);
  EXPECT_EQ(logits["metrics"]["histogram"]["exact"], 936);
  EXPECT_TRUE(logits["metrics"]["probability"].is_null());
  EXPECT_TRUE(logits["metrics"]["boxes"].is_null());
  EXPECT_TRUE(logits["metrics"]["pixel_agreement"].is_null());
  EXPECT_EQ(logits["metrics"]["sums"]["finite"], 1000);
  EXPECT_EQ(logits["expected"]["own_reduction_length"], 512);
  EXPECT_EQ(logits["expected"]["absolute"], 1.2e-6);
  EXPECT_EQ(logits["verdict"]["passed"], true);
  EXPECT_EQ(logits["verdict"]["deciding_layer"], "numeric");
  EXPECT_EQ(logits["verdict"]["checks"][1]["bound"], "at_least");
  EXPECT_EQ(logits["verdict"]["checks"][1]["threshold"], 0.9999);
  EXPECT_EQ(logits["verdict"]["minimum_passing"]["max_abs"], 2.5e-6);

  const json& probs = j["outputs"][1];
  EXPECT_TRUE(probs["expected"].is_null());
  EXPECT_EQ(probs["verdict"]["deciding_layer"], "screen");
  EXPECT_EQ(probs["verdict"]["summary"], "FAIL nan_mismatches 3 > 0 (screen)");
  EXPECT_EQ(probs["verdict"]["checks"][0]["metric"], "nan_mismatches");
  EXPECT_EQ(probs["verdict"]["checks"][0]["bound"], "at_most");
  EXPECT_EQ(probs["verdict"]["checks"][0]["layer"], "screen");
  EXPECT_EQ(probs["verdict"]["checks"][0]["value"], 3);
  EXPECT_EQ(probs["verdict"]["checks"][0]["passed"], false);
  EXPECT_EQ(probs["verdict"]["minimum_passing"]["top1_agreement"], 0.5);
  EXPECT_EQ(probs["metrics"]["nan_mismatches"], 3);
  EXPECT_EQ(probs["metrics"]["inf_mismatches"], 1);
  EXPECT_EQ(probs["metrics"]["histogram"]["non_finite"], 4);
  EXPECT_EQ(probs["metrics"]["probability"]["rows"], 2);
  EXPECT_EQ(probs["metrics"]["probability"]["top1_agreement"], 0.5);
}

// `twinrt report merge` reads parts back: the expected error keeps its saturation and the
// reason it could not be estimated (both were dropped before 2026-12-02).
TEST(ReportJson, ReadBackKeepsTheExpectedErrorsFlags) {
  Report r = sample_report();
  ASSERT_TRUE(r.outputs[0].expected.has_value());
  r.outputs[0].expected->saturated = true;
  r.outputs[0].expected->not_estimable = "a QuantizeLinear upstream";
  auto back = report_from_json(json::parse(to_json(r).dump()), "part.json");
  ASSERT_TRUE(back.is_ok()) << back.status().message();
  const std::optional<ExpectedError>& e = back.value().outputs[0].expected;
  ASSERT_TRUE(e.has_value());
  EXPECT_TRUE(e->saturated);
  EXPECT_EQ(e->not_estimable, "a QuantizeLinear upstream");
  EXPECT_EQ(e->own_reduction_length, r.outputs[0].expected->own_reduction_length);
  EXPECT_FALSE(back.value().outputs[1].expected.has_value() && back.value().outputs[1].expected->saturated);
}

TEST(ReportJson, NonFiniteNumbersAreStrings) {
  const json j = json::parse(to_json(sample_report()).dump());
  const json& m = j["outputs"][1]["metrics"];
  EXPECT_EQ(m["max_abs"], "inf");
  EXPECT_EQ(m["mse"], "inf");
  EXPECT_EQ(m["cosine"], "nan");
  EXPECT_EQ(m["sqnr_db"], "-inf");
  EXPECT_EQ(m["max_ulp"], "inf");
  EXPECT_EQ(m["p99_ulp"], 4);
  EXPECT_EQ(m["probability"]["max_kl"], "inf");
  EXPECT_EQ(m["probability"]["mean_kl"], "nan");
  EXPECT_EQ(j["layers"][1]["carried_to_outputs"]["probs"], "inf");
}

TEST(ReportJson, LayersWithUnmeasuredOwnErrorAndPreprocessCheck) {
  const json j = json::parse(to_json(sample_report()).dump());
  ASSERT_EQ(j["layers"].size(), 3u);
  const json& mul = j["layers"][1];
  EXPECT_EQ(mul["node"], "a<b&\"c");
  EXPECT_EQ(mul["op"], "Mul");
  EXPECT_EQ(mul["tensor"], "t<2>");
  EXPECT_EQ(mul["shape"], json::array({1, 8, 4, 4}));
  EXPECT_EQ(mul["topo_index"], 1);
  EXPECT_EQ(mul["own_error"], 5e-3);
  EXPECT_EQ(mul["inherited_error"], 1e-7);
  EXPECT_EQ(mul["budget"], 1e-7);
  EXPECT_EQ(mul["own_over_budget"], 5e4);
  EXPECT_EQ(mul["own_source"], "reference");
  EXPECT_EQ(mul["carried_to_outputs"]["logits"], 2.5e-6);
  EXPECT_EQ(j["layers"][0]["attributes"], "kernel_shape=[3,3] strides=[1,1]");
  EXPECT_TRUE(j["layers"][2]["own_error"].is_null());
  EXPECT_TRUE(j["layers"][2]["own_over_budget"].is_null());
  EXPECT_EQ(j["first_divergence"], "first divergence: a<b&\"c (Mul) output t<2>");
  ASSERT_EQ(j["preprocess_check"].size(), 1u);
  EXPECT_EQ(j["preprocess_check"][0]["mistake"], "BGR instead of RGB");
  EXPECT_EQ(j["preprocess_check"][0]["metrics"]["cosine"], 0.91);
}

TEST(ReportJson, InvalidUtf8InNamesDoesNotBreakDump) {
  Report r = sample_report();
  r.layers[0].node = "conv\xff";
  r.preprocessing["file"] = "caf\xe9.png";  // a Latin-1 file name
  const json j = json::parse(to_json(r).dump());
  EXPECT_EQ(j["layers"][0]["node"], "conv\xEF\xBF\xBD");
  EXPECT_EQ(j["preprocessing"]["file"], "caf\xEF\xBF\xBD.png");
}

TEST(ReportTerminal, TableHasOneLinePerOutputAndEngine) {
  const std::string text = render_terminal(sample_report());
  const std::string header = "output" + spaces(20) + "  engine" + spaces(12) + "    max abs   expected" +
                             "       cosine    max ULP  verdict\n";
  const std::string logits = "logits" + spaces(20) + "  ort" + spaces(15) + "    2.5e-06    1.2e-06" +
                             "    0.9999996         12  PASS (numeric)\n";
  const std::string probs = "probs" + spaces(21) + "  ort" + spaces(15) + "        inf          -" +
                            "          nan        inf  FAIL (screen)\n";
  EXPECT_TRUE(contains(text, header)) << text;
  EXPECT_TRUE(contains(text, logits)) << text;
  EXPECT_TRUE(contains(text, probs)) << text;
  EXPECT_TRUE(contains(text, "result: FAIL (1 of 2 comparisons passed, 1 engine(s) failed)\n")) << text;
  EXPECT_TRUE(contains(text, "  probs / ort: FAIL nan_mismatches 3 > 0 (screen)\n")) << text;
  EXPECT_TRUE(contains(text, "      would pass with: nan_mismatches <= 3, top1_agreement >= 0.5\n")) << text;
}

TEST(ReportTerminal, NoiseFloorAndEstimabilityAreShownAndJudged) {
  Report r = sample_report();
  OutputComparison& logits = r.outputs[0];  // passes: a noise floor changes nothing
  OutputComparison& probs = r.outputs[1];
  probs.metrics.nan_mismatches = probs.metrics.inf_mismatches = 0;
  probs.metrics.max_abs = 0.09;
  probs.metrics.cosine = 0.9991;
  probs.verdict.passed = false;
  judge_against_noise_floor(logits, NoiseFloor{3, 2, 1e-3, 0.99});
  judge_against_noise_floor(probs, NoiseFloor{3, 2, 0.12, 0.999});
  probs.expected = ExpectedError{};
  probs.expected->not_estimable = "DynamicQuantizeLinear rounds a float input that carries rounding error to integers";
  logits.expected->saturated = true;
  const std::string text = render_terminal(r);
  EXPECT_TRUE(contains(text, "WITHIN NOISE")) << text;
  EXPECT_TRUE(contains(text, "noise floor of probs (twinrt rerun): max abs 0.12 (cosine 0.999) under inputs moved by "
                             "up to 2 ULPs, 3 runs; ort differs")) << text;
  EXPECT_TRUE(contains(text, "by 0.09: within the model's own noise")) << text;
  EXPECT_TRUE(contains(text, "expected error of probs: not estimable, DynamicQuantizeLinear rounds")) << text;
  EXPECT_TRUE(contains(text, ">=1.2e-06")) << text;
  EXPECT_TRUE(contains(text, "1 of them only within the model's own noise")) << text;
  const json j = to_json(r)["outputs"][1];
  EXPECT_EQ(j["within_noise_floor"], true);
  EXPECT_EQ(j["noise_floor"]["max_abs"], 0.12);
  EXPECT_EQ(j["noise_floor"]["runs"], 3);
  EXPECT_EQ(j["expected"]["not_estimable"], probs.expected->not_estimable);
  EXPECT_EQ(to_json(r)["outputs"][0]["expected"]["saturated"], true);
  EXPECT_EQ(to_json(r)["outputs"][0]["within_noise_floor"], false);
}

TEST(ReportTerminal, HeaderNamesEnginesInputsAndErrors) {
  const std::string text = render_terminal(sample_report());
  EXPECT_EQ(text.rfind("twinrt compare (twinrt 0.1.0)\n", 0), 0u) << text;
  EXPECT_TRUE(contains(text, "models:     models/tiny.onnx\n")) << text;
  EXPECT_TRUE(contains(text, "engines:    twinrt" + spaces(13) + "twinrt 0.1.0, default mode [baseline]; 1.25 ms/run\n"))
      << text;
  EXPECT_TRUE(contains(text, spaces(12) + "ort-browser" + spaces(8) + "FAILED (error below)\n")) << text;
  EXPECT_TRUE(contains(text, "inputs:     image cat.png (1 case)\n")) << text;
  EXPECT_TRUE(contains(text, "preprocess: {\"layout\":\"NCHW\",\"mean\":[0.485,0.456,0.406],\"resize\":[224,224]}\n"))
      << text;
  EXPECT_TRUE(contains(text, "engines that failed:\n  ort-browser: chromium: cannot create <session> & \"wasm\" "
                             "backend failed\n"))
      << text;
}

TEST(ReportTerminal, LayersRankedByOwnErrorOverBudget) {
  const std::string text = render_terminal(sample_report());
  EXPECT_TRUE(contains(text, "\nfirst divergence: a<b&\"c (Mul) output t<2>\n")) << text;
  const std::string mul = "  1  a<b&\"c" + spaces(20) + "  Mul" + spaces(11) + "  1x8x4x4" + spaces(7) +
                          "      0.005      1e-07      0.005      1e-07       5e+04\n";
  EXPECT_TRUE(contains(text, mul)) << text;
  EXPECT_TRUE(contains(text, "      carried to: logits 2.5e-06, probs inf\n")) << text;
  // conv_0 (0.5) ranks second; relu_2, whose own error was not measured, last.
  const size_t conv = text.find("  2  conv_0"), relu = text.find("  3  relu_2");
  ASSERT_NE(conv, std::string::npos);
  ASSERT_NE(relu, std::string::npos);
  EXPECT_TRUE(contains(text.substr(relu), "        n/a")) << text;
  EXPECT_TRUE(contains(text, "      attributes: kernel_shape=[3,3] strides=[1,1]\n")) << text;
  EXPECT_TRUE(contains(text, "BGR instead of RGB")) << text;
}

TEST(ReportTerminal, LocalizeStartsWithTheFirstDivergence) {
  Report r = sample_report();
  r.command = "localize";
  EXPECT_EQ(render_terminal(r).rfind("first divergence: a<b&\"c (Mul) output t<2>\ntwinrt localize", 0), 0u);
  r.first_divergence.clear();
  EXPECT_EQ(render_terminal(r).rfind("first divergence: none (every node within its budget)\n", 0), 0u);
}

TEST(ReportTerminal, EveryLineFitsIn120Columns) {
  Report r = sample_report();
  r.outputs[0].output = std::string(200, 'o');
  r.layers[0].node = std::string(300, 'n');
  r.layers[0].attributes = std::string(150, 'a') + " pads=[1,1,1,1]";
  r.engines[2].error = "error: " + std::string(400, 'e') + " then a long sentence " + std::string(30, 'w');
  const std::string text = render_terminal(r);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 120u) << line;
  EXPECT_TRUE(contains(text, std::string(23, 'o') + "...  ort")) << text;
}

TEST(ReportHtml, SelfContainedPageWithEscapedNames) {
  const std::string html = render_html(sample_report());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0), 0u);
  for (const char* engine : {"twinrt", "ort", "ort-browser"}) EXPECT_TRUE(contains(html, engine)) << engine;
  EXPECT_TRUE(contains(html, "a&lt;b&amp;&quot;c")) << "node name escaped";
  EXPECT_FALSE(contains(html, "a<b&\"c"));
  EXPECT_FALSE(contains(html, "t<2>"));
  EXPECT_TRUE(contains(html, "chromium: cannot create &lt;session&gt; &amp; &quot;wasm&quot; backend failed"));
  EXPECT_TRUE(contains(html, "<svg"));
  EXPECT_FALSE(contains(html, "http://"));
  EXPECT_FALSE(contains(html, "https://"));
  EXPECT_FALSE(contains(html, "<script"));
  EXPECT_TRUE(contains(html, "</html>\n"));
}

TEST(ReportHtml, ChartsForEveryComparisonAndTheLayers) {
  const std::string html = render_html(sample_report());
  size_t charts = 0;
  for (size_t at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1)) ++charts;
  EXPECT_EQ(charts, 3u);  // two histograms (logits, probs against ort) and the per-node chart
  EXPECT_TRUE(contains(html, "[1e-6, 1e-5): 4 elements"));       // the logits histogram's top decade
  EXPECT_TRUE(contains(html, "NaN or infinity on either side: 4 elements"));
  EXPECT_TRUE(contains(html, "class=\"divergence\""));           // the first divergence highlighted
  EXPECT_TRUE(contains(html, "class=\"budget\""));
  EXPECT_TRUE(contains(html, "nan_mismatches &lt;= 3, top1_agreement &gt;= 0.5"));
  EXPECT_TRUE(contains(html, "BGR instead of RGB"));
  EXPECT_TRUE(contains(html, "&quot;layout&quot;:&quot;NCHW&quot;"));
}

}  // namespace
}  // namespace twinrt::parity
