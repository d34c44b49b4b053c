// `twinrt localize`: which node first makes two runs diverge. Both runs return the
// intermediates (the model rewritten so they are graph outputs) a chunk at a time, under a
// memory budget; for each chunk the second engine re-runs its nodes from the first run's
// inputs (the own-error model), which separates each node's own error from the error it
// inherited. Each chunk's tensors are released once compared.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "engines/engine.h"
#include "parity/inputs.h"
#include "parity/noise_floor.h"
#include "parity/report.h"

namespace twinrt::parity {

// Default budget of localize: the intermediate bytes held at once are a quarter of it (a
// chunk's tensors are held up to four times: run A, run B, the own-error run, its feeds).
inline constexpr int64_t kDefaultLocalizeMemory = int64_t{2} << 30;

struct LocalizeSetup {
  std::string model_a, model_b;    // the same file when comparing engines
  std::string engine_a, engine_b;  // the same engine when comparing models
  std::string label_a, label_b;    // how the report names the two runs
  engines::EngineOptions options;  // graph optimizations are turned off for ONNX Runtime
  InputCase input;                 // localize looks at one case
  std::string work_dir;            // rewritten models go here
  int64_t max_memory_bytes = kDefaultLocalizeMemory;
  std::optional<NoiseSettings> noise;  // also rerun A on perturbed inputs, per tensor
  // Called after each chunk with (chunks done, chunks in all, tensors done, tensors in all).
  std::function<void(size_t, size_t, size_t, size_t)> progress;
};

// Fails only when the runs cannot be made (a model that does not load, an engine that
// cannot start or rejects the model: the message has the engine's own text).
Result<Report> localize(const LocalizeSetup& setup);

}  // namespace twinrt::parity
