// A pipeline file (JSON, docs/pipelines.md) parsed and validated before anything runs:
// unknown steps, missing models, values nobody produces, duplicate producers and cycles
// are rejected with a message naming the stage.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pipeline/contract.h"
#include "twinrt/session.h"

namespace twinrt::pipeline {

struct StageSpec {
  std::string name;
  std::string step;        // a built-in step, or
  std::string model_path;  // a model (absolute, resolved against the pipeline file's folder)
  std::string engine = "twinrt";
  SessionOptions session;
  nlohmann::json params = nlohmann::json::object();
  std::map<std::string, std::string> inputs;   // port -> value name
  std::map<std::string, std::string> outputs;  // port -> value name
  bool map = false;  // run once per item of the list inputs
  int batch = 1;     // model stages with map: items of equal shape run together, up to this many
  int wave = 0;      // 0: reads only pipeline inputs; else 1 + the latest wave of its producers
  bool is_model() const { return !model_path.empty(); }
};

// A value carried from one run to the next (streaming: a recurrent model's state). Input
// `to` gets what `from` held at the end of the previous run, or zeros of `dtype`/`shape`
// on the first run; a caller may still give `to` explicitly.
struct StateSpec {
  std::string from, to;
  DataType dtype = DataType::kFloat;
  std::vector<int64_t> shape;
};

struct PipelineSpec {
  std::string name;
  std::string base_dir;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  // Ordered by wave, then by position in the file: every stage follows its producers, and
  // the stages of one wave (independent of each other) are adjacent.
  std::vector<StageSpec> stages;
  std::map<std::string, Contract> contracts;
  std::vector<StateSpec> state;
  bool parallel = true;  // "parallel": run a wave's stages concurrently (native runtime only)
};

// `base_dir` resolves relative model and parameter paths.
Result<PipelineSpec> parse_pipeline(const std::string& json_text, const std::string& base_dir);
Result<PipelineSpec> load_pipeline_file(const std::string& path);

// The files a pipeline file names (models, dictionaries, label lists), as written in it:
// what twinrt-web fetches next to the pipeline before creating it.
Result<std::vector<std::string>> referenced_files(const std::string& json_text);

}  // namespace twinrt::pipeline
