// Runs one model stage. The pipeline core uses twinrt sessions; the CLI plugs in the
// engine adapters (src/engines) so any stage can run on ONNX Runtime for comparison.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pipeline/value.h"
#include "twinrt/session.h"

namespace twinrt::pipeline {

class ModelRunner {
 public:
  virtual ~ModelRunner() = default;
  // The model's outputs; empty when the engine cannot tell before a run.
  virtual std::vector<std::string> output_names() const = 0;
  // Returns at least the `outputs` asked for.
  virtual Result<TensorMap> run(const TensorMap& feeds, const std::vector<std::string>& outputs) = 0;
};

using ModelRunnerFactory = std::function<Result<std::unique_ptr<ModelRunner>>(
    const std::string& model_path, const std::string& engine, const SessionOptions& options)>;

// twinrt's own Session; engines "twinrt" (the stage's session options) and "twinrt-ref"
// (reference mode). Other engine names fail with kUnavailable.
Result<std::unique_ptr<ModelRunner>> make_session_runner(const std::string& model_path, const std::string& engine,
                                                         const SessionOptions& options);

}  // namespace twinrt::pipeline
