// Graph passes: rewrites of the model's main graph when a session is created, before
// kernels are chosen. Each pass declares what it does to the numbers; a mode runs only
// the passes it allows (docs/numerics.md): bit-preserving ones in every mode,
// value-changing ones in default mode only.
#pragma once

#include "ir/ir.h"
#include "twinrt/session.h"

namespace twinrt::passes {

enum class NumericsEffect { kBitPreserving, kValueChanging };

struct GraphPass {
  const char* name;
  NumericsEffect effect;
  // Rewrites the model's main graph in place; returns how many rewrites it made.
  int (*run)(ir::Model& model);
};

// Every pass, in the order they run.
const std::vector<GraphPass>& all_passes();

struct PassRun {
  const GraphPass* pass;
  int rewrites;
};

// Runs the passes that `level` and `mode` allow on the model's main graph; returns what
// each pass that ran did, in order.
std::vector<PassRun> optimize(ir::Model& model, OptimizationLevel level, Mode mode);

}  // namespace twinrt::passes
