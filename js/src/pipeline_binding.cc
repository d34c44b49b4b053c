// C ABI for pipelines (docs/pipelines.md) in the WebAssembly module: the same runner and
// glue steps as the native CLI. JavaScript (js/lib/pipeline.js) writes the pipeline's files
// into the module's file system, then creates and runs it here. A run stops at each stage
// JavaScript runs itself (the WebGPU provider): JavaScript reads that stage's model calls,
// runs them, hands the outputs back and resumes; contracts, fan-out and timings stay here.
#include <emscripten/emscripten.h>

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "binding.h"
#include "pipeline/pipeline.h"

namespace twinrt::wasm {
namespace {

struct PipelineHandle {
  std::unique_ptr<pipeline::Pipeline> pipeline;
  std::string report;  // JSON of the last run's stage timings
  pipeline::RunProgress progress;
  std::string request;                     // JSON of the host stage the run stopped at
  std::vector<pipeline::TensorMap> answers;  // its outputs so far, one map per call
};

std::string g_files;

Value to_value(const pipeline::PipelineValue& v) {
  if (!v.is_list) return Value::of(v.tensor());
  return Value::of_sequence(v.items, v.items.empty() ? DataType::kUndefined : v.items.front().dtype());
}

std::string timings_json(const PipelineHandle& h, const pipeline::RunResult& result) {
  nlohmann::json stages = nlohmann::json::array();
  const auto& specs = h.pipeline->spec().stages;
  for (size_t i = 0; i < specs.size(); ++i)
    stages.push_back({{"stage", specs[i].name},
                      {"kind", specs[i].is_model() ? "model" : specs[i].step},
                      {"load_ms", h.pipeline->load_ms()[i]},
                      {"run_ms", result.stages[i].ms},
                      {"model_calls", result.stages[i].model_calls}});
  return stages.dump();
}

std::vector<std::string> lines(const char* text) {
  std::vector<std::string> out;
  std::string line;
  for (const char* c = text; *c; ++c) {
    if (*c != '\n') line += *c;
    else if (!line.empty()) out.push_back(std::move(line)), line.clear();
  }
  if (!line.empty()) out.push_back(line);
  return out;
}

// -1: failed (twinrt_last_error); 0: finished (twinrt_pipeline_outputs); n > 0: stopped at
// a host stage with n model calls (twinrt_pipeline_request, twinrt_pipeline_call).
int step_result(PipelineHandle* h, Result<pipeline::RunProgress> progress) {
  h->answers.clear();
  if (!progress) {
    set_error(progress.status());
    return -1;
  }
  h->progress = std::move(progress).value();
  if (const auto& r = h->progress.request) {
    h->request = nlohmann::json{{"stage", r->stage}, {"outputs", r->outputs}}.dump();
    return static_cast<int>(r->calls.size());
  }
  h->report = timings_json(*h, h->progress.result);
  return 0;
}

}  // namespace
}  // namespace twinrt::wasm

using namespace twinrt;
using namespace twinrt::wasm;

extern "C" {

// The files `json` names, one per line, relative to the pipeline file; null on error.
EMSCRIPTEN_KEEPALIVE const char* twinrt_pipeline_files(const char* json) {
  auto files = pipeline::referenced_files(json);
  if (!files) return fail<const char>(files.status());
  g_files.clear();
  for (const std::string& f : *files) g_files += f + "\n";
  return g_files.c_str();
}

// `base_dir`: the folder in the module's file system that relative paths start from;
// `host_stages`: the model stages JavaScript runs, one name per line.
EMSCRIPTEN_KEEPALIVE PipelineHandle* twinrt_pipeline_create(const char* json, const char* base_dir, const char* host_stages) {
  auto spec = pipeline::parse_pipeline(json, base_dir);
  if (!spec) return fail<PipelineHandle>(spec.status());
  pipeline::PipelineOptions options;
  options.host_stages = lines(host_stages);
  auto p = pipeline::Pipeline::create(std::move(spec).value(), options);
  if (!p) return fail<PipelineHandle>(p.status());
  auto* handle = new PipelineHandle();
  handle->pipeline = std::move(p).value();
  return handle;
}

EMSCRIPTEN_KEEPALIVE void twinrt_pipeline_free(PipelineHandle* h) { delete h; }

// Starts a run (see step_result for what comes back).
EMSCRIPTEN_KEEPALIVE int twinrt_pipeline_start(PipelineHandle* h, const Feeds* feeds) {
  pipeline::ValueMap inputs;
  for (const auto& [name, v] : feeds->values) {
    if (v.is_tensor()) inputs[name] = pipeline::PipelineValue::single(v.tensor);
    else if (v.is_sequence()) inputs[name] = pipeline::PipelineValue::list(v.sequence);
    else return step_result(h, invalid_argument("pipeline input '" + name + "' must be a tensor or a list of tensors"));
  }
  return step_result(h, h->pipeline->start(inputs));
}

// {"stage", "outputs"} of the host stage the run stopped at.
EMSCRIPTEN_KEEPALIVE const char* twinrt_pipeline_request(const PipelineHandle* h) { return h->request.c_str(); }

// The feeds of model call i of that stage.
EMSCRIPTEN_KEEPALIVE Outputs* twinrt_pipeline_call(const PipelineHandle* h, int i) {
  const auto& request = h->progress.request;
  if (!request || i < 0 || static_cast<size_t>(i) >= request->calls.size())
    return fail<Outputs>(invalid_argument("no such host call"));
  auto* out = new Outputs();
  for (const auto& [name, t] : request->calls[i]) out->entries.emplace_back(name, Value::of(t));
  return out;
}

// The outputs of the next call, in call order; 0, or -1 on error.
EMSCRIPTEN_KEEPALIVE int twinrt_pipeline_answer(PipelineHandle* h, const Feeds* outputs) {
  pipeline::TensorMap answer;
  for (const auto& [name, v] : outputs->values) {
    if (!v.is_tensor()) {
      set_error(invalid_argument("host output '" + name + "' must be a tensor"));
      return -1;
    }
    answer[name] = v.tensor;
  }
  h->answers.push_back(std::move(answer));
  return 0;
}

// Goes on with the answers given (see step_result).
EMSCRIPTEN_KEEPALIVE int twinrt_pipeline_resume(PipelineHandle* h) {
  std::vector<pipeline::TensorMap> answers = std::move(h->answers);
  return step_result(h, h->pipeline->resume(std::move(answers)));
}

// The outputs of the finished run; lists come back as sequences of tensors.
EMSCRIPTEN_KEEPALIVE Outputs* twinrt_pipeline_outputs(const PipelineHandle* h) {
  auto* out = new Outputs();
  for (const auto& name : h->pipeline->spec().outputs)
    out->entries.emplace_back(name, to_value(h->progress.result.outputs.at(name)));
  return out;
}

EMSCRIPTEN_KEEPALIVE void twinrt_pipeline_reset_state(PipelineHandle* h) { h->pipeline->reset_state(); }

EMSCRIPTEN_KEEPALIVE const char* twinrt_pipeline_timings(const PipelineHandle* h) { return h->report.c_str(); }

}  // extern "C"
