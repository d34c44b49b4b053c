// `twinrt localize`: which node first makes two runs diverge. Both runs return every
// intermediate (the model rewritten so they are graph outputs); then the second engine
// re-runs every node from the first run's inputs in one pass (the own-error model), which
// separates each node's own error from the error it inherited.
#pragma once

#include <string>

#include "engines/engine.h"
#include "parity/inputs.h"
#include "parity/report.h"

namespace twinrt::parity {

struct LocalizeSetup {
  std::string model_a, model_b;    // the same file when comparing engines
  std::string engine_a, engine_b;  // the same engine when comparing models
  std::string label_a, label_b;    // how the report names the two runs
  engines::EngineOptions options;  // graph optimizations are turned off for ONNX Runtime
  InputCase input;                 // localize looks at one case
  std::string work_dir;            // rewritten models go here
};

// Fails only when the runs cannot be made (a model that does not load, an engine that
// cannot start or rejects the model: the message has the engine's own text).
Result<Report> localize(const LocalizeSetup& setup);

}  // namespace twinrt::parity
