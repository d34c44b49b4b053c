// `twinrt compare --preprocess-check`: how far the outputs move when the first --image is
// fed with one of the usual preprocessing mistakes instead of the given spec, on the
// baseline engine. Shows whether a reported gap could be a preprocessing mismatch.
#pragma once

#include <string>
#include <vector>

#include "engines/engine.h"
#include "parity/inputs.h"
#include "parity/report.h"

namespace twinrt::parity {

// `correct_outputs`: the engine's outputs for the first case with the spec as given.
Result<std::vector<PreprocessVariant>> preprocess_check(const std::string& engine,
                                                        const engines::EngineOptions& options,
                                                        const std::string& model_path,
                                                        const std::vector<IoInfo>& model_inputs,
                                                        const InputSpec& spec,
                                                        const engines::TensorMap& correct_outputs);

}  // namespace twinrt::parity
