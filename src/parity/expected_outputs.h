// The expected float error of every graph output of a model, measured from one twinrt
// reference run with every intermediate exposed (for the magnitudes and shapes along each
// path) and the error budget model (error_budget.h).
#pragma once

#include <map>
#include <string>

#include "engines/engine.h"
#include "parity/error_budget.h"
#include "parity/inputs.h"

namespace twinrt::parity {

// Empty when twinrt cannot run the model: reports then show no expected error.
std::map<std::string, ExpectedError> expected_output_errors(const std::string& model_path, const InputCase& input,
                                                            const engines::EngineOptions& options);

// Runs `model` on `engine` with every intermediate made a graph output (the rewritten model
// is written to `path`). Failures carry the engine's own text, prefixed by `label`.
Result<engines::TensorMap> run_with_intermediates(const std::string& engine, const engines::EngineOptions& options,
                                                  const std::string& label, const ir::Model& model,
                                                  const std::string& path, const InputCase& input);

}  // namespace twinrt::parity
