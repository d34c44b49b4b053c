// A report built by hand for the report renderers' tests (tests/parity/report_test.cc)
// and the browser test's page (tests/browser): three engines of which one failed, two
// outputs of which one passes and one has NaN/Inf mismatches, three localized nodes
// (one with a name full of HTML metacharacters) and a preprocessing check.
#pragma once

#include <limits>

#include "parity/report.h"

namespace twinrt::parity::testing {

inline CheckResult sample_check(const std::string& metric, Check::Bound bound, double threshold, Layer layer,
                                double value, bool passed) {
  CheckResult r;
  r.check.metric = metric;
  r.check.bound = bound;
  r.check.threshold = threshold;
  r.check.layer = layer;
  r.value = value;
  r.passed = passed;
  return r;
}

inline OutputComparison sample_passing_logits() {
  OutputComparison c;
  c.output = "logits";
  c.engine = "ort";
  c.policy = "fp32";
  TensorMetrics& m = c.metrics;
  m.dtype = "float32";
  m.shape = {1, 1000};
  m.count = 1000;
  m.max_abs = 2.5e-6;
  m.mean_abs = 3e-8;
  m.max_rel = 1.5e-5;
  m.mean_rel = 2e-7;
  m.mse = 4e-14;
  m.rmse_relative = 1.7e-7;
  m.cosine = 0.9999996;
  m.sqnr_db = 95.3;
  m.max_ulp = 12;
  m.p99_ulp = 3;
  m.max_abs_index = 417;
  m.sums.finite = 1000;
  m.histogram.counts = {0, 0, 0, 0, 10, 50, 4};  // decades 1e-12 .. 1e-6
  m.histogram.exact = 936;
  c.verdict.passed = true;
  c.verdict.deciding_layer = Layer::kNumeric;
  c.verdict.checks = {sample_check("max_abs", Check::Bound::kAtMost, 1e-3, Layer::kNumeric, 2.5e-6, true),
                      sample_check("cosine", Check::Bound::kAtLeast, 0.9999, Layer::kNumeric, 0.9999996, true)};
  c.verdict.minimum_passing = {{"max_abs", 2.5e-6}, {"cosine", 0.9999996}};
  c.verdict.summary = "pass (numeric)";
  c.expected = ExpectedError{512, 3.1e-7, 6.2e-7, 1.2e-6, false, ""};
  return c;
}

inline OutputComparison sample_failing_probs() {
  constexpr double inf = std::numeric_limits<double>::infinity();
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  OutputComparison c;
  c.output = "probs";
  c.engine = "ort";
  c.policy = "classification";
  TensorMetrics& m = c.metrics;
  m.dtype = "float32";
  m.shape = {2, 5};
  m.count = 10;
  m.max_abs = inf;
  m.mean_abs = inf;
  m.max_rel = inf;
  m.mean_rel = inf;
  m.mse = inf;
  m.rmse_relative = inf;
  m.cosine = nan;
  m.sqnr_db = -inf;
  m.max_ulp = inf;
  m.p99_ulp = 4;
  m.nan_mismatches = 3;
  m.inf_mismatches = 1;
  m.max_abs_index = 7;
  m.histogram.counts = {0, 0, 0, 0, 0, 1};
  m.histogram.exact = 5;
  m.histogram.non_finite = 4;
  m.probability = ProbabilityMetrics{2, 0.5, 1, inf, nan};
  c.verdict.passed = false;
  c.verdict.deciding_layer = Layer::kScreen;
  c.verdict.checks = {sample_check("nan_mismatches", Check::Bound::kAtMost, 0, Layer::kScreen, 3, false),
                      sample_check("top1_agreement", Check::Bound::kAtLeast, 1, Layer::kTask, 0.5, false)};
  c.verdict.minimum_passing = {{"nan_mismatches", 3}, {"top1_agreement", 0.5}};
  c.verdict.summary = "FAIL nan_mismatches 3 > 0 (screen)";
  return c;  // no expected error: the path to this output is unknown
}

inline LayerEntry sample_layer(const std::string& node, const std::string& op, const std::string& tensor,
                               int64_t topo_index, double total, double own, double inherited, double budget,
                               double own_over_budget) {
  LayerEntry l;
  l.node = node;
  l.op = op;
  l.tensor = tensor;
  l.shape = {1, 8, 4, 4};
  l.topo_index = topo_index;
  l.total_error = total;
  l.own_error = own;
  l.inherited_error = inherited;
  l.budget = budget;
  l.own_over_budget = own_over_budget;
  l.own_source = own < 0 ? "" : "reference";
  return l;
}

inline Report sample_report() {
  Report r;
  r.command = "compare";
  r.tool_version = "0.1.0";
  r.models = {"models/tiny.onnx"};
  r.engines = {{"twinrt", "twinrt 0.1.0, default mode", "models/tiny.onnx", true, "", 1.25},
               {"ort", "onnxruntime-node 1.30.0, CPU, graph optimization all", "models/tiny.onnx", true, "", 0.5},
               {"ort-browser", "", "models/tiny.onnx", false,
                "chromium: cannot create <session> & \"wasm\" backend failed", 0}};
  r.baseline = "twinrt";
  r.inputs = "image cat.png";
  r.preprocessing = {{"resize", {224, 224}}, {"layout", "NCHW"}, {"mean", {0.485, 0.456, 0.406}}};
  r.outputs = {sample_passing_logits(), sample_failing_probs()};
  r.layers = {sample_layer("conv_0", "Conv", "x1", 0, 1e-7, 1e-7, 0, 2e-7, 0.5),
              sample_layer("a<b&\"c", "Mul", "t<2>", 1, 5e-3, 5e-3, 1e-7, 1e-7, 5e4),
              sample_layer("relu_2", "Relu", "x3", 2, 5e-3, -1, 5e-3, 0, 0)};
  r.layers[0].attributes = "kernel_shape=[3,3] strides=[1,1]";
  r.layers[0].carried_to_outputs = {{"logits", 1e-7}};
  r.layers[1].carried_to_outputs = {{"logits", 2.5e-6}, {"probs", std::numeric_limits<double>::infinity()}};
  r.first_divergence = "first divergence: a<b&\"c (Mul) output t<2>";
  PreprocessVariant bgr;
  bgr.mistake = "BGR instead of RGB";
  bgr.output = "probs";
  bgr.metrics.max_abs = 0.3;
  bgr.metrics.cosine = 0.91;
  bgr.metrics.rmse_relative = 0.4;
  r.preprocess_check = {bgr};
  r.passed = false;
  return r;
}

}  // namespace twinrt::parity::testing
