// C ABI for pipelines (docs/pipelines.md) in the WebAssembly module: the same runner and
// glue steps as the native CLI. JavaScript (js/lib/pipeline.js) writes the pipeline's files
// into the module's file system, then creates and runs it here.
#include <emscripten/emscripten.h>

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "binding.h"
#include "pipeline/pipeline.h"

namespace twinrt::wasm {
namespace {

struct PipelineHandle {
  std::unique_ptr<pipeline::Pipeline> pipeline;
  std::string report;  // JSON of the last run's stage timings
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

// `base_dir`: the folder in the module's file system that relative paths start from.
EMSCRIPTEN_KEEPALIVE PipelineHandle* twinrt_pipeline_create(const char* json, const char* base_dir) {
  auto spec = pipeline::parse_pipeline(json, base_dir);
  if (!spec) return fail<PipelineHandle>(spec.status());
  auto p = pipeline::Pipeline::create(std::move(spec).value(), {});
  if (!p) return fail<PipelineHandle>(p.status());
  return new PipelineHandle{std::move(p).value(), ""};
}

EMSCRIPTEN_KEEPALIVE void twinrt_pipeline_free(PipelineHandle* h) { delete h; }

// Lists come back as sequences of tensors.
EMSCRIPTEN_KEEPALIVE Outputs* twinrt_pipeline_run(PipelineHandle* h, const Feeds* feeds) {
  pipeline::ValueMap inputs;
  for (const auto& [name, v] : feeds->values) {
    if (v.is_tensor()) inputs[name] = pipeline::PipelineValue::single(v.tensor);
    else if (v.is_sequence()) inputs[name] = pipeline::PipelineValue::list(v.sequence);
    else return fail<Outputs>(invalid_argument("pipeline input '" + name + "' must be a tensor or a list of tensors"));
  }
  auto result = h->pipeline->run(inputs);
  if (!result) return fail<Outputs>(result.status());
  h->report = timings_json(*h, *result);
  auto* out = new Outputs();
  for (const auto& name : h->pipeline->spec().outputs) out->entries.emplace_back(name, to_value(result->outputs.at(name)));
  return out;
}

EMSCRIPTEN_KEEPALIVE void twinrt_pipeline_reset_state(PipelineHandle* h) { h->pipeline->reset_state(); }

EMSCRIPTEN_KEEPALIVE const char* twinrt_pipeline_timings(const PipelineHandle* h) { return h->report.c_str(); }

}  // extern "C"
