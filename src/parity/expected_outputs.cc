#include "parity/expected_outputs.h"

#include <algorithm>

#include "io/temp_dir.h"
#include "onnx/loader.h"
#include "onnx/writer.h"

namespace twinrt::parity {

std::vector<std::vector<std::string>> split_by_bytes(const std::vector<std::string>& names,
                                                     const std::map<std::string, int64_t>& bytes, int64_t chunk_bytes) {
  int64_t largest = 0;
  for (const auto& [name, b] : bytes) largest = std::max(largest, b);
  std::vector<std::vector<std::string>> chunks;
  int64_t held = 0;
  for (const auto& name : names) {
    auto it = bytes.find(name);
    const int64_t size = it == bytes.end() ? largest : it->second;
    if (chunks.empty() || (held + size > chunk_bytes && !chunks.back().empty())) {
      chunks.emplace_back();
      held = 0;
    }
    chunks.back().push_back(name);
    held += size;
  }
  return chunks;
}

Result<engines::TensorMap> run_model(engines::Engine& engine, const std::string& label, const ir::Model& model,
                                     const std::string& path, const InputCase& input) {
  TRY(onnx::write_model_file(model, path));
  if (Status s = engine.load(path); !s.is_ok()) return Status(s.code(), label + ": " + s.message());
  auto out = engine.run(input.tensors, {});
  if (!out) return Status(out.status().code(), label + ": " + out.status().message());
  return out;
}

std::map<std::string, ExpectedError> expected_output_errors(const std::string& model_path, const InputCase& input,
                                                            const engines::EngineOptions& options,
                                                            int64_t chunk_bytes) {
  auto model = onnx::load_model_file(model_path);
  auto dir = io::TempDir::create("twinrt-expected");
  auto engine = engines::make_engine("twinrt-ref", options);
  if (!model || !dir || !engine) return {};
  auto exposed = expose_intermediates(*model, options.dim_overrides);
  if (!exposed) return {};
  std::vector<std::string> names;
  for (const auto& o : exposed->model.graph->outputs) names.push_back(o.name);
  std::map<std::string, TensorSummary> summaries;
  for (const auto& [name, t] : input.tensors) summaries[name] = summarize(t);
  const auto chunks = split_by_bytes(names, exposed->bytes, chunk_bytes);
  for (size_t i = 0; i < chunks.size(); ++i) {
    auto part = model_with_outputs(*exposed, chunks[i]);
    if (!part) return {};
    // A file per chunk: a loaded session may map the previous one.
    auto values = run_model(**engine, "twinrt-ref", *part, (*dir)->file("chunk_" + std::to_string(i) + ".onnx"), input);
    if (!values) return {};
    for (const auto& [name, t] : *values) summaries[name] = summarize(t);
  }
  for (const auto& [name, t] : parameter_values(*model->graph)) summaries[name] = summarize(t);
  auto expected = expected_errors(*model->graph, summaries);
  if (!expected) return {};
  std::map<std::string, ExpectedError> outputs;
  for (const auto& o : model->graph->outputs)
    if (auto it = expected->find(o.name); it != expected->end()) outputs.emplace(o.name, it->second);
  return outputs;
}

}  // namespace twinrt::parity
