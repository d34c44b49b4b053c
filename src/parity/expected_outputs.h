// The expected float error of every graph output of a model, measured from one twinrt
// reference run with every intermediate exposed (for the magnitudes and shapes along each
// path) and the error budget model (error_budget.h). Intermediates are run a chunk at a
// time so no process holds all of them (a 1024x1024 model has gigabytes of them).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "engines/engine.h"
#include "parity/error_budget.h"
#include "parity/inputs.h"
#include "parity/intermediates.h"

namespace twinrt::parity {

// Intermediate bytes a chunk may hold when no memory limit is given (compare).
inline constexpr int64_t kDefaultChunkBytes = int64_t{512} << 20;

// `names`, in order, cut into consecutive chunks whose sizes (from `bytes`) add up to at
// most `chunk_bytes`; a tensor larger than that is a chunk of its own. A size twinrt could
// not infer counts as the largest one it could (a guess, so the chunk stays bounded).
std::vector<std::vector<std::string>> split_by_bytes(const std::vector<std::string>& names,
                                                     const std::map<std::string, int64_t>& bytes, int64_t chunk_bytes);

// Writes `model` to `path` (a new file each time: a loaded session may map the last one),
// loads it on `engine` and runs `input`: every graph output by name. Failures carry the
// engine's own text, prefixed by `label`.
Result<engines::TensorMap> run_model(engines::Engine& engine, const std::string& label, const ir::Model& model,
                                     const std::string& path, const InputCase& input);

// Empty when twinrt cannot run the model: reports then show no expected error.
std::map<std::string, ExpectedError> expected_output_errors(const std::string& model_path, const InputCase& input,
                                                            const engines::EngineOptions& options,
                                                            int64_t chunk_bytes = kDefaultChunkBytes);

}  // namespace twinrt::parity
