// The result of `twinrt compare` / `twinrt localize` and its three renderings: a terminal
// table, versioned JSON (schema in docs/parity-report-schema.md) and a self-contained
// HTML page with inline SVG charts (no network, no scripts from elsewhere).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "parity/error_budget.h"
#include "parity/metrics.h"
#include "parity/policy.h"

namespace twinrt::parity {

inline constexpr int kReportSchemaVersion = 1;

struct EngineEntry {
  std::string name;          // "twinrt", "ort", or for model-vs-model "A: model.onnx"
  std::string description;   // what ran (versions, backend, adapter); empty when it failed
  std::string model;         // the model file it ran
  bool ok = true;
  std::string error;         // the engine's own error text when it could not load or run
  double mean_run_ms = 0;    // average wall time of its runs in this compare (0 if unknown)
};

// How far the baseline engine's own outputs move when its inputs move by a few ULPs.
struct NoiseFloor {
  int runs = 0;           // perturbed reruns measured
  int ulps = 0;           // the largest input perturbation, in ULPs of each input's dtype
  double max_abs = 0;     // largest |perturbed - baseline| over the reruns
  double cosine = 1;      // smallest cosine over the reruns
};

// One case's error on one comparison: kept while comparing to rank the cases (rank_cases),
// not written to the JSON.
struct CaseError {
  double max_abs = 0;
  bool passed = true;  // the case alone, judged by the policy
};

// A pipeline compare's verdict on one final output of one engine against the baseline's:
// text (equal, else its character error rate) or boxes (all matched, with the smallest IoU).
struct FinalOutputVerdict {
  std::string output, engine;
  std::string summary;  // "same text (8 strings, CER 0)", "8 boxes, all matched, min IoU 1", ...
  bool agrees = true;
  std::optional<double> character_error_rate, min_iou;  // when the output is text / boxes
};

// A case of a multi-case compare with its largest error: the report's worst cases.
struct CaseResult {
  int64_t index = 0;    // in the whole list of cases, from 0 (a shard's cases keep theirs)
  std::string name;     // the case folder's or image's name, "random", ...
  std::map<std::string, std::string> inputs;  // input -> where it came from (a file, "random")
  std::string engine, output;  // where its largest |error| is
  double max_abs = 0;
  bool passed = true;   // every output on every engine within the policy for this case
};

struct OutputComparison {
  std::string output;
  std::string engine;        // compared against the baseline
  std::string policy;        // policy name used for this output
  TensorMetrics metrics;
  Verdict verdict;
  std::optional<ExpectedError> expected;  // absent when the graph path is unknown
  std::optional<NoiseFloor> noise_floor;  // with --noise-floor
  // The policy failed but the difference is within the model's own noise floor: the
  // engines differ no more than the model moves under a few ULPs of input change.
  bool within_noise_floor = false;
  std::vector<CaseError> per_case;  // in case order; empty when read back from JSON
};

// One node in a localize run, or one intermediate in a per-layer compare.
struct LayerEntry {
  std::string node;
  std::string op;
  std::string tensor;        // the output compared
  std::vector<int64_t> shape;
  std::string attributes;    // short "kernel_shape=[3,3] strides=[1,1]"
  int64_t topo_index = 0;
  double total_error = 0;    // max |B - A| of this tensor
  double own_error = 0;      // max |B(node; A's inputs) - A| (negative: not measured)
  double inherited_error = 0;
  double budget = 0;         // expected own float error (absolute)
  double own_over_budget = 0;  // own_error / budget (inf when budget is 0 and error > 0)
  std::string own_source;    // how own error was measured: engine name or "reference"
  std::map<std::string, double> carried_to_outputs;  // graph output -> error there (max abs)
  double noise = -1;         // max |A(perturbed inputs) - A| (negative: not measured)
};

struct PreprocessVariant {
  std::string mistake;       // "BGR instead of RGB", "/255 without mean/std", "NHWC instead of NCHW"
  std::string output;
  TensorMetrics metrics;     // correct preprocessing = reference, mistaken = test
};

struct Report {
  int schema_version = kReportSchemaVersion;
  std::string command;       // "compare" or "localize"
  std::string tool_version;
  std::vector<std::string> models;
  std::vector<EngineEntry> engines;   // the baseline first
  std::string baseline;
  std::string inputs;                 // "random, seed 0, ranges x=0:1" / "image cat.png" / "3 cases from dir"
  nlohmann::json preprocessing;       // the preprocessing spec used (null when none)
  int cases = 1;
  std::vector<OutputComparison> outputs;
  std::vector<LayerEntry> layers;     // empty unless localize or per-layer compare
  std::string first_divergence;       // "first divergence: conv_7 (Conv) output x_12" or ""
  int localize_passes = 0;            // localize: chunks of intermediates run one after another
  std::vector<PreprocessVariant> preprocess_check;
  bool passed = true;
  // Compare: the cases with the largest max_abs (first), at most kWorstCases, and how many
  // cases passed and failed on their own. Empty and 0 when per-case results are unknown.
  std::vector<CaseResult> worst_cases;
  int cases_passed = 0, cases_failed = 0;
  std::vector<FinalOutputVerdict> final_outputs;  // pipeline compare only
};

inline constexpr size_t kWorstCases = 10;
// Sorts by max_abs, largest (and NaN) first, ties by case index, and keeps the first `keep`:
// the same order for one run and for merged shards.
void keep_worst_cases(std::vector<CaseResult>& cases, size_t keep);

nlohmann::json to_json(const Report& report);
std::string render_terminal(const Report& report);   // plain text, fits 120 columns
std::string render_html(const Report& report);       // one self-contained page
// render_html's inline CSS (charts included), for other pages that show the same charts.
const char* report_stylesheet();

}  // namespace twinrt::parity
