#include "parity/expected_outputs.h"

#include "io/temp_dir.h"
#include "onnx/loader.h"
#include "onnx/writer.h"
#include "parity/comparison.h"
#include "parity/intermediates.h"

namespace twinrt::parity {

Result<engines::TensorMap> run_with_intermediates(const std::string& engine, const engines::EngineOptions& options,
                                                  const std::string& label, const ir::Model& model,
                                                  const std::string& path, const InputCase& input) {
  ASSIGN_OR_RETURN(ExposedModel exposed, expose_intermediates(model));
  TRY(onnx::write_model_file(exposed.model, path));
  InputSet one{{input}, "", nullptr};
  EngineRun run = run_cases_on(engine, options, label, path, one, {});
  if (!run.entry.ok) return Status(run.failure, label + ": " + run.entry.error);
  return std::move(run.per_case.front());
}

std::map<std::string, ExpectedError> expected_output_errors(const std::string& model_path, const InputCase& input,
                                                            const engines::EngineOptions& options) {
  auto model = onnx::load_model_file(model_path);
  auto dir = io::TempDir::create("twinrt-expected");
  if (!model || !dir) return {};
  auto values = run_with_intermediates("twinrt-ref", options, "twinrt-ref", *model, (*dir)->file("all.onnx"), input);
  if (!values) return {};
  std::map<std::string, TensorSummary> summaries;
  for (const auto& [name, t] : input.tensors) summaries[name] = summarize(t);
  for (const auto& [name, t] : *values) summaries[name] = summarize(t);
  for (const auto& [name, t] : parameter_values(*model->graph)) summaries[name] = summarize(t);
  auto expected = expected_errors(*model->graph, summaries);
  if (!expected) return {};
  std::map<std::string, ExpectedError> outputs;
  for (const auto& o : model->graph->outputs)
    if (auto it = expected->find(o.name); it != expected->end()) outputs.emplace(o.name, it->second);
  return outputs;
}

}  // namespace twinrt::parity
