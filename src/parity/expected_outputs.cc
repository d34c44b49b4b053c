#include "parity/expected_outputs.h"

#include <algorithm>
#include <set>

#include "io/temp_dir.h"
#include "ir/graph_order.h"
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
  // Values later chunks read are kept and fed to them, so each chunk computes only its nodes.
  std::map<std::string, size_t> chunk_of, last_reader;
  for (size_t i = 0; i < chunks.size(); ++i)
    for (const auto& name : chunks[i]) chunk_of[name] = i;
  for (const ir::Node& node : exposed->model.graph->nodes) {
    size_t at = 0;
    for (const auto& o : node.outputs)
      if (auto it = chunk_of.find(o); it != chunk_of.end()) at = std::max(at, it->second);
    std::set<std::string> reads;
    ir::collect_node_reads(node, reads);
    for (const auto& r : reads) last_reader[r] = std::max(last_reader[r], at);
  }
  engines::TensorMap carry;
  for (size_t i = 0; i < chunks.size(); ++i) {
    std::vector<std::string> fed;
    auto part = model_with_outputs(*exposed, chunks[i], carry, &fed);
    if (!part) return {};
    InputCase feeds = input;
    for (const auto& name : fed) feeds.tensors[name] = carry.at(name);
    // A file per chunk: a loaded session may map the previous one.
    auto values = run_model(**engine, "twinrt-ref", *part, (*dir)->file("chunk_" + std::to_string(i) + ".onnx"), feeds);
    if (!values) return {};
    for (const auto& [name, t] : *values) {
      summaries[name] = summarize(t);
      if (last_reader.count(name) && last_reader[name] > i) carry[name] = t;
    }
    for (auto it = carry.begin(); it != carry.end();) it = last_reader[it->first] <= i ? carry.erase(it) : std::next(it);
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
