// Per-layer error of a quantized (or float16) variant against its float model: both run
// on one input with every intermediate they share by name exposed (intermediates.h), and
// each shared node output compared. A layer's "added" error is its output's relative RMS
// error minus the largest one among the values it reads, so the layer whose rounding
// costs the accuracy stands out from the error it merely passes on.
#pragma once

#include <string>
#include <vector>

#include "engines/engine.h"
#include "parity/inputs.h"

namespace twinrt::parity {

struct LayerQuantError {
  std::string node, op, tensor;  // the float model's node and its output
  int64_t topo_index = 0;        // in the float model
  double rmse_relative = 0;      // of this output, variant against float
  double sqnr_db = 0;
  double added = 0;              // rmse_relative minus the largest of its inputs' (at least 0)
};

// Runs both models on `engine` (the variant as written: its own node outputs are not
// compared, only the float model's tensors it also has). Rewritten models go to work_dir.
Result<std::vector<LayerQuantError>> layer_quant_errors(const std::string& float_path, const std::string& variant_path,
                                                        const InputCase& input, const std::string& engine,
                                                        const engines::EngineOptions& options,
                                                        const std::string& work_dir);

// The entry with the largest `added` error, or nullptr when there is none above 0.
const LayerQuantError* worst_layer(const std::vector<LayerQuantError>& layers);

}  // namespace twinrt::parity
