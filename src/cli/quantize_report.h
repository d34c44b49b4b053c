// `twinrt quantize-report MODEL [VARIANT...]`: a float model and its quantized or float16
// variants side by side: file size, latency per engine, accuracy against the float model
// under a policy, and which layers cost that accuracy. The measurements
// (quantize_report_measure.cc) fill a QuantReport; quantize_report_render.cc prints it as a
// terminal table, JSON and a self-contained HTML page.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engines/engine.h"
#include "parity/comparison.h"
#include "parity/inputs.h"
#include "parity/layer_quant_error.h"
#include "parity/policy.h"

namespace twinrt::cli {

struct EngineLatency {
  std::string engine;
  double p50_ms = 0;
  std::string error;  // why it has no time (the engine could not start, load or run)
};

// One output of a variant against the float model's, over every case.
struct OutputAccuracy {
  std::string output;
  std::optional<double> top1_agreement;  // class scores only ([N, C] outputs)
  double cosine = 1, max_abs = 0, sqnr_db = 0;
  bool passed = true;
  std::string verdict;  // the policy's summary
};

struct VariantReport {
  std::string label;  // "float", or the file's name
  std::string path;
  int64_t bytes = 0;
  std::vector<EngineLatency> latency;  // in --engines order
  std::vector<OutputAccuracy> accuracy;
  int cases_passed = 0;                // cases on which every output passes the policy
  std::string error;                   // twinrt could not run it: no accuracy
  std::vector<parity::LayerQuantError> layers;  // empty for the float model
  std::string layers_error;                     // why the per-layer errors are missing
};

struct QuantReport {
  std::string model;
  std::string policy;
  std::string inputs;  // the input set's description
  int cases = 0;
  int runs = 0, warmup = 0;
  int threads = 1;
  std::vector<std::string> engines;
  std::vector<VariantReport> variants;  // the float model first
};

struct MeasureSettings {
  std::vector<std::string> engines;
  engines::EngineOptions options;
  int runs = 5, warmup = 1;
  std::string work_dir;  // rewritten models for the per-layer errors
};

// Fills every field of `v` but label and path (set by the caller). `float_run`: the float
// model's outputs on every case (twinrt). The float model itself is measured like a variant:
// its second run against the first must show no error at all. `is_float` skips its layers.
void measure_variant(VariantReport& v, bool is_float, const parity::EngineRun& float_run, const std::string& float_path,
                     const parity::InputSet& inputs, const std::vector<std::string>& outputs,
                     const parity::PolicySet& policies, const MeasureSettings& settings);

std::string render_quant_terminal(const QuantReport& report);
nlohmann::json quant_report_json(const QuantReport& report);
std::string render_quant_html(const QuantReport& report);

}  // namespace twinrt::cli
