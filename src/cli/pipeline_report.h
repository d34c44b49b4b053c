// What `twinrt pipeline run` prints: the outputs (text lines, tensor summaries), the
// per-stage timing table, the JSON form, and the --trace folder.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pipeline/pipeline.h"

namespace twinrt::cli {

// --input NAME=FILE: a .npy file is a tensor, any other file its bytes (uint8[n]).
Result<pipeline::ValueMap> read_pipeline_inputs(const std::vector<std::string>& args);

// One stage's timings over several runs of the pipeline.
struct StageTiming {
  std::string stage, kind, engine;  // kind: the step name, or "model"
  double load_ms = 0, cold_ms = 0;
  std::vector<double> warm_ms;  // runs after the first
  int model_calls = 0;          // in the first run
  int wave = 0;                 // stages of one wave ran concurrently when the pipeline is parallel
};

std::vector<StageTiming> stage_timings(const pipeline::Pipeline& p, const std::vector<pipeline::RunResult>& runs);

// The strings of a value: a string tensor's elements, or a list of string tensors' elements
// in order; empty when it holds no strings.
std::vector<std::string> value_strings(const pipeline::PipelineValue& v);

void print_outputs(const pipeline::RunResult& result, const std::vector<std::string>& order);
// `parallel`: notes that the times of a wave's stages overlap (when a wave has several).
void print_timings(const std::vector<StageTiming>& timings, bool parallel);
nlohmann::json report_json(const pipeline::Pipeline& p, const pipeline::RunResult& result,
                           const std::vector<StageTiming>& timings);

// Writes each stage's values as .npy (strings as .txt, one per line) and prints a one-line
// summary per tensor, also kept in DIR/summary.txt.
Status write_trace(const std::string& dir, const pipeline::RunResult& result);

}  // namespace twinrt::cli
